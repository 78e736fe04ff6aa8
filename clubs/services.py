"""Workflows across apps: clubs, sessions, seating (CONVENTIONS.md rule 4).

Each function is keyword-only, runs in one transaction and raises `ValidationError` (bad input,
HTTP 400 with field messages) or `games.models.Conflict` (a state conflict, HTTP 409).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.error_messages import error_line
from scoring.rules import ScoringError
from scoring.rules.rotation import Seating, plan
from scoring.rules.round_robin import pairing

from .models import (
    TWO_PLAYER_KINDS,
    Club,
    Invitation,
    Membership,
    Player,
    Session,
    Table,
    TableSeat,
    is_prefetched,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.models import Rubber

MIN_AT_TABLE, MAX_AT_TABLE = 4, 6


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
    from scoring.rules import HouseRules

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
) -> Player:
    """Add a player to a club, optionally with a login (docs/api.md, "Invitations").

    - With a username and a password, the login is new: it is created, made a member of the
      club (a player, or a director when asked) and linked at once. The password is checked
      first, so only a valid one reaches the existence check; a username already taken, in any
      case ("Alice" when "alice" exists), is refused (as any sign-up refuses it).
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
    name = name.strip()
    if not name:
        raise ValidationError({"name": [_("A player needs a name.")]})
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
            return _player_insert(
                club=club, name=name, username=username, password=password, director=director
            )
        except IntegrityError as err:
            # The locks above make this a last resort (a login created elsewhere at the same
            # time): answer as had this request come second, never a 500.
            if Player.objects.filter(club=club, name__iexact=name).exists():
                raise _name_taken(name) from err
            refusal = _username_refusal(club=club, username=username)
            if refusal is not None:
                raise refusal from err
            if password and _login_named(username).exists():
                raise _login_exists() from err
            raise ValidationError(
                {
                    "username": [
                        _(
                            "%(username)r was being linked or created by someone else at the "
                            "same time; try again."
                        )
                        % {"username": username}
                    ]
                }
            ) from err


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        {"name": [_("%(name)r is already a player of this club.") % {"name": name}]}
    )


def _login_named(username: str | None) -> Any:
    """The logins whose username is `username`, ignoring case."""
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


