"""Workflows of clubs, players and invitations (CONVENTIONS.md rule 4).

Each function is keyword-only, runs in one transaction and raises `ValidationError` (bad input,
HTTP 400 with field messages) or `scoring.shared.errors.Conflict` (a state conflict, HTTP 409).
Sessions and their tables live in `games.sessions`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from scoring.rules import HouseRules, ScoringError
from scoring.shared.error_messages import error_line
from scoring.shared.errors import Conflict

from .logins import normalize_login
from .models import Club, Invitation, Membership, Player

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def club_create(
    *,
    slug: str,
    name: str,
    director: User,
    public: bool = True,
    rules_preset: str = "acbl",
    rules: dict[str, Any] | None = None,
    default_stake: Decimal = Decimal("0.00"),
    currency: str = "EUR",
    language: str = Club.Language.EN,
) -> Club:
    """Create a club; its creator becomes its director."""
    try:
        HouseRules.from_preset(rules_preset, rules or {})
    except ScoringError as err:
        raise ValidationError({"rules": [error_line(err)]}) from err
    taken = ValidationError({"slug": [_("A club with this slug already exists.")]})
    if Club.objects.filter(slug=slug).exists():
        raise taken
    try:
        with transaction.atomic():
            club = Club.objects.create(
                slug=slug,
                name=name,
                public=public,
                rules_preset=rules_preset,
                rules_overrides=rules or {},
                default_stake=default_stake,
                currency=currency,
                language=language,
            )
            Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    except IntegrityError as err:
        # Another request created the slug between the check and the insert: the same answer
        # as had it come first (docs/api.md: integrity answers).
        raise taken from err
    return club


def player_create(
    *,
    club: Club,
    name: str,
    username: str | None = None,
    password: str | None = None,
    director: bool = False,
    email: str = "",
) -> Player:
    """Add a player to a club, optionally with a login (docs/api.md, "Invitations") and an
    address their results are mailed to (``email``; no login needed).

    - With a username and a password, the login is new: it is created, made a member of the
      club (a player, or a director when asked) and linked at once. The password is checked
      first, so only a valid one reaches the existence check; a username already taken, in any
      case or width ("Alice" or "Ａｌｉｃｅ" when "alice" exists), is refused (as any sign-up
      refuses it). The username is NFKC-normalised first (`normalize_login`), as Django's
      sign-in page normalises what is typed there.
    - With a username and no password, the player is added unlinked with a pending
      `Invitation` bound to the login that has that username now (ignoring case when exactly one
      matches); only that login's holder links it, by accepting (`invitation_accept`). With no
      such login the invitation is inert: nobody can accept it, not even whoever creates that
      username later. The answer is the same either way, so it tells the director nothing about
      other people's logins (docs/security.md).

    The club's row is locked for the checks and the inserts, so two requests adding the same
    name (in any case) or inviting the same username in one club are serialised: one wins, the
    other is refused as had it come second (docs/api.md: integrity answers).
    """
    name = _new_player_name(name)
    if username:
        username = normalize_login(username)
    if username and password:
        _check_password(username=username, password=password)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).values_list("pk").first()
        if username and password:
            _lock_username(username)
        if Player.objects.filter(club=club, name__iexact=name).exists():
            raise _name_taken(name)
        refusal = _username_refusal(club=club, username=username)
        if refusal is not None:
            raise refusal
        try:
            player = _player_insert(
                club=club, name=name, username=username, password=password, director=director
            )
        except IntegrityError as err:
            # The locks above make this a last resort (a login created elsewhere at the same
            # time): answer as had this request come second, never a 500.
            raise _insert_refusal(
                club=club, name=name, username=username, password=password
            ) from err
        if email:
            player.email = email.strip()
            player.save(update_fields=["email"])
        return player


def _new_player_name(name: str) -> str:
    """The new player's name, stripped; refused when empty or too long for the column."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": [_("A player needs a name.")]})
    # Checked here, where every new player passes (the players' form and API, arrivals and
    # substitutes typed by name): PostgreSQL refuses a longer one with an error, SQLite not at all.
    longest = Player._meta.get_field("name").max_length
    if longest is not None and len(name) > longest:
        raise ValidationError(
            {
                "name": [
                    _("A player's name has at most %(limit)d characters (this one has %(count)d).")
                    % {"limit": longest, "count": len(name)}
                ]
            }
        )
    return name


def _insert_refusal(
    *, club: Club, name: str, username: str | None, password: str | None
) -> ValidationError:
    """Why ``player_create``'s insert failed on an integrity error, said as had the request
    come second: the name taken, the username refused or taken, or a login being made."""
    if Player.objects.filter(club=club, name__iexact=name).exists():
        return _name_taken(name)
    refusal = _username_refusal(club=club, username=username)
    if refusal is not None:
        return refusal
    if password and _login_named(username).exists():
        return _login_exists()
    return ValidationError(
        {
            "username": [
                _(
                    "%(username)r was being linked or created by someone else at the "
                    "same time; try again."
                )
                % {"username": username}
            ]
        }
    )


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        {"name": [_("%(name)r is already a player of this club.") % {"name": name}]}
    )


