"""Signals the write path sends so that it needs no import of the standings app above it.

games and the club import send them; `scoring.standings` connects its receivers in
`StandingsConfig.ready()` (docs/architecture.md, "How a result reaches the standings").
"""

from django.dispatch import Signal

#: A committed write changed a session's results: queue its standings refresh.
#: Keyword argument: ``session_id``.
results_changed = Signal()

#: A session's results were loaded in bulk (a club import): recompute its standings now.
#: Keyword argument: ``session_id``.
results_restored = Signal()

#: A session closed (``games.sessions.session_close``), sent inside its transaction with the
#: session's row locked: post the night's money to the season accounts (RULES 4.4) and queue each
#: player's results mail of this close.
#: Keyword arguments: ``session_id``, ``close`` (which close of the session: 1, 2, ...).
session_closed = Signal()
