"""Explicit input and output serializers of the clubs and sessions API (docs/api.md).

Input serializers parse and validate the shape of a request; the rules of the domain (a table
seats 4 to 6, one table per player, a valid house rule) are the services' and come back as
`ValidationError` with field messages.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.rules import ScoringError
from scoring.shared import inputs
from scoring.shared.inputs import RefusesUnknownFields

from .forms import NAME_RULES, RESERVED_SLUGS
from .logins import normalize_login
from .models import PRESET_CHOICES, Club, Invitation, Player, Session, Table

#: The largest id a database stores (a 64-bit signed integer): larger ones are bad input.
MAX_ID = 2**63 - 1


class NameField(serializers.CharField):
    """A name, as JSON text: a number is refused (`CharField` alone turns 42 into "42")."""

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, int | float) and not isinstance(data, bool):
            raise serializers.ValidationError(
                _("A name is text (a JSON string), not a number."), code="invalid"
            )
        return super().to_internal_value(data)


# --- clubs -------------------------------------------------------------------------------------


class ClubIn(RefusesUnknownFields, serializers.Serializer[Any]):
    slug = serializers.SlugField(max_length=50)
    name = NameField(max_length=120)
    public = serializers.BooleanField(default=True)
    rules_preset = serializers.ChoiceField(choices=PRESET_CHOICES, default="acbl")
    rules = serializers.DictField(
        child=serializers.JSONField(),
        default=dict,
        help_text='House-rule options (RULES.md), e.g. {"unfinished_partscore": 50}.',
    )
    default_stake = inputs.DecimalField(
        max_digits=8, decimal_places=2, min_value=Decimal("0"), default=Decimal("0.00")
    )
    currency = serializers.CharField(min_length=3, max_length=3, default="EUR")
    language = serializers.ChoiceField(
        choices=Club.Language.choices,
        default=Club.Language.EN,
        help_text="The language of the club's pages for visitors who have not chosen one.",
    )

    def validate_slug(self, slug: str) -> str:
        slug = slug.lower()
        if slug in RESERVED_SLUGS:
            raise serializers.ValidationError(_("This slug is reserved; choose another."))
        return slug


class ClubOut(serializers.ModelSerializer[Club]):
    rules = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = [
            "slug",
            "name",
            "public",
            "rules_preset",
            "rules",
            "default_stake",
            "currency",
            "language",
            "created_at",
        ]

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_rules(self, club: Club) -> dict[str, Any]:
        # One club's stored rules the engine refuses (written around the API's checks) must not
        # make the list of every club a 400: that club shows no rules.
        try:
            return club.house_rules().to_dict()
        except ScoringError:
            return {}


# --- players -----------------------------------------------------------------------------------


class LoginNameField(serializers.RegexField):
    """A username as Django's sign-in page reads it: NFKC-normalised (`normalize_login`) before
    the pattern and length are checked, so "ＡＢＣ" is stored and answered as "ABC"."""

    def to_internal_value(self, data: Any) -> str:
        return normalize_login(super().to_internal_value(data))


class PlayerIn(RefusesUnknownFields, serializers.Serializer[Any]):
    name = NameField(max_length=80, validators=NAME_RULES)
    username = LoginNameField(
        r"^[\w.@+-]+\Z",
        max_length=150,
        required=False,
        allow_blank=True,
        help_text=(
            "Without a password: invite this login's holder (the player is linked when they "
            "accept). With a password: create this new login and link it at once."
        ),
    )
    password = serializers.CharField(
        max_length=128,
        required=False,
        allow_blank=True,
        write_only=True,
        style={"input_type": "password"},
        help_text="The password of a new login (the username must not exist yet).",
    )
    director = serializers.BooleanField(
        default=False,
        help_text="Make the login a director of the club (when linked, or when it accepts).",
    )
    email = serializers.EmailField(
        required=False,
        allow_blank=True,
        max_length=254,
        help_text="Where the player's results are mailed after each night (no login needed).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("director") and not attrs.get("username"):
            raise serializers.ValidationError(
                {"director": [_("A director needs a login: give a username.")]}
            )
        if attrs.get("password") and not attrs.get("username"):
            raise serializers.ValidationError(
                {"password": [_("A password needs a username to go with it.")]}
            )
        return attrs


class PlayerOut(serializers.ModelSerializer[Player]):
    """A player as anyone who may read the club sees them."""

    class Meta:
        model = Player
        fields = ["id", "name"]


class PlayerDirectorOut(PlayerOut):
    """A player as the club's directors see them: with the login linked, if any, and whether an
    invitation to link one is pending."""

    username = serializers.CharField(source="user.username", default=None, read_only=True)
    invitation = serializers.SerializerMethodField(
        help_text='"pending" while an invited login has not answered, else null.'
    )

    email = serializers.CharField(
        read_only=True,
        help_text='Where the player\'s results are mailed after each night; "" for none.',
    )
    results_mail = serializers.SerializerMethodField(
        help_text='"on" (an address, mail not stopped), "stopped" (the player unsubscribed) '
        "or null (no address)."
    )

    class Meta(PlayerOut.Meta):
        fields = ["id", "name", "username", "invitation", "email", "results_mail"]

    @extend_schema_field(serializers.ChoiceField(choices=["on", "stopped"], allow_null=True))
    def get_results_mail(self, player: Player) -> str | None:
        if not player.email:
            return None
        return "stopped" if player.mail_stopped_at else "on"

    @extend_schema_field(serializers.ChoiceField(choices=["pending"], allow_null=True))
    def get_invitation(self, player: Player) -> str | None:
        pending = getattr(player, "invited", None)
        if pending is None:
            pending = Invitation.objects.filter(player=player).exists()
        return "pending" if pending else None


class InvitationClubOut(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()


class InvitationOut(serializers.ModelSerializer[Invitation]):
    """A pending invitation as its login's holder sees it."""

    club = InvitationClubOut(source="player.club")
    player = PlayerOut()

    class Meta:
        model = Invitation
        fields = ["id", "club", "player"]


