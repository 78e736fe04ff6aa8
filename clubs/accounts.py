"""Passwords: the reset mail and the reset link a director hands over (docs/security.md).

- `password_reset_send` mails a reset link to every active login with this address, each in its
  holder's language. It runs in a worker (`clubs.tasks.send_password_reset`): the page that asks
  queues it for every address alike, so its answer and its time say nothing about whether the
  address belongs to anyone.
- `reset_link_path` gives the path of a one-time reset link for a login of the director's club, for
  a player with no address (Django's `default_token_generator`: it stops working once the
  password changes or after `PASSWORD_RESET_TIMEOUT`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from .models import Club, Membership, Player
from .permissions import check_club_access

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
EMAIL_TEMPLATE = "registration/password_reset_email.txt"


def mail_language(user: User, chosen: str | None, page: str) -> str:
    """The language of a login's mail: the one its holder chose with the switcher when asking,
    else the language of its club (when all its clubs speak one), else the asking page's."""
    if chosen and translation.check_for_language(chosen):
        return chosen
    languages = set(
        Club.objects.filter(Q(memberships__user=user) | Q(players__user=user))
        .values_list("language", flat=True)
        .distinct()
    )
    if len(languages) == 1:
        return languages.pop()
    return page if translation.check_for_language(page) else settings.LANGUAGE_CODE


class _ResetForm(PasswordResetForm):
    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        language = mail_language(context["user"], context["chosen"], context["page"])
        with translation.override(language):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )


def password_reset_send(
    *, email: str, domain: str, use_https: bool, chosen: str | None, page: str
) -> None:
    """Mail a reset link to each active login with a usable password and this address (none
    when nobody has it). `domain` is the host the request came to (checked against
    ALLOWED_HOSTS by the page), `chosen` the language its visitor chose, `page` the page's."""
    form = _ResetForm({"email": email})
    if not form.is_valid():
        return
    form.save(
        domain_override=domain,
        use_https=use_https,
        subject_template_name=SUBJECT_TEMPLATE,
        email_template_name=EMAIL_TEMPLATE,
        extra_email_context={"chosen": chosen or "", "page": page},
    )


def reset_link_path(*, club: Club, player_id: int, director: Any) -> tuple[Player, str]:
    """The club's player `player_id` and the path of a one-time reset link for its login.

    Only a director of the club may ask (Http404 / PermissionDenied as for the club's other
    writes); a player of another club, or one with no login, is missing (Http404) whoever asks.
    Refused (ValidationError), with one message that names no other club: a login that also
    belongs to another club, a staff login, a director's login (one director would set a
    co-director's password and act in their name) and a login with an e-mail address (its holder
    resets it by mail). A director resets only a player's login that has no other way back in."""
    check_club_access(director, club, director=True)
    player = Player.objects.select_related("user").filter(club=club, pk=player_id).first()
    if player is None or player.user is None:
        raise Http404("No such player.")
    user = player.user
    elsewhere = (
        Membership.objects.filter(user=user).exclude(club=club).exists()
        or Player.objects.filter(user=user).exclude(club=club).exists()
    )
    directs = Membership.objects.filter(
        user=user, club=club, role=Membership.Role.DIRECTOR
    ).exists()
    if elsewhere or directs or user.email or user.is_staff or user.is_superuser:
        raise ValidationError(
            _(
                "No link for the login %(username)s: its holder resets the password with "
                "“Forgot your password?” on the sign-in page, or asks the site's administrator."
            )
            % {"username": user.get_username()}
        )
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return player, reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
