"""Clubs, players, roles, sessions and tables (DESIGN.md: clubs/).

Writes that change state go through named methods here or through `games.sessions`; views,
serializers, admin and seeds call them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.rules.games import GAMES, kinds
from scoring.rules.options import PRESETS, HouseRules

from . import policy

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

#: A new session's game: the registry's first.
DEFAULT_KIND = next(iter(GAMES))


class ClubQuerySet(models.QuerySet["Club"]):
    def visible_to(self, user: User | AnonymousUser) -> ClubQuerySet:
        """The clubs the user may read (`clubs.policy.readable_clubs`)."""
        readable = self.filter(policy.readable_clubs(user))
        return readable.distinct() if user.is_authenticated else readable

    def visibility(self, slug: str) -> tuple[int, bool] | None:
        """(id, public) of the club with this slug, or None, in SQL: compiling the ORM query cost
        more than running it (docs/benchmarks.md, HTTP)."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT id, public FROM clubs_club WHERE slug = %s", [slug])
            row = cursor.fetchone()
        return None if row is None else (row[0], row[1])


class Club(models.Model):
    class Language(models.TextChoices):
        EN = "en", "English"
        IT = "it", "Italiano"

    slug = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=120)
    public = models.BooleanField(
        default=True, help_text=_("Anyone may read a public club's sessions and leaderboard.")
    )
    rules_preset = models.CharField(max_length=30, default="acbl")
    rules_overrides = models.JSONField(default=dict, blank=True)
    default_stake = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0.00"))
    currency = models.CharField(max_length=3, default="EUR")
    language = models.CharField(max_length=5, choices=Language.choices, default=Language.EN)
    confirm_entries = models.BooleanField(
        default=False, help_text=_("Ask an opponent to confirm each deal entered.")
    )
    table_codes = models.BooleanField(
        default=True,
        help_text=_("New sessions let phones open a table by its code (/t/<code>) while they run."),
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(default_stake__gte=0), name="club_stake_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:home", args=[self.slug])

    def house_rules(self) -> HouseRules:
        """The rules in force: the preset with the club's overrides (RULES 'options')."""
        return HouseRules.from_preset(self.rules_preset, self.rules_overrides)

    def role_of(self, user: User | AnonymousUser) -> str | None:
        if not user.is_authenticated:
            return None
        # The role alone: an instance with only("role") cost a query more (docs/benchmarks.md).
        role: str | None = self.memberships.filter(user=user).values_list("role", flat=True).first()
        return role

    def is_director(self, user: User | AnonymousUser) -> bool:
        return policy.may_direct(self.role_of(user))

    def language_for(self, user: User | AnonymousUser) -> str:
        """This club's pages' language for `user`: their player's, else the club's (i18n.md)."""
        own = None
        if user.is_authenticated:
            own = (
                self.players.filter(user=user)
                .exclude(language="")
                .values_list("language", flat=True)
                .first()
            )
        return own or self.language

    def is_member(self, user: User | AnonymousUser) -> bool:
        return self.role_of(user) is not None

    def can_read(self, user: User | AnonymousUser) -> bool:
        """`clubs.policy.may_read` (no query for a public club)."""
        return policy.may_read(self.public, None) or policy.may_read(
            self.public, self.role_of(user)
        )


class Membership(models.Model):
    """A login's role in one club."""

    class Role(models.TextChoices):
        DIRECTOR = policy.DIRECTOR, _("Director")
        PLAYER = "player", _("Player")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_role_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} of {self.club}"


