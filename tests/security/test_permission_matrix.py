"""Every URL of the site × six personas, with the expected status (docs/security.md).

The patterns come from the URL conf itself (`get_resolver().url_patterns`, recursively), so a
new endpoint cannot escape: a pattern missing from MATRIX fails `test_every_url_is_classified`
with a message naming it. Each case runs in a savepoint that is rolled back, so every persona
meets the same world (a members-only club night, tests/security/conftest.py).

Statuses are per persona, in the order of PERSONAS:
(anonymous, outsider, member, seated, other_director, director).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from clubs.models import Invitation, Player
from games.models import Deal
from tests.conftest import unchanged
from tests.factories import PASSWORD
from tests.security.conftest import PERSONAS, World

Statuses = tuple[int, int, int, int, int, int]

# Reads of a members-only club: it does not exist for non-members.
READ: Statuses = (404, 404, 200, 200, 404, 200)
EVERYONE: Statuses = (200,) * 6
# A page for any signed-in user: anonymous visitors are sent to the sign-in page.
SIGNED_IN: Statuses = (302, 200, 200, 200, 200, 200)
# A page behind login_required: anonymous visitors are sent to the sign-in page.
PAGE_DIRECTOR_ONLY: Statuses = (302, 404, 403, 403, 404, 200)
STREAM_READ: Statuses = (404, 404, 204, 204, 404, 204)
STREAM_DIRECTOR_ONLY: Statuses = (302, 404, 403, 403, 404, 204)


@dataclass(frozen=True)
class Case:
    """How to call one URL pattern: its path from the world, the body, the expected statuses."""

    path: Callable[[World], str]
    expect: dict[str, Statuses]
    body: dict[str, Callable[[World], dict[str, Any]]] = field(default_factory=dict)


def _plan_body(w: World) -> dict[str, Any]:
    ids = [w.players[n].pk for n in ("north", "east", "south", "west")]
    return {"date": "2026-12-01", "tables": [{"players": ids}]}


_addresses = itertools.count()

NEW_CLUB_FORM = {
    "slug": "newclub",
    "name": "New club",
    "rules_preset": "acbl",
    "default_stake": "0.00",
    "currency": "EUR",
    "language": "en",
}


def _invitation(w: World) -> int:
    """An invitation of the club for the outsider's login (made once per world)."""
    player, _ = Player.objects.get_or_create(club=w.club, name="Invited")
    outsider = get_user_model().objects.get(username="outsider")
    invitation, _ = Invitation.objects.get_or_create(
        player=player, username="outsider", defaults={"user": outsider}
    )
    return invitation.pk


def _disputed(w: World) -> dict[str, Any]:
    """The world's deal disputed (as an opponent would, so there is something to rule on), and
    the body of a ruling on it: the version read."""
    Deal.objects.filter(pk=w.deal.pk).update(disputed=True, ruled=False)
    return {"version": w.deal.version}


#: Only the invited login's holder (here the outsider) answers an invitation.
HOLDER_ONLY_API: Statuses = (401, 200, 404, 404, 404, 404)
HOLDER_ONLY_PAGE: Statuses = (302, 302, 404, 404, 404, 404)


def _console_form(w: World) -> dict[str, Any]:
    ids = [w.players[n].pk for n in ("north", "east", "south", "west")]
    return {
        "date": "2026-12-01",
        "kind": "rubber",
        "movement": "pivot",
        "stake_per_hundred": "0.00",
        "players": ids,
    }


def _closed(w: World) -> int:
    """The running session, closed (in the case's savepoint), to be reopened. Idempotent: other
    tests build every path of the matrix in one world, some with ids that do not exist."""
    from clubs.models import Session
    from games.sessions.lifecycle import session_close

    running = Session.objects.filter(pk=w.running.pk, status=Session.Status.RUNNING).first()
    if running is not None:
        session_close(session=running)
    return w.running.pk