# --- sessions ----------------------------------------------------------------------------------


class TableIn(RefusesUnknownFields, serializers.Serializer[Any]):
    players = serializers.ListField(
        child=inputs.IntegerField(min_value=1, max_value=MAX_ID),
        help_text="Player ids in order of precedence (the first is the pivot); 4 to 6.",
    )


class SessionIn(RefusesUnknownFields, serializers.Serializer[Any]):
    date = inputs.DateField(help_text="YYYY-MM-DD")
    kind = serializers.ChoiceField(choices=Session.Kind.choices, default=Session.Kind.RUBBER)
    movement = serializers.ChoiceField(
        choices=Session.Movement.choices, default=Session.Movement.PIVOT
    )
    stake_per_hundred = inputs.DecimalField(
        max_digits=8,
        decimal_places=2,
        min_value=Decimal("0"),
        required=False,
        help_text="Money per hundred, a decimal string (default: the club's stake).",
    )
    tables = serializers.ListField(child=TableIn(), min_length=1, max_length=50)

    def validate_tables(self, tables: list[dict[str, list[int]]]) -> list[list[Player]]:
        """Turn ids into the club's players; an id of no player of this club is refused."""
        club: Club = self.context["club"]
        ids = {pk for table in tables for pk in table["players"]}
        found = {p.pk: p for p in Player.objects.filter(club=club, pk__in=ids)}
        missing = sorted(ids - set(found))
        if missing:
            raise serializers.ValidationError(
                [_("Player %(id)d is not a player of this club.") % {"id": pk} for pk in missing]
            )
        return [[found[pk] for pk in table["players"]] for table in tables]


class SessionStartIn(RefusesUnknownFields, serializers.Serializer[Any]):
    anyway = serializers.BooleanField(
        default=False,
        help_text="Start although a player still sits in a session of another day left running "
        "(without it: 400 on `tables` naming them). A session of the same day is never overridden.",
    )


class TablePlayerIn(RefusesUnknownFields, serializers.Serializer[Any]):
    player = inputs.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="A player id of the session's club."
    )

    def validate_player(self, pk: int) -> Player:
        club: Club = self.context["club"]
        player = Player.objects.filter(club=club, pk=pk).first()
        if player is None:
            raise serializers.ValidationError(
                _("Player %(id)d is not a player of this club.") % {"id": pk}
            )
        return player


class SeatsOut(serializers.Serializer[Any]):
    N = inputs.IntegerField()
    E = inputs.IntegerField()
    S = inputs.IntegerField(required=False, help_text="Absent at a table of two.")
    W = inputs.IntegerField(required=False, help_text="Absent at a table of two.")


class CurrentRubberOut(serializers.Serializer[Any]):
    id = inputs.IntegerField()
    number = inputs.IntegerField()
    status = serializers.CharField()
    seats = SeatsOut(source="seat_ids")
    sitting_out = serializers.ListField(child=inputs.IntegerField())