class Player(models.Model):
    """A person in a club; optionally linked to a login so they can enter results."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    language = models.CharField(
        max_length=5,
        choices=Club.Language.choices,
        blank=True,
        default="",
        help_text=_("The player's language (blank: the club's)."),
    )
    email = models.EmailField(
        blank=True,
        default="",
        help_text=_("Where the player's results are mailed after each night (no login needed)."),
    )
    mail_stopped_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the player stopped the results mail (the link in every mail)."),
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            # Names are unique in a club whatever their case ("Alice" and "alice" are one person
            # to the players reading the standings); the database holds it under concurrency.
            models.UniqueConstraint("club", Lower("name"), name="unique_player_name_in_club_ci"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="one_player_per_login_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def language_or_club(self) -> str:
        """The language sent to this player and spoken by their pages: theirs, else the club's."""
        return self.language or self.club.language

    def may_choose_language(self, user: User | AnonymousUser) -> bool:
        """The player chooses their language, and so may their club's directors."""
        if not user.is_authenticated:
            return False
        return self.user_id == user.pk or self.club.is_director(user)

    def choose_language(self, language: str, *, by: User | AnonymousUser) -> None:
        """Set the player's language ("" for the club's). Only the player or a director of their
        club (`may_choose_language`); an unknown language is refused."""
        if not self.may_choose_language(by):
            raise PermissionDenied(_("Only the player or a director of the club may do this."))
        if language not in ("", *Club.Language.values):
            raise ValidationError({"language": [_("Choose one of the languages offered.")]})
        self.language = language
        self.save(update_fields=["language"])

    @property
    def gets_results_mail(self) -> bool:
        """A night's results are mailed to the player (an address, and the mail not stopped)."""
        return bool(self.email) and self.mail_stopped_at is None

    def choose_email(self, email: str, *, by: User | AnonymousUser) -> None:
        """Set the results mail's address ("" for none): the player or a director; only the
        player saving their own address undoes their unsubscribe."""
        if not self.may_choose_language(by):
            raise PermissionDenied(_("Only the player or a director of the club may do this."))
        self.email = email.strip()
        fields = ["email"]
        if by.is_authenticated and self.user_id == by.pk and self.email:
            self.mail_stopped_at = None
            fields.append("mail_stopped_at")
        self.save(update_fields=fields)

    def stop_results_mail(self, *, stop: bool = True) -> bool:
        """Stop the results mail, or start it again (`stop=False`: an unsubscribe link's
        holder); True when it changed. One UPDATE, so two clicks change it once."""
        rows = Player.objects.filter(pk=self.pk, mail_stopped_at__isnull=stop)
        changed = rows.update(mail_stopped_at=timezone.now() if stop else None)
        self.refresh_from_db(fields=["mail_stopped_at"])
        return bool(changed)


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def for_holder(self, user: User | AnonymousUser) -> InvitationQuerySet:
        """The pending invitations of this login: those bound to it when they were made. An
        invitation naming no login at that time reaches nobody, ever, so a login created later
        under that name cannot take it (docs/security.md, "Invitations")."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(user=user)


class Invitation(models.Model):
    """A director's offer to link a player of the club to an existing login.

    Only the login's holder links it, by accepting; declining deletes it, and so does accepting
    once the player is linked. A row is a pending invitation. `username` is what the director
    typed (shown to them); `user` is the login it reaches, bound when the invitation was made
    (the one login whose username matches, ignoring case). With no such login then, `user` is
    empty and the invitation is inert: nobody can see or accept it, not even someone who later
    creates that username (issue 14: invitation squatting).
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="invitation")
    username = models.CharField(max_length=150, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        help_text=_("The login this invitation reaches; empty when it named no login."),
    )
    director = models.BooleanField(
        default=False, help_text=_("Accepting makes the login a director of the club.")
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.username} invited to be {self.player}"


