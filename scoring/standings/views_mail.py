"""The results mail's unsubscribe link (issue 32): a signed token, no login needed.

GET shows what the link does and a button; POST stops the mail, from that button or from a mail
program's one-click unsubscribe (RFC 8058: a POST of ``List-Unsubscribe=One-Click`` to the
List-Unsubscribe address, with no cookie and no CSRF token: the signed token is the proof). A
POST from the page's "Subscribe again" button (``subscribe``) starts the mail again. A token not
signed here, or minted for an address the player no longer has, answers 404, as a page that
does not exist.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from scoring.shared.i18n import speak_club_language

from . import results_mail


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def results_mail_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    player = results_mail.player_for_token(token)
    if player is None:
        raise Http404("No such page.")
    speak_club_language(request, player.language_or_club())
    if request.method == "POST":
        if request.POST.get("subscribe"):
            player.stop_results_mail(stop=False)
        else:
            player.stop_results_mail()
    return render(
        request,
        "scoring/unsubscribe.html",
        {
            "player": player,
            "club": player.club,
            "stopped": player.mail_stopped_at is not None,
        },
    )