class TableOut(serializers.Serializer[Any]):
    number = inputs.IntegerField()
    players = serializers.SerializerMethodField(
        help_text="Player ids at the table now, in order of precedence."
    )
    current_rubber = serializers.SerializerMethodField()
    code = serializers.SerializerMethodField(
        help_text="The table code (/t/<code>), to the session's director only, as the table "
        "cards carry it: fixed at planning (it opens the table once the session starts) and "
        "while the session runs with codes on; null once it closed or reopened for corrections "
        "(its codes stay dead), with codes off, and to everyone else."
    )

    def get_code(self, table: Table) -> str | None:
        session = table.session
        planned = session.status == Session.Status.PLANNED and session.table_codes
        if not self.context.get("director") or not (session.codes_open or planned):
            return None
        return table.code

    def get_players(self, table: Table) -> list[int]:
        return [p.pk for p in table.present_players()]

    @extend_schema_field(CurrentRubberOut(allow_null=True))
    def get_current_rubber(self, table: Table) -> dict[str, Any] | None:
        rubbers = getattr(table, "rubbers_in_play", None)
        if rubbers is None:
            rubbers = list(table.rubbers.filter(status="in_play"))
        if not rubbers:
            return None
        return CurrentRubberOut(rubbers[0]).data


class SessionOut(serializers.ModelSerializer[Session]):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    tables = TableOut(many=True, read_only=True)

    class Meta:
        model = Session
        fields = [
            "id",
            "club",
            "date",
            "kind",
            "movement",
            "stake_per_hundred",
            "status",
            "created_at",
            "started_at",
            "closed_at",
            "tables",
        ]


class SeatingOut(serializers.Serializer[Any]):
    rubber = inputs.IntegerField()
    seats = SeatsOut()
    sitting_out = serializers.ListField(child=inputs.IntegerField())


class ErrorsOut(serializers.Serializer[Any]):
    # Documents the error body for the schema only; never validated, so shadowing
    # Serializer.errors is harmless.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField())
    )


class DetailOut(serializers.Serializer[Any]):
    detail = serializers.CharField()


def _club_player(club: Club, pk: int) -> Player:
    player = Player.objects.filter(club=club, pk=pk).first()
    if player is None:
        raise serializers.ValidationError(
            _("Player %(id)d is not a player of this club.") % {"id": pk}
        )
    return player


class LeaverIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """An early leaver at a table (issue 18), closed out and the room re-planned."""

    leaver = inputs.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The id of the player who leaves the table."
    )

    def validate_leaver(self, pk: int) -> Player:
        return _club_player(self.context["club"], pk)


class SubstituteIn(LeaverIn):
    """An early leaver replaced: by a player of the club (`substitute`) or a new one (`name`)."""

    substitute = inputs.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="A player id of the club sitting in no running session; or give `name`.",
    )
    name = NameField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        validators=NAME_RULES,
        help_text="A new player's name, added to the club.",
    )

    def validate_substitute(self, pk: int | None) -> Player | None:
        return None if pk is None else _club_player(self.context["club"], pk)


class ArrivalsIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """Late arrivals at a running session (issue 18)."""

    players = serializers.ListField(
        child=inputs.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
        max_length=60,
        help_text="Player ids of the club.",
    )
    names = serializers.ListField(
        child=NameField(max_length=80, validators=NAME_RULES),
        required=False,
        default=list,
        max_length=60,
        help_text="New players' names, added to the club (a bare number is refused).",
    )
    mode = serializers.ChoiceField(
        choices=["", "table", "cut_in"],
        required=False,
        default="",
        help_text="`table`: a table of their own; `cut_in`: at tables with room; empty: as "
        "suggested.",
    )
    table = inputs.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        allow_null=True,
        default=None,
        help_text="For a cut-in: the table's number (default: the smallest tables).",
    )

    def validate_players(self, pks: list[int]) -> list[Player]:
        return [_club_player(self.context["club"], pk) for pk in pks]


class TableChangeOut(serializers.Serializer[Any]):
    kind = serializers.CharField()
    table = inputs.IntegerField(source="table.number")
    player = inputs.IntegerField(source="player_id", allow_null=True)
    replaced = inputs.IntegerField(source="replaced_id", allow_null=True)
    from_rubber = inputs.IntegerField()
    closed_rubber = inputs.IntegerField(allow_null=True)
    at = inputs.DateTimeField()
