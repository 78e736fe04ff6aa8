"""The director's page for the cut between winners sharing a prize's choice (RULES 6.3)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from clubs.models import Player, Session
from clubs.permissions import signed_in_user
from clubs.selectors import session_for_reader
from games.permissions import Actor
from scoring.rules.ranking import place_label

from . import cuts


class PrizeCutForm(forms.Form):
    """Who won the cut: one of the players still sharing a choice, named with that choice."""

    winner = forms.TypedChoiceField(label=_("Who won the cut?"), coerce=int)

    def __init__(self, *args: Any, groups: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["winner"]
        field.choices = [  # type: ignore[attr-defined]
            (player.pk, f"{player.name} ({group['place']})")
            for group in groups
            for player in group["players"]
        ]
        field.widget = forms.RadioSelect(choices=field.choices)  # type: ignore[attr-defined]
        # The refusal names no value sent.
        field.error_messages["invalid_choice"] = _("Choose one of the players who cut.")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # Two winners sent: the form would read the last one; a cut has one winner.
        if hasattr(self.data, "getlist") and len(self.data.getlist("winner")) > 1:
            self.add_error("winner", _("Choose one player only: one player wins the cut."))
        return cleaned


def _groups(session: Session) -> list[dict[str, Any]]:
    """The shared choices still to be cut, each with its players by name. Three queries."""
    undecided = cuts.undecided(session.pk)
    names = Player.objects.in_bulk([pk for players in undecided.values() for pk in players])
    return [
        {
            "choice": choice,
            "place": place_label(choice, True),
            "players": [names[pk] for pk in players],
        }
        for choice, players in sorted(undecided.items())
    ]


def _recorded(session: Session) -> list[dict[str, Any]]:
    """The shared choices a recorded cut decided, each with its players in choosing order and
    what the cut made of them, the winner first. Three queries."""
    recorded = cuts.recorded(session.pk)
    names = Player.objects.in_bulk([pk for order in recorded.values() for pk, _o in order])
    return [
        {
            "choice": choice,
            "place": place_label(choice, True),
            "players": [names[pk] for pk, _outcome in order],
            "order": [(names[pk], outcome) for pk, outcome in order],
        }
        for choice, order in sorted(recorded.items())
    ]


@require_http_methods(["GET", "POST"])
def prize_cut(request: HttpRequest, pk: int) -> HttpResponse:
    """The director records who won the cut for a shared prize choice; the prize list then
    shows the winner choosing first, and the session's history keeps the cut."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    user = signed_in_user(request)
    session = session_for_reader(user, pk, director=True)
    groups, done = _groups(session), _recorded(session)
    # A recorded cut may be recorded again (issue 31): its form says so (`again`).
    again = request.method == "POST" and "again" in request.POST
    posted = request.POST or None
    form = PrizeCutForm(None if again else posted, groups=groups)
    again_form = PrizeCutForm(posted if again else None, groups=done, prefix="again")
    sent = again_form if again else form
    if request.method == "POST" and sent.is_valid():
        winner = Player.objects.get(pk=sent.cleaned_data["winner"])
        try:
            cuts.prize_cut_record(
                actor=Actor.in_club(user, session.club),
                session=session,
                winner=winner,
                by=user,
                again=again,
            )
        except ValidationError as err:
            sent.add_error(None, err.message_dict.get("winner", err.messages))
        else:
            messages.success(
                request, gettext("%(name)s won the cut: they choose first.") % {"name": winner.name}
            )
            return redirect("scoring:session-standings", session.pk)
    return render(
        request,
        "scoring/prize_cut.html",
        {
            "session": session,
            "club": session.club,
            "form": form,
            "groups": groups,
            "again_form": again_form,
            "done": done,
        },
        status=400 if request.method == "POST" else 200,
    )
