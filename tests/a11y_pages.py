"""Every page a player or a director uses, for the accessibility check
(tests/pages/test_a11y_browser.py runs axe-core over each, in English and in Italian).

**A new page joins this list.** `a11y_pages(director)` builds a club night from fixtures (a
running rubber session with deals, a planned and a closed session, a Bridge for Two match, a
Misery match) and answers one `A11yPage` per page: its name, its path and who looks at it
("anonymous" pages are visited first, then the director signs in and visits the rest; a
director sees every page a player sees, entry forms included). A page added to the project
adds its entry here, built from the same fixtures.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from games.sessions import lifecycle
from scoring.standings import services as scoring_services
from scoring.standings.results_mail import unsubscribe_token
from tests.factories import acting, add_player, make_club, make_session

NAMES = ("Ann Archer", "Ben Baker", "Clara Cole", "Dan Drake", "Eve Evans", "Fay Fox")


@dataclass(frozen=True)
class A11yPage:
    name: str
    path: str
    who: str = "director"  # or "anonymous"


def a11y_pages(director: Any) -> list[A11yPage]:
    """The pages of one club night, anonymous ones first (see the module's docstring)."""
    club = make_club(director=director, slug="riverside")
    players = [add_player(club, name) for name in NAMES]
    # The unsubscribe link is tied to an address: the first player has one.
    players[0].email = "first@example.org"
    players[0].save(update_fields=["email"])
    session = make_session(club, [players[:5]], stake=Decimal("0.50"))
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    rubber = session.rubbers.get(number=1)
    for number, contract in ((1, "4S"), (2, "3NTX")):
        rubber.record_deal(
            number=number,
            contract=contract,
            declarer="N",
            tricks=10,
            actor=acting(rubber, director),
        )
    scoring_services.standings_refresh(session_id=session.pk)
    planned = make_session(club, [players[1:5]], start=False)
    # Planned for another day with players still seated tonight: starting it asks first.
    later = make_session(club, [players[1:5]], start=False, date=datetime.date(2026, 12, 2))
    closed = make_session(club, [players[1:5]], date=datetime.date(2026, 11, 23))
    lifecycle.session_close(session=closed)
    extra = [add_player(club, name) for name in ("Gil Green", "Hal Hart", "Ivy Ince", "Jo Jay")]
    two = make_session(club, [extra[:2]], kind="bridge_for_two")
    misery = make_session(club, [extra[2:]], kind="misery")
    match = two.rubbers.get()
    # A Misery deal, for its correction form (the two-player fields and their live line).
    misery_match = misery.rubbers.get()
    misery_deal, _ = misery_match.record_deal(
        number=1,
        data={"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 8},
        actor=acting(misery_match, director),
    )
    table = session.tables.get()
    slug = club.slug
    at = f"/clubs/{slug}/sessions/{session.pk}"
    return [
        A11yPage("login", "/accounts/login/", "anonymous"),
        A11yPage("password reset", "/accounts/password/reset/", "anonymous"),
        A11yPage("table code: seat picker", f"/t/{table.code}", "anonymous"),
        A11yPage(
            "results mail: unsubscribe",
            f"/mail/unsubscribe/{unsubscribe_token(players[0])}/",
            "anonymous",
        ),
        A11yPage("home", "/"),
        A11yPage("new club", "/clubs/new/"),
        A11yPage("club", f"/clubs/{slug}/"),
        A11yPage("players", f"/clubs/{slug}/players/"),
        A11yPage("settings", f"/clubs/{slug}/settings/"),
        A11yPage("console", f"/clubs/{slug}/console/"),
        A11yPage("room", f"/clubs/{slug}/room/"),
        A11yPage("session", f"{at}/"),
        A11yPage("table cards", f"{at}/cards/"),
        A11yPage("close session", f"{at}/close/"),
        A11yPage("arrivals", f"{at}/arrivals/"),
        A11yPage("early leaver", f"{at}/tables/1/leaver/"),
        A11yPage("table now", f"/tables/{table.pk}/"),
        A11yPage("rubber pad and entry", f"/rubbers/{rubber.pk}/"),
        A11yPage("deal correction", f"/deals/{rubber.deals.get(number=2).pk}/correct"),
        A11yPage("two-player pad and entry", f"/rubbers/{match.pk}/"),
        A11yPage("misery pad and entry", f"/rubbers/{misery_match.pk}/"),
        A11yPage("two-player deal correction", f"/deals/{misery_deal.pk}/correct"),
        A11yPage("re-seat planned", f"/clubs/{slug}/sessions/{planned.pk}/seat/"),
        A11yPage("delete planned", f"/clubs/{slug}/sessions/{planned.pk}/delete/"),
        A11yPage("start, asking first", f"/clubs/{slug}/sessions/{later.pk}/start/"),
        A11yPage("closed session", f"/clubs/{slug}/sessions/{closed.pk}/"),
        A11yPage("reopen", f"/clubs/{slug}/sessions/{closed.pk}/reopen/"),
        A11yPage("standings", f"/sessions/{session.pk}/standings/"),
        A11yPage("settlement", f"/sessions/{session.pk}/settlement/"),
        A11yPage("prize cut", f"/sessions/{session.pk}/prize-cut/"),
        A11yPage("leaderboard", f"/clubs/{slug}/leaderboard/"),
        A11yPage("ratings", f"/clubs/{slug}/ratings/"),
        A11yPage("player", f"/players/{players[0].pk}/"),
        A11yPage("player history", f"/players/{players[0].pk}/history/"),
        A11yPage("results sheet", f"/sessions/{closed.pk}/results-sheet/"),
        A11yPage("season accounts", f"/clubs/{slug}/accounts/"),
        A11yPage("record a payment", f"/clubs/{slug}/accounts/payments/new/"),
        A11yPage("statement", f"/players/{players[1].pk}/statement/"),
        A11yPage("password change", "/accounts/password/"),
    ]
