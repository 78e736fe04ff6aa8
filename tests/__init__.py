"""Backscore's tests mirror the packages (CONVENTIONS.md, issue 16):

- tests/scoring/rules: the engine (scoring/rules), pure; tables from RULES.md and properties.
- tests/scoring/standings: the standings app (scoring/standings): refresh, pages, API, ratings.
- tests/clubs: clubs, players, invitations, club settings and permissions (clubs/).
- tests/games: sessions, tables, rubbers and deals (games/), two-player games in two_player/.
- tests/config: settings, health, tasks, the offline shell (config/).

Cross-cutting suites that exercise every app at once stay apart: security (the permission
matrix, fuzzing, isolation), integration (real PostgreSQL, Redis and Celery), i18n, pages
(browser journeys across apps) and scale (query counts). Shared fixtures live once in
tests/conftest.py, builders in tests/factories.py; `unchanged()` checks a refused write.
"""