class Session(models.Model):
    """One club evening."""

    #: The game its tables play: one member per game of the registry (`scoring.rules.games`),
    #: RUBBER = "rubber", "Rubber bridge" and so on, the first the default.
    Kind = models.TextChoices(  # type: ignore[call-overload]
        "Kind",
        [(code.upper(), (code, _(game.label))) for code, game in GAMES.items()],
        qualname="Session.Kind",
    )

    class Movement(models.TextChoices):
        PIVOT = "pivot", _("Pivot")
        FIXED = "fixed", _("Fixed partners")
        CUT_IN = "cut-in", _("Cut-in")

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        CLOSED = "closed", _("Closed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    date = models.DateField()
    kind = models.CharField(max_length=20, choices=Kind.choices, default=DEFAULT_KIND)
    movement = models.CharField(max_length=10, choices=Movement.choices, default=Movement.PIVOT)
    stake_per_hundred = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0.00"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    confirm_entries = models.BooleanField(
        default=False,
        help_text=_("Ask an opponent to confirm each deal entered (also when the club does not)."),
    )
    table_codes = models.BooleanField(
        default=True,
        help_text=_("Phones may open a table by its code (/t/<code>) while the session runs."),
    )
    rules = models.JSONField(
        default=dict, help_text="The house rules in force, copied at creation."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closes = models.PositiveIntegerField(
        default=0,
        help_text=_("How many times the session was closed (a reopened one closes again)."),
    )

    # Every change of the session's row (started, closed, reopened, settings), with who and why
    # (django-simple-history, as for deals): a reopening for corrections is never silent.
    history = HistoricalRecords(excluded_fields=["rules"])
    _history_user: User
    _change_reason: str

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(stake_per_hundred__gte=0), name="session_stake_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.date} ({self.get_kind_display()})"

    def get_absolute_url(self) -> str:
        return reverse("clubs:session", args=[self.club.slug, self.pk])

    def house_rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules)

    @property
    def asks_confirmation(self) -> bool:
        """Opponents confirm each deal: the club's setting, or this session's (issue 17)."""
        return self.confirm_entries or self.club.confirm_entries

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def is_reopened(self) -> bool:
        """Running again after a close, for corrections (`session_reopen`): its director's
        alone, no player nor table code writes (`is_playing`)."""
        return self.status == self.Status.RUNNING and self.closed_at is not None

    @property
    def is_playing(self) -> bool:
        """Running for play, never closed: its players and table codes write (a session
        reopened for corrections is not: docs/security.md, issue 26)."""
        return self.status == self.Status.RUNNING and self.closed_at is None

    @property
    def left_running(self) -> bool:
        """Still running from an earlier day: its director is asked to close it (issue 31)."""
        return self.status == self.Status.RUNNING and self.date < timezone.localdate()

    @property
    def codes_open(self) -> bool:
        """Its table codes open its tables (`games.codes.tokens.open_table`): playing, codes on."""
        return self.is_playing and self.table_codes

    @property
    def is_two_player(self) -> bool:
        """Tables of two playing one of the games of RULES 7."""
        return self.kind in GAMES and GAMES[self.kind].two_player


#: The games of RULES 7, for two players (`scoring.rules.games`, entries with two seats).
TWO_PLAYER_KINDS = kinds(seats=2)


#: Table codes (issue 17): no 0/O, 1/I/L, so a code read off a card is typed right; eight
#: characters of 31 are about 40 bits, and wrong guesses are throttled
#: (games.codes.views.table_code).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    code = models.CharField(
        max_length=CODE_LENGTH,
        unique=True,
        default=new_table_code,
        help_text="Opens the table's rubber on any phone at /t/<code> while the session runs.",
    )

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    def get_absolute_url(self) -> str:
        """Where every link naming a table goes: its rubber in play, or its rubbers (games)."""
        return reverse("games:table", args=[self.pk])

    def regenerate_code(self) -> str:
        """A new code: the old one, and every phone that used it, stop working."""
        self.code = new_table_code()
        self.save(update_fields=["code"])
        return self.code

    def present_players(self) -> list[Player]:
        """The players now at the table, in order of precedence (RULES 6.2)."""
        return [
            seat.player
            for seat in sorted(self.seats.all(), key=lambda s: s.position)
            if seat.active
        ]


