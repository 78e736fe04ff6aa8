"""A club's setup: a new club, its settings (house rules, stake, language, who may read it)
and its players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from clubs import rules_text
from clubs import services as club_services
from clubs.forms import ClubForm, ClubSettingsForm, PlayerForm
from clubs.permissions import is_director, signed_in_user
from clubs.selectors import club_for_reader
from games.sessions.confirming import set_confirmation
from scoring.shared.i18n import next_club_page_language


@login_required
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's settings for its directors: house rules by name with a sentence each, the
    stake and currency, the language, public or members only (issue 18)."""
    club = club_for_reader(request.user, slug, director=True)
    asked = club.confirm_entries  # before the form's validation sets the new value on `club`
    form = ClubSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            if form.cleaned_data["confirm_entries"] and not asked:
                # As from the console: the deals already recorded stand (issue 31).
                set_confirmation(club=club, on=True, by=signed_in_user(request))
            form.save()
        messages.success(request, _("Settings saved. New sessions use them."))
        return redirect("clubs:settings", club.slug)
    return render(
        request,
        "clubs/settings.html",
        {
            "club": club,
            "form": form,
            "is_director": True,
            "rules": rules_text.describe(club.house_rules()),
            "presets": [
                {"code": code, "name": name, "sentence": sentence}
                for code, (name, sentence) in rules_text.PRESETS.items()
            ],
        },
    )


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = club_services.club_create(
                slug=data["slug"],
                name=data["name"],
                public=data["public"],
                rules_preset=data["rules_preset"],
                default_stake=data["default_stake"],
                currency=data["currency"],
                language=data["language"],
                director=signed_in_user(request),
            )
        except ValidationError as err:
            form.add_error(None, err)
        else:
            # Stored as text: in the language of the club's home, which shows it.
            with translation.override(next_club_page_language(request, club)):
                messages.success(request, _("Club created. You are its director."))
            return redirect(club)
    return render(request, "clubs/create.html", {"form": form})


def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players; a director adds players and creates their logins here."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club = club_for_reader(request.user, slug, director=request.method == "POST")
    director = is_director(request.user, club)
    form = PlayerForm(request.POST or None) if director else None
    if request.method == "POST" and form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            player = club_services.player_create(
                club=club,
                name=data["name"],
                username=data["username"] or None,
                password=data["password"] or None,
                director=data["director"],
                email=data["email"],
            )
        except ValidationError as err:
            form.add_error(None, err)
        else:
            if data["username"] and not data["password"]:
                text = _(
                    "%(name)s added. The login %(username)s is invited: the player is linked "
                    "when its holder accepts."
                ) % {"name": player.name, "username": data["username"]}
            else:
                text = _("%(name)s added.") % {"name": player.name}
            messages.success(request, text)
            return redirect("clubs:players", club.slug)
    roster = (
        club.players.select_related("user", "invitation")
        .annotate(
            is_director=Count(
                "user__memberships",
                filter=Q(user__memberships__club=club, user__memberships__role="director"),
            )
        )
        .order_by("name")
    )
    return render(
        request,
        "clubs/players.html",
        {"club": club, "players": roster, "form": form, "is_director": director},
    )
