"""What the session pages and the club pages share: the session a page is for (its director's
only, for writes), where to go back to, the deals not settled yet, a rubber's figures now and as
it would be kept if closed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme

from clubs.models import Session
from clubs.selectors import session_for_reader

from ..models import Deal, Rubber


def reverse_or_none(name: str, *args: Any) -> str | None:
    """A URL of another app's page when that page exists (leaderboard, rubber)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def next_or(request: HttpRequest, default: str) -> str:
    """Where a form asked to go back to (`next`) when it is a path on this site, else `default`.
    A bare word is not one: `redirect` would look it up as a view's name (a 500 when none)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def session_for_page(
    request: HttpRequest, slug: str, pk: int, *, director: bool = False
) -> Session:
    """The session `pk` of the club `slug` in the URL, checked for this reader (a director's
    only with `director`): another club's session answers 404 as a missing one."""
    return session_for_reader(request.user, pk, director=director, club_slug=slug)


def director_session(request: HttpRequest, slug: str, pk: int) -> Session:
    return session_for_page(request, slug, pk, director=True)


def unconfirmed_deals(sessions: Sequence[Session]) -> dict[int, list[Deal]]:
    """The deals not settled yet, by session, for the running sessions that ask for confirmation
    (a closed session's stand as recorded, `session_close`): no
    opponent confirmed them and no director ruled that they stand (`Deal.settled`; one query
    for them all)."""
    asking = [s.pk for s in sessions if s.asks_confirmation and s.status == Session.Status.RUNNING]
    found: dict[int, list[Deal]] = {pk: [] for pk in asking}
    if asking:
        deals = (
            Deal.objects.filter(
                rubber__session_id__in=asking, confirmed_by__isnull=True, ruled=False
            )
            .select_related("rubber__table")
            .order_by("rubber__table__number", "rubber__number", "number")
        )
        for deal in deals:
            found[deal.rubber.session_id].append(deal)
    return found


def rubber_figures(rubber: Rubber) -> dict[str, Any]:
    """A rubber in play, now and as it would be kept if closed (RULES 2.6): its deal count, its
    result now, and its result closed as unfinished (None without a deal)."""
    rubber.fetch_players()
    deals = rubber.ordered_deals()
    return {
        "rubber": rubber,
        "deals": len(deals),
        "now": rubber.scoresheet(deals).result if deals else None,
        "closed": rubber.unfinished_sheet(deals).result if deals else None,
    }