class TableSeat(models.Model):
    """A player's place at a table in order of precedence (the first is the pivot/first dealer).

    A player who leaves is marked inactive rather than deleted, so the evening's history stays.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="table_seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="table_seats")
    position = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            # A player sits at one table per session (a move updates the row).
            models.UniqueConstraint(fields=["session", "player"], name="one_table_per_player"),
            models.UniqueConstraint(fields=["table", "position"], name="unique_precedence"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


def house_rules_options(preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """Validate a preset and overrides; return the full options dict (raises ScoringError)."""
    return HouseRules.from_preset(preset, overrides).to_dict()


PRESET_CHOICES = sorted(PRESETS)


def is_prefetched(instance: models.Model, name: str) -> bool:
    """True when ``instance.<name>.all()`` is answered from a ``prefetch_related`` read."""
    return name in getattr(instance, "_prefetched_objects_cache", {})


class TableChange(models.Model):
    """A change at a table of a running session (issue 18): who left, came or moved, from which
    rubber, by which director; the rotation is re-planned from `from_rubber` (RULES 6)."""

    class Kind(models.TextChoices):
        SUBSTITUTE = "substitute", _("Substitute")
        REPLAN = "replan", _("Left; room re-planned")
        MOVE = "move", _("Moved")
        ARRIVE = "arrive", _("Late arrival")
        NEW_TABLE = "new_table", _("Late arrival, new table")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="changes")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="Who came to the table (a substitute, an arrival, a player moved here).",
    )
    replaced = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="Who left the table.",
    )
    from_rubber = models.PositiveSmallIntegerField(
        help_text="The rubber's number at the table from which the change counts."
    )
    closed_rubber = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The rubber closed unfinished for it (RULES 2.6)."
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.table}"

    def sentence(self) -> str:
        """The change in words, for the session's history (players and tables read with it)."""
        from django.utils.translation import gettext

        values = {
            "player": self.player.name if self.player else "",
            "replaced": self.replaced.name if self.replaced else "",
            "table": self.table.number,
            "rubber": self.from_rubber,
            "closed": self.closed_rubber or 0,
        }
        if self.kind == self.Kind.SUBSTITUTE:
            text = gettext(
                "%(player)s replaces %(replaced)s at table %(table)d from rubber %(rubber)d."
            )
        elif self.kind == self.Kind.REPLAN and self.closed_rubber:
            text = gettext(
                "%(replaced)s left table %(table)d: rubber %(closed)d closed unfinished "
                "(RULES 2.6), the room re-planned."
            )
        elif self.kind == self.Kind.REPLAN:
            text = gettext("%(replaced)s left table %(table)d: the room re-planned.")
        elif self.kind == self.Kind.MOVE:
            text = gettext("%(player)s moves to table %(table)d from rubber %(rubber)d.")
        elif self.kind == self.Kind.ARRIVE:
            text = gettext("%(player)s joins table %(table)d from rubber %(rubber)d.")
        else:
            text = gettext("%(player)s arrives at the new table %(table)d.")
        return text % values


class PrizeCut(models.Model):
    """A cut between winners sharing a prize's choice (RULES 6.3), recorded by the director: the
    winner chooses first. Never edited: recorded again (a slip corrected, issue 31), the latest
    for a choice and group is the cut and the earlier ones stay, the session's history."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="prize_cuts")
    choice = models.PositiveSmallIntegerField(
        help_text="The shared choice of prize (1 chooses first)."
    )
    among = models.CharField(
        max_length=400, help_text="The ids of the players who cut, ascending, comma-separated."
    )
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"Cut for choice {self.choice} in session {self.session_id}: {self.winner_id}"

    @staticmethod
    def key(players: Iterable[int]) -> str:
        """The ``among`` of a group of players: their ids, ascending."""
        return ",".join(str(pk) for pk in sorted(set(players)))

    @property
    def players(self) -> frozenset[int]:
        return frozenset(int(pk) for pk in self.among.split(","))