def _unsubscribe_token(w: World) -> str:
    from scoring.standings.results_mail import unsubscribe_token

    north = w.players["north"]
    # The link is tied to the address it was mailed to: North has one, as after his own case.
    type(north).objects.filter(pk=north.pk).update(email="north@example.org")
    north.refresh_from_db()
    return unsubscribe_token(north)


def _tie(w: World) -> dict[str, Any]:
    """North and South share the running session's first choice of prize (RULES 6.3), as a
    refresh would store it; the body of the cut North won."""
    from scoring.standings.models import SessionStanding, SessionStandingsState

    SessionStandingsState.objects.get_or_create(session=w.running)
    for name in ("north", "south"):
        SessionStanding.objects.update_or_create(
            session=w.running,
            player=w.players[name],
            defaults={"club": w.club, "date": w.running.date, "rank": 1, "prize_choice": 1},
        )
    return {"winner": w.players["north"].pk}


#: route name (namespace:name) → Case. Admin patterns are classified by ADMIN_PREFIX below.
MATRIX: dict[str, Case] = {
    # --- site ----------------------------------------------------------------------------------
    "home": Case(lambda w: "/", {"GET": EVERYONE}),
    "healthz": Case(lambda w: "/healthz", {"GET": EVERYONE}),
    "favicon": Case(lambda w: "/favicon.ico", {"GET": (301,) * 6}),
    "service-worker": Case(lambda w: "/sw.js", {"GET": EVERYONE}),
    "manifest": Case(lambda w: "/manifest.webmanifest", {"GET": EVERYONE}),
    "login": Case(lambda w: "/accounts/login/", {"GET": EVERYONE}),
    "logout": Case(lambda w: "/accounts/logout/", {"POST": (302,) * 6}),
    # Password pages (docs/security.md): changing needs a sign-in; a reset is for anyone.
    "password_change": Case(
        lambda w: "/accounts/password/",
        # A POST with no body is the form again, with its errors.
        {"GET": SIGNED_IN, "POST": SIGNED_IN},
    ),
    "password_change_done": Case(lambda w: "/accounts/password/done/", {"GET": SIGNED_IN}),
    "password_reset": Case(
        lambda w: "/accounts/password/reset/",
        {"GET": EVERYONE, "POST": (302,) * 6},
        # A new address each time: one address gets a few requests an hour.
        {"POST": lambda w: {"email": f"nobody{next(_addresses)}@example.org"}},
    ),
    "password_reset_done": Case(lambda w: "/accounts/password/reset/sent/", {"GET": EVERYONE}),
    "password_reset_confirm": Case(
        # A link that is no link: the page says so, to everyone.
        lambda w: "/accounts/reset/x/not-a-token/",
        {"GET": EVERYONE},
    ),
    "password_reset_complete": Case(lambda w: "/accounts/reset/done/", {"GET": EVERYONE}),
    "set_language": Case(
        lambda w: "/i18n/setlang/", {"POST": (302,) * 6}, {"POST": lambda w: {"language": "it"}}
    ),
    "schema": Case(lambda w: "/api/schema/", {"GET": EVERYONE}),
    "api-docs": Case(lambda w: "/api/docs/", {"GET": EVERYONE}),
    # --- API: auth and clubs --------------------------------------------------------------------
    "api-token": Case(
        lambda w: "/api/v1/auth/token/",
        # DELETE revokes the token presented: none here (the personas use the session).
        {"POST": EVERYONE, "DELETE": (401,) * 6},
        {"POST": lambda w: {"username": "north", "password": PASSWORD}},
    ),
    "api-clubs": Case(
        lambda w: "/api/v1/clubs/",
        {"GET": EVERYONE, "POST": (401, 201, 201, 201, 201, 201)},
        {"POST": lambda w: {"slug": "newclub", "name": "New club"}},
    ),
    "api-club": Case(lambda w: f"/api/v1/clubs/{w.club.slug}/", {"GET": READ}),
    "api-club-players": Case(
        lambda w: f"/api/v1/clubs/{w.club.slug}/players/",
        {"GET": READ, "POST": (401, 404, 403, 403, 404, 201)},
        {"POST": lambda w: {"name": "Gus"}},
    ),
    "api-invitations": Case(
        lambda w: "/api/v1/invitations/", {"GET": (401, 200, 200, 200, 200, 200)}
    ),
    "api-invitation-accept": Case(
        lambda w: f"/api/v1/invitations/{_invitation(w)}/accept", {"POST": HOLDER_ONLY_API}
    ),
    "api-invitation-decline": Case(
        lambda w: f"/api/v1/invitations/{_invitation(w)}/decline",
        {"POST": (401, 204, 404, 404, 404, 404)},
    ),
    "api-club-sessions": Case(
        lambda w: f"/api/v1/clubs/{w.club.slug}/sessions/",
        {"GET": READ, "POST": (401, 404, 403, 403, 404, 201)},
        {"POST": _plan_body},
    ),
    "api-club-ratings": Case(lambda w: f"/api/v1/clubs/{w.club.slug}/ratings", {"GET": READ}),
    "api-club-leaderboard": Case(
        lambda w: f"/api/v1/clubs/{w.club.slug}/leaderboard", {"GET": READ}
    ),
    # --- API: sessions and tables ---------------------------------------------------------------
    "api-session": Case(
        # A planned session: PATCH re-seats it (a started one answers 409).
        lambda w: f"/api/v1/sessions/{w.planned.pk}/",
        {"GET": READ, "PATCH": (401, 404, 403, 403, 404, 200)},
        {"PATCH": lambda w: {"movement": "cut-in"}},
    ),
    "api-session-start": Case(
        lambda w: f"/api/v1/sessions/{w.planned.pk}/start",
        {"POST": (401, 404, 403, 403, 404, 200)},
    ),
    "api-session-close": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/close",
        {"POST": (401, 404, 403, 403, 404, 200)},
    ),
    "api-session-reopen": Case(
        lambda w: f"/api/v1/sessions/{_closed(w)}/reopen",
        {"POST": (401, 404, 403, 403, 404, 200)},
    ),
    "api-table-rotation": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/tables/1/rotation", {"GET": READ}
    ),
    "api-table-players": Case(
        lambda w: f"/api/v1/sessions/{w.planned.pk}/tables/1/players",
        {"POST": (401, 404, 403, 403, 404, 201), "DELETE": (401, 404, 403, 403, 404, 200)},
        {
            "POST": lambda w: {"player": w.players["fay"].pk},
            "DELETE": lambda w: {"player": w.players["eve"].pk},
        },
    ),
    # Changes at the table (issue 18). The running session has one table of four: closing it
    # for a leaver would leave three, so even the director's call is refused (400).
    "api-table-substitute": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/tables/1/substitute",
        {"POST": (401, 404, 403, 403, 404, 200)},
        {"POST": lambda w: {"leaver": w.players["west"].pk, "name": "Gus"}},
    ),
    "api-table-leave": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/tables/1/leave",
        {"POST": (401, 404, 403, 403, 404, 400)},
        {"POST": lambda w: {"leaver": w.players["west"].pk}},
    ),
    "api-session-arrivals": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/arrivals",
        {"POST": (401, 404, 403, 403, 404, 201)},
        {"POST": lambda w: {"players": [w.players["fay"].pk]}},
    ),
    "api-session-standings": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/standings", {"GET": READ}
    ),
    "api-session-settlement": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/settlement", {"GET": READ}
    ),
    "api-session-deals": Case(lambda w: f"/api/v1/sessions/{w.running.pk}/deals", {"GET": READ}),
    # The cut for a shared prize choice (RULES 6.3): the club's directors.
    "api-session-prize-cuts": Case(
        lambda w: f"/api/v1/sessions/{w.running.pk}/prize-cuts",
        {"POST": (401, 404, 403, 403, 404, 201)},
        {"POST": _tie},
    ),
    # --- API: rubbers and deals -----------------------------------------------------------------
    "api-rubber": Case(lambda w: f"/api/v1/rubbers/{w.rubber.pk}/", {"GET": READ}),
    "api-rubber-deals": Case(
        lambda w: f"/api/v1/rubbers/{w.rubber.pk}/deals/",
        # Entry: the seated players and the club's directors (API.md).
        {"POST": (401, 404, 403, 201, 404, 201)},
        {"POST": lambda w: {"number": 2, "contract": "pass"}},
    ),
    "api-deal": Case(
        lambda w: f"/api/v1/deals/{w.deal.pk}/",
        # Corrections: a director, or a player at the table (API.md).
        # Deleting the last deal (it is, here): the same people (docs/rules.md, §8 decision 7).
        {
            "GET": READ,
            "PATCH": (401, 404, 403, 200, 404, 200),
            "DELETE": (401, 404, 403, 204, 404, 204),
        },
        {"PATCH": lambda w: {"version": 1, "tricks": 8}, "DELETE": lambda w: {"version": 1}},
    ),
    "api-deal-history": Case(lambda w: f"/api/v1/deals/{w.deal.pk}/history", {"GET": READ}),
    "api-deal-confirm": Case(
        lambda w: f"/api/v1/deals/{w.deal.pk}/confirm",
        # Confirmation: a player seated in the rubber (a director entered it, so either side).
        {"POST": (401, 404, 403, 200, 404, 403)},
    ),
    "api-rubber-confirm-all": Case(
        lambda w: f"/api/v1/rubbers/{w.rubber.pk}/confirm-all",
        # "Confirm all": as one confirmation, a player seated in the rubber.
        {"POST": (401, 404, 403, 200, 404, 403)},
        {"POST": lambda w: {"deals": [{"id": w.deal.pk, "version": w.deal.version}]}},
    ),
    "api-deal-dispute": Case(
        lambda w: f"/api/v1/deals/{w.deal.pk}/dispute",
        # A dispute, with its reason: as a confirmation, a player seated in the rubber.
        {"POST": (401, 404, 403, 200, 404, 403)},
        {"POST": lambda w: {"version": w.deal.version, "reason": "result"}},
    ),
    "api-deal-rule": Case(
        lambda w: f"/api/v1/deals/{w.deal.pk}/rule",
        # A ruling that a disputed deal stands: the club's directors only (docs/api.md).
        {"POST": (401, 404, 403, 403, 404, 200)},
        {"POST": lambda w: _disputed(w)},
    ),
    # --- pages: clubs ---------------------------------------------------------------------------
    "clubs:create": Case(
        lambda w: "/clubs/new/",
        {"GET": (302, 200, 200, 200, 200, 200), "POST": (302,) * 6},
        {"POST": lambda w: {**NEW_CLUB_FORM}},
    ),
    "clubs:home": Case(lambda w: f"/clubs/{w.club.slug}/", {"GET": READ}),
    "clubs:invitation_accept": Case(
        lambda w: f"/clubs/invitations/{_invitation(w)}/accept/", {"POST": HOLDER_ONLY_PAGE}
    ),
    "clubs:invitation_decline": Case(
        lambda w: f"/clubs/invitations/{_invitation(w)}/decline/", {"POST": HOLDER_ONLY_PAGE}
    ),
    "clubs:players": Case(
        lambda w: f"/clubs/{w.club.slug}/players/",
        {"GET": READ, "POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: {"name": "Gus"}},
    ),
    "clubs:player_reset_link": Case(
        lambda w: f"/clubs/{w.club.slug}/players/{w.players['mate'].pk}/reset-link/",
        {"POST": (302, 404, 403, 403, 404, 200)},
    ),
    "clubs:settings": Case(
        lambda w: f"/clubs/{w.club.slug}/settings/",
        {"GET": PAGE_DIRECTOR_ONLY, "POST": (302, 404, 403, 403, 404, 302)},
        {
            "POST": lambda w: {
                "name": "Riverside",
                "public": "",
                "rules_preset": "acbl",
                "default_stake": "0.50",
                "currency": "EUR",
                "language": "en",
            }
        },
    ),
    "clubs:console": Case(
        lambda w: f"/clubs/{w.club.slug}/console/",
        {"GET": PAGE_DIRECTOR_ONLY, "POST": (302, 404, 403, 403, 404, 302)},
        {"POST": _console_form},
    ),
    "clubs:suggest": Case(
        lambda w: f"/clubs/{w.club.slug}/console/suggest/?count=8", {"GET": PAGE_DIRECTOR_ONLY}
    ),
    "clubs:console_live": Case(
        lambda w: f"/clubs/{w.club.slug}/console/live/", {"GET": PAGE_DIRECTOR_ONLY}
    ),
    "clubs:room": Case(lambda w: f"/clubs/{w.club.slug}/room/", {"GET": PAGE_DIRECTOR_ONLY}),
    "clubs:room_live": Case(
        lambda w: f"/clubs/{w.club.slug}/room/live/", {"GET": PAGE_DIRECTOR_ONLY}
    ),
    "clubs:session": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/", {"GET": READ}
    ),
    "clubs:session_cards": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/cards/", {"GET": READ}
    ),
    "clubs:session_start": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.planned.pk}/start/",
        {"GET": (302, 404, 403, 403, 404, 200), "POST": (302, 404, 403, 403, 404, 302)},
    ),
    "clubs:session_close": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/close/",
        {"GET": (302, 404, 403, 403, 404, 200), "POST": (302, 404, 403, 403, 404, 302)},
        # Past the warning about unconfirmed deals (tests/games/test_confirmation.py).
        {"POST": lambda w: {"anyway": "1"}},
    ),
    "clubs:session_reopen": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{_closed(w)}/reopen/",
        {"GET": (302, 404, 403, 403, 404, 200), "POST": (302, 404, 403, 403, 404, 302)},
    ),
    "clubs:session_reseat": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.planned.pk}/seat/",
        {"GET": (302, 404, 403, 403, 404, 200), "POST": (302, 404, 403, 403, 404, 302)},
        {"POST": _console_form},
    ),
    "clubs:session_delete": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.planned.pk}/delete/",
        {"GET": (302, 404, 403, 403, 404, 200), "POST": (302, 404, 403, 403, 404, 302)},
        # Past the warning about unconfirmed deals (tests/games/test_confirmation.py).
        {"POST": lambda w: {"anyway": "1"}},
    ),
    "clubs:confirmation_setting": Case(
        lambda w: f"/clubs/{w.club.slug}/console/confirmation/",
        {"POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: {"confirm": "off"}},
    ),
    "clubs:session_codes": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/codes/",
        {"POST": (302, 404, 403, 403, 404, 302)},
        # Past the confirmation (tests/games/test_table_codes.py).
        {"POST": lambda w: {"action": "regenerate", "sure": "1"}},
    ),
    "clubs:table_add_player": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.planned.pk}/tables/1/add/",
        {"POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: {"player": w.players["fay"].pk}},
    ),
    "clubs:table_remove_player": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.planned.pk}/tables/1/remove/",
        {"POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: {"player": w.players["eve"].pk}},
    ),
    "clubs:table_leaver": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/tables/1/leaver/",
        {"GET": PAGE_DIRECTOR_ONLY, "POST": (302, 404, 403, 403, 404, 302)},
        {
            "POST": lambda w: {
                "leaver": w.players["west"].pk,
                "new_name": "Gus",
                "substitute_now": "",
            }
        },
    ),
    "clubs:session_arrivals": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/arrivals/",
        {"GET": PAGE_DIRECTOR_ONLY, "POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: {"players": [w.players["fay"].pk]}},
    ),
    "clubs:arrivals_suggest": Case(
        lambda w: f"/clubs/{w.club.slug}/sessions/{w.running.pk}/arrivals/suggest/?names=Gus",
        {"GET": PAGE_DIRECTOR_ONLY},
    ),
    # --- pages: rubbers and deals ---------------------------------------------------------------
    "games:rubber": Case(lambda w: f"/rubbers/{w.rubber.pk}/", {"GET": READ}),
    # A table's link answers with its rubber in play, to those who may read it.
    "games:table": Case(
        lambda w: f"/tables/{w.rubber.table_id}/", {"GET": (404, 404, 302, 302, 404, 302)}
    ),
    # A table code opens its table to anyone holding it (the code is the secret; issue 17).
    "games:table_code": Case(
        lambda w: f"/t/{w.rubber.table.code}", {"GET": EVERYONE, "POST": EVERYONE}
    ),
    # The hand-over and its way back act only for a phone holding this table's code (none of
    # the personas does): the seat page, or the pad, with nothing changed (games.codes).
    "games:hand_over": Case(
        lambda w: f"/t/{w.rubber.table.code}/hand-over?rubber={w.rubber.pk}",
        {"GET": (302,) * 6, "POST": (302,) * 6},
        {"POST": lambda w: {"seat": "S"}},
    ),
    "games:give_back": Case(lambda w: f"/t/{w.rubber.table.code}/back", {"POST": (302,) * 6}),
    "games:rubber_live": Case(lambda w: f"/rubbers/{w.rubber.pk}/live", {"GET": READ}),
    "games:preview_deal": Case(
        lambda w: f"/rubbers/{w.rubber.pk}/preview?level=4&strain=S&declarer=N&result=0",
        {"GET": READ},
    ),
    # A correction form's live line: a computation over what the reader may read.
    "games:preview_correction": Case(
        lambda w: f"/deals/{w.deal.pk}/preview?deal{w.deal.pk}-level=pass",
        {"GET": READ},
    ),
    "games:enter_deal": Case(
        lambda w: f"/rubbers/{w.rubber.pk}/deals/",
        {"POST": (302, 404, 403, 302, 404, 302)},
        {"POST": lambda w: {"number": 2, "level": "pass"}},
    ),
    # The offline queue answers JSON: no redirect to the sign-in page (games/deals/offline.py).
    "games:enter_queued_deal": Case(
        lambda w: f"/rubbers/{w.rubber.pk}/deals/queued",
        {"POST": (403, 404, 403, 201, 404, 201)},
        {"POST": lambda w: {"number": 2, "level": "pass"}},
    ),
    "games:correct_deal": Case(
        lambda w: f"/deals/{w.deal.pk}/correct",
        # A player at the table, or a director (issue 17); GET gives the form to them only.
        {"POST": (302, 404, 403, 302, 404, 302), "GET": (302, 404, 403, 200, 404, 200)},
        {
            "POST": lambda w: {
                f"deal{w.deal.pk}-{k}": v
                for k, v in {
                    "version": 1,
                    "level": "2",
                    "strain": "H",
                    "declarer": "N",
                    "result": "0",
                }.items()
            }
        },
    ),
    # "Delete deal N": GET asks, POST deletes; the same people as a correction.
    "games:delete_deal": Case(
        lambda w: f"/deals/{w.deal.pk}/delete",
        {"GET": (302, 404, 403, 200, 404, 200), "POST": (302, 404, 403, 302, 404, 302)},
        {"POST": lambda w: {"version": w.deal.version}},
    ),
    "games:dispute_deal": Case(
        lambda w: f"/deals/{w.deal.pk}/dispute",
        {"POST": (302, 404, 403, 302, 404, 403)},
        {"POST": lambda w: {"version": w.deal.version, "reason": "result"}},
    ),
    "games:confirm_all": Case(
        lambda w: f"/rubbers/{w.rubber.pk}/confirm-all",
        # "Confirm all": as one confirmation, a player seated in the rubber.
        {"POST": (302, 404, 403, 302, 404, 403)},
        {"POST": lambda w: {"deal": f"{w.deal.pk}:{w.deal.version}"}},
    ),
    "games:confirm_deal": Case(
        lambda w: f"/deals/{w.deal.pk}/confirm",
        {"POST": (302, 404, 403, 302, 404, 403)},
        {"POST": lambda w: {"version": w.deal.version}},
    ),
    "games:rule_deal": Case(
        lambda w: f"/deals/{w.deal.pk}/rule",
        # "It stands": the club's directors only; back to the deal (302).
        {"POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: _disputed(w)},
    ),
    # --- pages: standings -----------------------------------------------------------------------
    "scoring:session-standings": Case(
        lambda w: f"/sessions/{w.running.pk}/standings/", {"GET": READ}
    ),
    "scoring:session-standings-live": Case(
        lambda w: f"/sessions/{w.running.pk}/standings/live/", {"GET": READ}
    ),
    "scoring:session-settlement": Case(
        lambda w: f"/sessions/{w.running.pk}/settlement/", {"GET": READ}
    ),
    "scoring:session-prize-cut": Case(
        lambda w: f"/sessions/{w.running.pk}/prize-cut/",
        {"GET": PAGE_DIRECTOR_ONLY, "POST": (302, 404, 403, 403, 404, 302)},
        {"POST": _tie},
    ),
    # The push channel: a stream reads what its page reads (docs/deploy.md, "The push channel").
    # The streams through the test client (WSGI) answer 204, no stream (games/push/views.py).
    "games:rubber_events": Case(lambda w: f"/rubbers/{w.rubber.pk}/events", {"GET": STREAM_READ}),
    "clubs:console_events": Case(
        lambda w: f"/clubs/{w.club.slug}/console/events/", {"GET": STREAM_DIRECTOR_ONLY}
    ),
    "scoring:session-results-sheet": Case(
        lambda w: f"/sessions/{w.running.pk}/results-sheet/", {"GET": READ}
    ),
    # Season accounts (RULES 4.4): members read the money, the director records payments.
    "scoring:club-accounts": Case(lambda w: f"/clubs/{w.club.slug}/accounts/", {"GET": READ}),
    "scoring:player-statement": Case(
        lambda w: f"/players/{w.players['north'].pk}/statement/", {"GET": READ}
    ),
    "scoring:payment-new": Case(
        lambda w: f"/clubs/{w.club.slug}/accounts/payments/new/",
        {"GET": PAGE_DIRECTOR_ONLY, "POST": (302, 404, 403, 403, 404, 302)},
        {"POST": lambda w: {"player": w.players["north"].pk, "kind": "paid_in", "amount": "5.00"}},
    ),
    "api-club-accounts": Case(lambda w: f"/api/v1/clubs/{w.club.slug}/accounts", {"GET": READ}),
    "api-player-statement": Case(
        lambda w: f"/api/v1/players/{w.players['north'].pk}/statement", {"GET": READ}
    ),
    "api-club-payments": Case(
        lambda w: f"/api/v1/clubs/{w.club.slug}/accounts/payments",
        {"POST": (401, 404, 403, 403, 404, 201)},
        {"POST": lambda w: {"player": w.players["north"].pk, "kind": "paid_in", "amount": "5.00"}},
    ),
    "scoring:club-leaderboard": Case(lambda w: f"/clubs/{w.club.slug}/leaderboard/", {"GET": READ}),
    "scoring:club-ratings": Case(lambda w: f"/clubs/{w.club.slug}/ratings/", {"GET": READ}),
    "scoring:player": Case(lambda w: f"/players/{w.players['north'].pk}/", {"GET": READ}),
    "scoring:player-history": Case(
        lambda w: f"/players/{w.players['north'].pk}/history/", {"GET": READ}
    ),
    # North's language: North himself (seated) or a director; another player is refused.
    "scoring:player-language": Case(
        lambda w: f"/players/{w.players['north'].pk}/language/",
        {"POST": (302, 404, 403, 302, 404, 302)},
        {"POST": lambda w: {"language": "it"}},
    ),
    # North's results address: as his language (issue 32).
    "scoring:player-email": Case(
        lambda w: f"/players/{w.players['north'].pk}/email/",
        {"POST": (302, 404, 403, 302, 404, 302)},
        {"POST": lambda w: {"email": "north@example.org"}},
    ),
    # The results mail's unsubscribe link: the signed token is the key, no login (RFC 8058).
    "scoring:results-mail-unsubscribe": Case(
        lambda w: f"/mail/unsubscribe/{_unsubscribe_token(w)}/",
        {"GET": EVERYONE, "POST": EVERYONE},
    ),
}

