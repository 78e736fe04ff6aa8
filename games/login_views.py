"""The director's reset link for a login of the club (docs/security.md).

A player whose login has no e-mail address cannot reset the password by mail: the club's
director asks here for a one-time link (`clubs.accounts.reset_link_path`) and hands it over.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.accounts import reset_link_path
from clubs.permissions import signed_in_user
from clubs.selectors import club_for_reader


@never_cache
@login_required
@require_POST
def player_reset_link(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A POST by a director of the club answers a page with the link (never cached: the link
    is a password). A player of another club answers as one never created (404)."""
    user = signed_in_user(request)
    club = club_for_reader(user, slug, director=True)
    try:
        player, path = reset_link_path(club=club, player_id=pk, director=user)
    except ValidationError as err:
        return render(
            request, "clubs/reset_link.html", {"club": club, "errors": err.messages}, status=400
        )
    return render(
        request,
        "clubs/reset_link.html",
        {"club": club, "player": player, "link": request.build_absolute_uri(path)},
    )