def _login_named(username: str | None) -> Any:
    """The logins whose username is `username` (normalised by the caller), ignoring case."""
    return get_user_model().objects.filter(username__iexact=username or "")


def _invited_login(username: str) -> User | None:
    """The login an invitation naming `username` reaches: the one with exactly that username,
    else the only one matching it ignoring case; None when there is none (or it is ambiguous)."""
    matches = list(_login_named(username).order_by("pk")[:50])
    exact = [u for u in matches if u.get_username() == username]
    if exact:
        return cast("User", exact[0])
    return cast("User", matches[0]) if len(matches) == 1 else None


def _username_refusal(*, club: Club, username: str | None) -> ValidationError | None:
    if username and (
        Player.objects.filter(club=club, user__username__iexact=username).exists()
        or Invitation.objects.filter(player__club=club, username__iexact=username).exists()
    ):
        # Only what the director already sees: the logins of their club's players and invitations.
        return ValidationError(
            {
                "username": [
                    _("%(username)r is already linked to, or invited as, a player of this club.")
                    % {"username": username}
                ]
            }
        )
    return None


def _player_insert(
    *, club: Club, name: str, username: str | None, password: str | None, director: bool
) -> Player:
    with transaction.atomic():
        if username and not password:
            player = Player.objects.create(club=club, name=name)
            Invitation.objects.create(
                player=player,
                username=username,
                user=_invited_login(username),
                director=director,
            )
            return player
        user = None
        if username:
            user = _create_login(username=username, password=cast(str, password))
            role = Membership.Role.DIRECTOR if director else Membership.Role.PLAYER
            Membership.objects.create(club=club, user=user, role=role)
        return Player.objects.create(club=club, name=name, user=user)


def _login_exists() -> ValidationError:
    return ValidationError(
        {
            "username": [
                _(
                    "This login already exists. Leave the password empty to invite its "
                    "holder instead."
                )
            ]
        }
    )


def _check_password(*, username: str, password: str) -> None:
    """The site's password rules, checked before anything about the login is looked up: a
    weak password is refused the same whether or not the username exists (docs/security.md)."""
    from django.contrib.auth.password_validation import validate_password

    try:
        validate_password(password, get_user_model()(username=username))
    except ValidationError as err:
        raise ValidationError({"password": err.messages}) from err


def _lock_username(username: str) -> None:
    """Serialise the creation of logins differing only by case (until the transaction ends).
    SQLite serialises every write already."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(lower(%s)))", [username])


def _create_login(*, username: str, password: str) -> User:
    if _login_named(username).exists():
        raise _login_exists()
    user = get_user_model()(username=username)
    user.set_password(password)
    user.save()
    return user


def invitation_accept(*, invitation_id: int, user: User) -> Player:
    """The holder of the invited login accepts: the player is linked to it and the login becomes
    a member of the club (a director when the invitation says so). Another login's invitation
    is `Invitation.DoesNotExist`, exactly like a missing one."""
    with transaction.atomic():
        invitation = Invitation.objects.for_holder(user).select_for_update().get(pk=invitation_id)
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        club = player.club
        taken = Player.objects.filter(club=club, user=user).first()
        if taken is not None:
            raise _conflict(
                _("You are already the player %(name)s of this club; ask its director.")
                % {"name": taken.name}
            )
        membership, created = Membership.objects.select_for_update().get_or_create(
            club=club,
            user=user,
            defaults={
                "role": Membership.Role.DIRECTOR if invitation.director else Membership.Role.PLAYER
            },
        )
        if not created and invitation.director and membership.role != Membership.Role.DIRECTOR:
            membership.role = Membership.Role.DIRECTOR
            membership.save(update_fields=["role"])
        player.user = user
        try:
            with transaction.atomic():
                player.save(update_fields=["user"])
        except IntegrityError as err:
            # Two invitations of one club accepted at once: one_player_per_login_in_club.
            raise _conflict(_("You are already a player of this club; ask its director.")) from err
        invitation.delete()
    return player


def invitation_decline(*, invitation_id: int, user: User) -> None:
    """The holder declines: the invitation is deleted and the player stays unlinked."""
    with transaction.atomic():
        Invitation.objects.for_holder(user).select_for_update().get(pk=invitation_id).delete()


def membership_set_role(*, club: Club, user: User, role: str) -> Membership:
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def _conflict(message: str) -> Exception:
    return Conflict(message)