def suggest_tables(count: int, *, kind: str = Session.Kind.RUBBER) -> list[int]:
    """Table sizes for `count` players (RULES 6.2: four to six at a table).

    As many tables of four as the count allows, the extra players spread one per table
    (9 → [5, 4], 11 → [6, 5]). Seven cannot be seated (one table of six leaves one out):
    the answer is then [] and the page says why. Two-player games (RULES 7) seat tables of
    two, so they need an even count.
    """
    if kind in TWO_PLAYER_KINDS:
        return [2] * (count // 2) if count >= 2 and count % 2 == 0 else []
    tables = count // MIN_AT_TABLE
    extra = count - tables * MIN_AT_TABLE
    if tables == 0 or extra > tables * (MAX_AT_TABLE - MIN_AT_TABLE):
        return []
    sizes = [MIN_AT_TABLE] * tables
    for i in range(extra):
        sizes[i % tables] += 1
    return sizes


def seated_elsewhere(
    player_ids: Sequence[int], *, session_id: int, date: datetime.date
) -> list[str]:
    """Why each of these players cannot be seated: they already sit in another session of the
    same day that is running (one player, one table at a time; issue 18). One sentence per
    player, naming the session by its date and table. A session of another day left running
    (not closed) does not hold its players. Callers lock the players' rows first when they go on to
    seat them, so two sessions cannot take the same player at once.

    A planned session may name them (planning ahead); starting it is refused while they sit
    elsewhere.
    """
    seats = (
        TableSeat.objects.filter(
            player_id__in=player_ids,
            active=True,
            session__status=Session.Status.RUNNING,
            session__date=date,
        )
        .exclude(session_id=session_id)
        .select_related("player", "session", "table")
        .order_by("player__name")
    )
    return [
        _(
            "%(name)s already sits at table %(number)d of the running session of %(date)s; "
            "remove them from that table first."
        )
        % {
            "name": seat.player.name,
            "number": seat.table.number,
            "date": date_format(seat.session.date),
        }
        for seat in seats
    ]


def _lock_players(player_ids: Sequence[int]) -> None:
    list(Player.objects.select_for_update().filter(pk__in=player_ids).order_by("pk"))


@dataclass(frozen=True)
class TablePlan:
    """How `count` players can be seated for a kind of game and movement: the table sizes, or
    why not (`reason`, a code) and, where one exists, a seating that works (`alternative`:
    tables of four to six here and the others at tables of two, in a two-player session)."""

    count: int
    sizes: list[int]
    reason: str = ""
    alternative: tuple[list[int], list[int]] | None = None


def plan_tables(*, count: int, kind: str, movement: str) -> TablePlan:
    """The one planning answer the console's live hint and its submit both give (issue 18).

    Rubber bridge and Chicago: tables of four to six (RULES 6.2); fixed partnerships, exactly
    four at every table. Two-player games (RULES 7): tables of two. When the count cannot be
    seated, `reason` says why ("empty", "even", "fixed", "four_to_six") and `alternative`
    suggests the nearest seating: the four-player tables for all but two, and those two at a
    two-player table in a session of their own (7 = a table of five and a Bridge for Two
    table), or the pivot's tables when fixed partnerships do not fit.
    """
    if count == 0:
        return TablePlan(count, [], "empty")
    if kind in TWO_PLAYER_KINDS:
        sizes = suggest_tables(count, kind=kind)
        return TablePlan(count, sizes, "" if sizes else "even")
    if movement == Session.Movement.FIXED:
        if count % MIN_AT_TABLE == 0:
            return TablePlan(count, [MIN_AT_TABLE] * (count // MIN_AT_TABLE))
        pivot = suggest_tables(count, kind=kind)
        return TablePlan(count, [], "fixed", (pivot, []) if pivot else None)
    sizes = suggest_tables(count, kind=kind)
    if sizes:
        return TablePlan(count, sizes)
    rest = suggest_tables(count - 2, kind=kind) if count > 2 else []
    alternative = (rest, [2]) if rest or count == 2 else None
    return TablePlan(count, [], "four_to_six", alternative)


def session_create(
    *,
    club: Club,
    date: datetime.date,
    kind: str = Session.Kind.RUBBER,
    movement: str = Session.Movement.PIVOT,
    stake_per_hundred: Decimal | None = None,
    tables: Sequence[Sequence[Player]],
    created_by: User | None = None,
) -> Session:
    """Plan a session: tables of 4–6 players in order of precedence (RULES 6.2), or tables of
    exactly two for the two-player games (RULES 7), whose opponents rotate by a round robin."""
    errors: dict[str, list[str]] = {}
    two_player = kind in TWO_PLAYER_KINDS
    if not tables:
        errors["tables"] = ["A session needs at least one table."]
    seen: dict[int, int] = {}
    for number, players in enumerate(tables, start=1):
        if two_player and len(players) != 2:
            errors.setdefault("tables", []).append(
                _(
                    "Table %(number)d has %(count)d players; a two-player game seats "
                    "exactly two (RULES 7)."
                )
                % {"number": number, "count": len(players)}
            )
        elif not two_player and not MIN_AT_TABLE <= len(players) <= MAX_AT_TABLE:
            errors.setdefault("tables", []).append(
                f"Table {number} has {len(players)} players; a table seats 4 to 6 (RULES 6.2)."
            )
        for player in players:
            if player.club_id != club.pk:
                errors.setdefault("tables", []).append(
                    f"Player {player.pk} is not a player of this club."
                )
            if player.pk in seen:
                errors.setdefault("tables", []).append(
                    _(
                        "%(name)s is at table %(first)d and table %(second)d; "
                        "a player sits at one table."
                    )
                    % {"name": player.name, "first": seen[player.pk], "second": number}
                )
            seen[player.pk] = number
    if (
        not two_player
        and movement == Session.Movement.FIXED
        and any(len(p) != MIN_AT_TABLE for p in tables)
    ):
        errors.setdefault("movement", []).append(
            _("Fixed partnerships need exactly four players at every table.")
        )
    if errors:
        raise ValidationError(errors)
    stake = club.default_stake if stake_per_hundred is None else stake_per_hundred
    with transaction.atomic():
        session = Session.objects.create(
            club=club,
            date=date,
            kind=kind,
            movement=movement,
            stake_per_hundred=stake,
            rules=club.house_rules().to_dict(),
            created_by=created_by,
        )
        for number, players in enumerate(tables, start=1):
            table = Table.objects.create(session=session, number=number)
            TableSeat.objects.bulk_create(
                TableSeat(session=session, table=table, player=player, position=position)
                for position, player in enumerate(players)
            )
    return session


def session_start(*, session: Session) -> Session:
    """Start a planned session: every table gets its first rubber, seated by the rotation."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.PLANNED:
            raise _conflict(
                _("The session is already %(status)s.")
                % {"status": locked.get_status_display().lower()}
            )
        player_ids = list(
            TableSeat.objects.filter(session=locked, active=True).values_list(
                "player_id", flat=True
            )
        )
        _lock_players(player_ids)
        if busy := seated_elsewhere(player_ids, session_id=locked.pk, date=locked.date):
            raise _conflict(" ".join(busy))
        locked.status = Session.Status.RUNNING
        locked.started_at = timezone.now()
        locked.save(update_fields=["status", "started_at"])
        for table in locked.tables.prefetch_related("seats__player"):
            table_start_next_rubber(table=table)
    _queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def session_close(*, session: Session) -> Session:
    """Close a session: rubbers still in play close as unfinished (RULES 2.6, 8.4)."""
    from games.models import Rubber

    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status == Session.Status.CLOSED:
            raise _conflict(_("The session is already closed."))
        if locked.status == Session.Status.PLANNED:
            raise _conflict(_("The session has not started; delete it instead of closing it."))
        for rubber in Rubber.objects.filter(session=locked).in_play():
            if rubber.deals.exists():
                rubber.close_unfinished()
            else:
                # A rubber with no deal was never played: it is withdrawn, not scored.
                rubber.delete()
        locked.status = Session.Status.CLOSED
        locked.closed_at = timezone.now()
        locked.save(update_fields=["status", "closed_at"])
    _queue_refresh(locked.pk)
    session.refresh_from_db()
    return session


def session_delete(*, session: Session) -> None:
    """Delete a planned session: nothing was played in it. A started one is kept (its results
    are facts); close it instead."""
    with transaction.atomic():
        locked = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        if locked.status != Session.Status.PLANNED:
            raise _conflict(_("Only a planned session can be deleted; this one has started."))
        locked.delete()


@dataclass(frozen=True)
class Pairing:
    """A match at a table of two, shaped like a `Seating`: player 0 at N, player 1 at E."""

    rubber: int
    seats: dict[str, int]
    sitting_out: tuple[int, ...] = ()


def _table_pairs(session: Session) -> list[tuple[int, int]]:
    pairs = []
    if is_prefetched(session, "tables"):  # the console read them with their seats
        tables = sorted(session.tables.all(), key=lambda t: t.number)
    else:
        tables = list(session.tables.order_by("number").prefetch_related("seats"))
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        pairs.append((seats[0].player_id, seats[1].player_id))
    return pairs


def _two_player_rotation(table: Table, ahead: int) -> list[Any]:
    """The match in play (or the last one) at a table of two, then the next `ahead` pairings of
    the round robin (RULES 7; `scoring.rules.round_robin`)."""
    history = table_history(table)
    current = history[-1:]
    if table.session.status == Session.Status.CLOSED:
        return current
    pairs = _table_pairs(table.session)
    last = history[-1].rubber if history else 0
    planned = []
    for number in range(last + 1, last + 1 + ahead):
        zero, one = pairing(pairs, number, table.number)
        planned.append(Pairing(number, {"N": zero, "E": one}))
    return current + planned


def round_robin_opponents(*, session: Session, rounds: Sequence[int]) -> dict[int, dict[int, Any]]:
    """Each player's opponent and table in each of ``rounds`` of a two-player session's round
    robin (RULES 7; `scoring.rules.round_robin`): ``{round: {player id: (opponent id, table
    number)}}``. One read of the tables as first set, none when the page prefetched them."""
    pairs = _table_pairs(session)
    found: dict[int, dict[int, Any]] = {}
    for number in rounds:
        found[number] = {}
        for table_number in range(1, len(pairs) + 1):
            zero, one = pairing(pairs, number, table_number)
            found[number][zero] = (one, table_number)
            found[number][one] = (zero, table_number)
    return found


def table_history(table: Table) -> list[Any]:
    """The seatings already played (or in play) at a table, as the rotation sees them (from
    ``table.rubbers_in_order`` when a page prefetched it)."""
    rubbers = getattr(table, "rubbers_in_order", None)
    if rubbers is None:
        rubbers = table.rubbers.order_by("number")
    if table.session.is_two_player:
        return [Pairing(r.number, r.seat_ids) for r in rubbers]
    return [
        Seating(rubber=r.number, seats=r.seat_ids, sitting_out=tuple(r.sitting_out))
        for r in rubbers
    ]


def table_rotation(*, table: Table, ahead: int = 3) -> list[Any]:
    """The rubbers in play and ahead at a table: the current one, then `ahead` planned ones."""
    if table.session.is_two_player:
        return _two_player_rotation(table, ahead)
    history = table_history(table)
    players = [p.pk for p in table.present_players()]
    session = table.session
    current = [s for s in history if s.rubber == history[-1].rubber] if history else []
    if session.status == Session.Status.CLOSED:
        return current
    planned = plan(players, ahead, movement=session.movement, history=history)
    return current + planned


def table_start_next_rubber(*, table: Table) -> Rubber | None:
    """Seat the next rubber (or Chicago) at a table by the rotation (RULES 6); at tables of two,
    start every next match whose two players are free (`_start_ready_matches`)."""
    from games.models import Rubber

    if table.session.is_two_player:
        return _start_ready_matches(session=table.session).get(table.pk)
    history = table_history(table)
    players = [p.pk for p in table.present_players()]
    seating = plan(players, 1, movement=table.session.movement, history=history)[0]
    seats = seating.seats
    return Rubber.objects.create(
        session_id=table.session_id,
        table=table,
        number=seating.rubber,
        north_id=seats["N"],
        east_id=seats["E"],
        south_id=seats["S"],
        west_id=seats["W"],
        sitting_out=list(seating.sitting_out),
        rules=table.session.rules,
        kind=table.session.kind,
    )


def _start_ready_matches(*, session: Session) -> dict[int, Rubber]:
    """Start the next match at every table of two that has none in play, when both of its
    players are free; return the matches started, by table id.

    The match numbered r at table t seats the pair of round r of the round robin
    (`scoring.rules.round_robin.pairing`, the circle method over the tables as first set).
    A table whose next pair includes a player still playing at another table waits; when that
    match ends, this runs again and starts it. Player 0 sits at N, player 1 at E.
    """
    from games.models import Rubber

    # Two tables ending at once must not each see the other still playing and both wait:
    # the session lock makes the second wait for the first and then see it ended.
    Session.objects.select_for_update(no_key=True).filter(pk=session.pk).first()
    tables = list(session.tables.order_by("number"))
    first = _table_pairs(session)
    in_play = list(Rubber.objects.filter(session=session).in_play())
    busy = {pid for rubber in in_play for pid in rubber.seat_ids.values()}
    playing = {rubber.table_id for rubber in in_play}
    last = {
        row["table_id"]: row["last"]
        for row in Rubber.objects.filter(session=session)
        .values("table_id")
        .annotate(last=models.Max("number"))
    }
    started: dict[int, Rubber] = {}
    for table in tables:
        if table.pk in playing:
            continue
        number = last.get(table.pk, 0) + 1
        zero, one = pairing(first, number, table.number)
        if zero in busy or one in busy:
            continue
        started[table.pk] = Rubber.objects.create(
            session=session,
            table=table,
            number=number,
            kind=session.kind,
            north_id=zero,
            east_id=one,
            rules=session.rules,
        )
        busy.update((zero, one))
    return started


def table_add_player(*, table: Table, player: Player) -> TableSeat:
    """A late arrival joins a table; the rotation is re-planned from the next rubber."""
    session = table.session
    if session.is_closed:
        raise _conflict(_("The session is closed."))
    if session.is_two_player:
        raise ValidationError({"player": [_two_player_tables()]})
    if player.club_id != session.club_id:
        raise ValidationError({"player": [_("This player is not a player of this club.")]})
    with transaction.atomic():
        seats = list(table.seats.select_for_update())
        _lock_players([player.pk])
        if session.status == Session.Status.RUNNING and (
            busy := seated_elsewhere([player.pk], session_id=session.pk, date=session.date)
        ):
            raise ValidationError({"player": busy})
        if sum(s.active for s in seats) >= MAX_AT_TABLE:
            raise ValidationError({"player": [_("A table seats at most six players (RULES 6.2).")]})
        existing = TableSeat.objects.filter(session=session, player=player).first()
        if existing and existing.active:
            raise ValidationError(
                {
                    "player": [
                        _("%(name)s already sits at table %(number)d.")
                        % {"name": player.name, "number": existing.table.number}
                    ]
                }
            )
        position = max((s.position for s in seats), default=-1) + 1
        try:
            if existing:
                existing.table = table
                existing.position = position
                existing.active = True
                existing.save(update_fields=["table", "position", "active"])
                return existing
            return TableSeat.objects.create(
                session=session, table=table, player=player, position=position
            )
        except IntegrityError as err:
            raise _conflict(_("Someone changed this table at the same time; try again.")) from err


def table_remove_player(*, table: Table, player: Player) -> None:
    """An early leaver leaves after the current rubber; nothing already played changes.

    The rubber in play keeps its seats (the player finishes it or the director closes it);
    the rotation is re-planned from the next rubber without them.
    """
    if table.session.is_closed:
        raise _conflict(_("The session is closed."))
    if table.session.is_two_player:
        raise ValidationError({"player": [_two_player_tables()]})
    with transaction.atomic():
        seat = table.seats.select_for_update().filter(player=player, active=True).first()
        if seat is None:
            raise ValidationError(
                {"player": [_("%(name)s does not sit at this table.") % {"name": player.name}]}
            )
        if table.seats.filter(active=True).count() <= MIN_AT_TABLE:
            raise ValidationError(
                {"player": [_("A table needs at least four players (RULES 6.2); add one first.")]}
            )
        seat.active = False
        seat.save(update_fields=["active"])


def _two_player_tables() -> str:
    return _("The tables of a two-player session keep their pairs for the round robin (RULES 7).")


def _conflict(message: str) -> Exception:
    from games.models import Conflict

    return Conflict(message)


def _queue_refresh(session_id: int) -> None:
    from scoring.services import queue_session_refresh

    queue_session_refresh(session_id)