#: Django's admin: staff only (none of the personas is staff), checked on representative pages.
ADMIN_PREFIX = "admin/"
ADMIN_PAGES = ("/admin/", "/admin/games/deal/", "/admin/clubs/club/", "/admin/auth/user/")


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    """(route, name) of every URL pattern, namespaces joined with ':' as `reverse` expects."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace
            joined = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), joined)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield prefix + str(entry.pattern), name or ""


def all_routes() -> list[tuple[str, str]]:
    return list(_walk(get_resolver().url_patterns))


def test_every_url_is_classified() -> None:
    unclassified = [
        f"{route!r} (name {name!r})"
        for route, name in all_routes()
        if not route.startswith(ADMIN_PREFIX) and name not in MATRIX
    ]
    assert not unclassified, (
        "These URL patterns have no row in the permission matrix: add each to MATRIX in "
        "tests/security/test_permission_matrix.py with the status every persona should get "
        "(and a line in docs/security.md):\n  " + "\n  ".join(unclassified)
    )
    names = {name for _, name in all_routes()}
    stale = sorted(set(MATRIX) - names)
    assert not stale, f"MATRIX rows for URL names that no longer exist: {stale}"


def test_the_matrix_covers_every_method_an_api_view_answers() -> None:
    """An APIView that gains a method (say PUT) must gain a row for it."""
    for route, name in all_routes():
        if name not in MATRIX:
            continue
        match = get_resolver().resolve("/" + _sample(route))
        view_class = getattr(match.func, "view_class", None) or getattr(match.func, "cls", None)
        if view_class is None or not hasattr(view_class, "permission_classes"):
            continue
        if name in {"schema", "api-docs"}:
            continue
        methods = {
            m.upper() for m in view_class.http_method_names if m not in {"options", "head"}
        } & {m.upper() for m in dir(view_class)}
        assert methods == set(MATRIX[name].expect), (name, methods)


def _sample(route: str) -> str:
    return (
        route.replace("<slug:slug>", "x")
        .replace("<int:pk>", "1")
        .replace("<int:number>", "1")
        .replace("<path:object_id>", "1")
    )


def _client(world: World, persona: str) -> APIClient:
    client = APIClient()
    user = world.users[persona]
    if user is not None:
        client.force_login(user)
    return client


def _call(client: APIClient, method: str, path: str, body: dict[str, Any] | None) -> Any:
    is_api = path.startswith("/api/")
    kwargs: dict[str, Any] = {"format": "json"} if is_api else {}
    if method == "GET":
        return client.get(path)
    return getattr(client, method.lower())(path, body or {}, **kwargs)


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_each_persona_gets_the_expected_status(name: str, world: World) -> None:
    case = MATRIX[name]
    path = case.path(world)
    wrong = []
    for method, statuses in case.expect.items():
        for persona, expected in zip(PERSONAS, statuses, strict=True):
            body = case.body[method](world) if method in case.body else None
            # A 4xx, or the sign-in redirect an anonymous visitor gets, is a refusal.
            refused = method != "GET" and (
                expected >= 400 or (persona == "anonymous" and expected == 302)
            )
            with transaction.atomic():
                client = _client(world, persona)
                with unchanged() if refused else nullcontext():
                    response = _call(client, method, path, body)
                transaction.set_rollback(True)
            if response.status_code != expected:
                wrong.append(f"{method} {path} as {persona}: {response.status_code} != {expected}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_admin_is_for_staff_only(persona: str, world: World) -> None:
    client = _client(world, persona)
    for path in ADMIN_PAGES:
        response = client.get(path)
        assert response.status_code == 302, (path, response.status_code)
        assert response["Location"].startswith("/admin/login/")
