"""Input and output serializers for rubbers and deals (API.md: Rubbers and deals).

Inputs only check shapes (a number is a number); the bridge rules are the scoring engine's,
applied by the model methods, so an impossible result is refused with the rule it breaks.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings

from scoring.shared import inputs
from scoring.shared.inputs import RefusesUnknownFields

from . import history
from .models import DISPUTE_NOTE_MAX, MAX_ID, Deal, DisputeReason, Rubber
from .registry import names_for, pages

#: How DRF writes a date and time (ISO 8601 in the current time zone), for the written-out fields.
_DATETIME = inputs.DateTimeField()

Times = Callable[[datetime.datetime | None], str | None]


def answer_times() -> Times:
    """`_DATETIME.to_representation` for one answer, the current time zone read once rather
    than for each of its deals' times (DRF reads it for each): an aware time in that zone, ISO
    8601, UTC as "Z". Anything else (a naive time, another format) is DRF's own."""
    if not settings.USE_TZ or str(api_settings.DATETIME_FORMAT).lower() != ISO_8601:
        return _drf_time
    zone = timezone.get_current_timezone()

    def written(value: datetime.datetime | None) -> str | None:
        if value is None or not timezone.is_aware(value):
            return _drf_time(value)
        try:
            text = value.astimezone(zone).isoformat()
        except OverflowError:
            return _drf_time(value)  # DRF's refusal
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return written


def _drf_time(value: datetime.datetime | None) -> str | None:
    return cast("str | None", _DATETIME.to_representation(value))  # type: ignore[arg-type]


class HonoursSerializer(RefusesUnknownFields, serializers.Serializer[Any]):
    side = serializers.CharField(help_text="NS or EW: the side holding the honours.")
    points = inputs.IntegerField(help_text="100 (four honours) or 150 (five, or four aces).")


class DealInSerializer(RefusesUnknownFields, serializers.Serializer[Any]):
    number = inputs.IntegerField(min_value=1, help_text="The deal's place in the rubber.")
    contract = serializers.CharField(max_length=10, help_text='"4S", "3NTX", "2HXX" or "pass"')
    declarer = serializers.CharField(
        max_length=2, required=False, allow_blank=True, allow_null=True, help_text="N, E, S or W"
    )
    tricks = inputs.IntegerField(
        required=False, allow_null=True, help_text="Tricks won by the declaring side (0-13)."
    )
    honours = HonoursSerializer(required=False, allow_null=True)

    def to_record_kwargs(self) -> dict[str, Any]:
        data = self.validated_data
        honours = data.get("honours") or {}
        return {
            "number": data["number"],
            "contract": data["contract"],
            "declarer": data.get("declarer"),
            "tricks": data.get("tricks"),
            "honours_side": honours.get("side"),
            "honours_points": honours.get("points"),
        }


class TwoPlayerDealInSerializer(RefusesUnknownFields, serializers.Serializer[Any]):
    """A deal of a two-player match (RULES 7): `number` and the game's own fields, checked by the
    scoring engine, which names the field and the rule it breaks.

    - Bridge for Two (RULES 7.1): `declarer` 0|1, `strain` C..NT, `doubled`? 0|1, `tricks`
      (won by the declarer), `honours`? `{player, points}`.
    - Misery Bridge (RULES 7.2): the same with `declaration` ordinary|eight|misery, no doubling.
    - Turnover (RULES 7.3): `tricks` `[t0, t1]`, the tricks each player won (14 against 0–12,
      or all 26 played out: 16–10, 13–13).
    - Draw and Discard (RULES 7.4): `declarer` 0|1, `contract` "4S"|"3NTX"|"pass", `tricks`.
    """

    number = inputs.IntegerField(min_value=1, help_text="The deal's place in the match.")
    declarer = inputs.IntegerField(required=False, help_text="0 or 1: the declaring player.")
    strain = serializers.CharField(required=False, help_text="C, D, H, S or NT.")
    doubled = inputs.IntegerField(required=False, help_text="0 or 1 (Bridge for Two).")
    declaration = serializers.CharField(required=False, help_text="ordinary, eight or misery.")
    contract = serializers.CharField(required=False, help_text='Draw and Discard: "4S", "pass".')
    tricks = serializers.JSONField(
        required=False, help_text="Tricks won by the declarer; Turnover: [t0, t1]."
    )
    honours = serializers.JSONField(required=False, help_text="{player: 0|1, points: 100|150}")


class DealConfirmIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """A confirmation's optional body: the `version` the player saw (a deal corrected since is
    not confirmed: 409), as the page's Confirm sends it."""

    version = inputs.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="The version you are confirming (from a GET); without it, the stored one.",
    )


class SeenDealIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """A deal as the player saw it: its `id` and `version`."""

    id = inputs.IntegerField(min_value=1, max_value=MAX_ID)
    version = inputs.IntegerField(min_value=1, max_value=2**31 - 1)


class ConfirmAllIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """ "Confirm all": the deals of the rubber awaiting the player, each with the version they
    saw (as the page's "Confirm all" lists them)."""

    deals = serializers.ListField(child=SeenDealIn(), min_length=1, max_length=200)


class DealDisputeIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """A dispute: what is wrong (`reason`), the player's own words (`note`, optional) and the
    `version` they saw (a deal corrected since is not disputed: 409)."""

    reason = serializers.ChoiceField(
        choices=DisputeReason.choices,
        help_text="What is wrong: contract, declarer, result, honours or other.",
    )
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=DISPUTE_NOTE_MAX,
        help_text="The player's own words (optional).",
    )
    version = inputs.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="The version you are disputing (from a GET); without it, the stored one.",
    )


class DealRuleIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """A director's ruling that a disputed deal stands: the `version` they saw (a deal corrected
    since is not ruled on: 409)."""

    version = inputs.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        help_text="The version you are ruling on (from a GET).",
    )


class DealDeleteIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """What deleting the last deal takes: the `version` the player read (a deal changed since is
    not deleted: 409), in the query string (`?version=3`: a DELETE's body has no defined meaning
    in HTTP and some clients and proxies drop it) or, as the other DELETEs of this API take
    their input, in a JSON body."""

    version = inputs.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        help_text="The version you read (from a GET); a deal changed since is not deleted.",
    )


class DealNumberIn(serializers.Serializer[Any]):
    number = inputs.IntegerField(min_value=1, help_text="The deal's place in the match.")


def two_player_fields(raw: Any) -> dict[str, Any]:
    """The game's fields of a two-player deal request (everything but `number`/`version`)."""
    items = raw.items() if hasattr(raw, "items") else []
    return {key: value for key, value in items if key not in ("number", "version")}


class DealCorrectionSerializer(RefusesUnknownFields, serializers.Serializer[Any]):
    """A four-player deal's correction: `version` and the fields to change (docs/api.md)."""

    version = inputs.IntegerField(help_text="The version you are correcting (from a GET).")
    contract = serializers.CharField(max_length=10, required=False)
    declarer = serializers.CharField(
        max_length=2, required=False, allow_blank=True, allow_null=True
    )
    tricks = inputs.IntegerField(required=False, allow_null=True)
    honours = HonoursSerializer(required=False, allow_null=True, help_text="null removes them.")
    move_next_deals = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Director only: when the correction reopens a completed rubber whose next "
        "rubber (in play, same seats) holds deals, move those deals into this rubber.",
    )

    def to_changes(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data.pop("version")
        data.pop("move_next_deals")
        changes: dict[str, Any] = {}
        if "contract" in data:
            changes["contract"] = data["contract"]
        if "declarer" in data:
            changes["declarer"] = data["declarer"] or ""
        if "tricks" in data:
            changes["tricks"] = data["tricks"]
        if "honours" in data:
            honours = data["honours"] or {}
            changes["honours_side"] = honours.get("side") or ""
            changes["honours_points"] = honours.get("points")
        return changes


def _game_field(help_text: str) -> Any:
    """A game's field in a correction: any JSON (the engine checks it); null removes it."""
    return serializers.JSONField(required=False, allow_null=True, help_text=help_text)


class TwoPlayerCorrectionSerializer(RefusesUnknownFields, serializers.Serializer[Any]):
    """A two-player deal's correction: `version` and the game's fields to change, as entered
    (TwoPlayerDealInSerializer); `null` removes an optional one (honours, doubled). The
    game's own rules (RULES 7.x) check the corrected deal and name the field they refuse."""

    version = inputs.IntegerField(help_text="The version you are correcting (from a GET).")
    declarer = _game_field(help_text="0 or 1: the declaring player.")
    strain = _game_field(help_text="C, D, H, S or NT.")
    doubled = _game_field(help_text="0 or 1 (Bridge for Two).")
    declaration = _game_field(help_text="ordinary, eight or misery.")
    contract = _game_field(help_text='Draw and Discard: "4S", "pass".')
    tricks = _game_field(help_text="Tricks won by the declarer; Turnover: [t0, t1].")
    honours = _game_field(help_text="{player: 0|1, points: 100|150}; null removes them.")
    move_next_deals = serializers.BooleanField(
        required=False, default=False, help_text="As for a four-player deal."
    )

    def to_changes(self) -> dict[str, Any]:
        """The game's fields sent, as `Deal.correct` takes them (`{"data": {...}}`)."""
        data = {
            name: value
            for name, value in self.validated_data.items()
            if name not in ("version", "move_next_deals")
        }
        return {"data": data}


class DealSerializer(serializers.ModelSerializer[Deal]):
    honours = serializers.SerializerMethodField()
    entered_by = serializers.SerializerMethodField(
        help_text="The display name of the player who entered the deal (never a login)."
    )
    entered_by_player = serializers.SerializerMethodField(
        help_text="That player's id; null for a director without a player."
    )
    confirmed_by = inputs.IntegerField(source="confirmed_by_id", allow_null=True)
    disputed = serializers.BooleanField(
        help_text="An opponent disputes the deal: a director corrects it or rules it stands."
    )
    ruled = serializers.BooleanField(
        help_text="A director ruled that the disputed deal stands as recorded (settled)."
    )
    dispute_reason = serializers.CharField(
        help_text="What the last dispute was about (contract, declarer, result, honours, "
        "other); empty if the deal was never disputed. Kept once the dispute is settled."
    )
    dispute_note = serializers.CharField(help_text="The disputing player's own words, if any.")
    rubber_id = inputs.IntegerField()

    class Meta:
        model = Deal
        fields = [
            "id",
            "rubber_id",
            "number",
            "version",
            "contract",
            "declarer",
            "tricks",
            "honours",
            "data",
            "entered_by",
            "entered_by_player",
            "entered_at",
            "updated_at",
            "confirmed_by",
            "disputed",
            "ruled",
            "dispute_reason",
            "dispute_note",
        ]

    @extend_schema_field(HonoursSerializer(allow_null=True))
    def get_honours(self, deal: Deal) -> dict[str, Any] | None:
        if not deal.honours_side:
            return None
        return {"side": deal.honours_side, "points": deal.honours_points}

    def _entrant(self, deal: Deal) -> history.Entrant:
        """Who entered the deal, from the context's `entrants` (by login id) if given."""
        if deal.entered_by_id is None:
            return history.NOBODY
        names = self.context.get("entrants")
        if names is None:
            names = history.entrants(deal.rubber.session.club_id, [deal.entered_by_id])
        return history.who(names, deal.entered_by_id)

    @extend_schema_field(OpenApiTypes.STR)
    def get_entered_by(self, deal: Deal) -> str | None:
        return self._entrant(deal).name

    @extend_schema_field(OpenApiTypes.INT)
    def get_entered_by_player(self, deal: Deal) -> int | None:
        return self._entrant(deal).player_id

    def to_representation(self, deal: Deal) -> dict[str, Any]:
        return deal_json(deal, self._entrant(deal))


def deal_json(deal: Deal, entrant: history.Entrant, times: Times | None = None) -> dict[str, Any]:
    """`DealSerializer`'s fields, written out (a test keeps them equal to DRF's generic output):
    a rubber's answer has every deal, and the generic path rebuilt each field from the model per
    deal (docs/benchmarks.md, HTTP). `times` writes its times (`answer_times`, once per answer)."""
    times = answer_times() if times is None else times
    return {
        "id": deal.pk,
        "rubber_id": deal.rubber_id,
        "number": deal.number,
        "version": deal.version,
        "contract": deal.contract,
        "declarer": deal.declarer,
        "tricks": deal.tricks,
        "honours": {"side": deal.honours_side, "points": deal.honours_points}
        if deal.honours_side
        else None,
        "data": deal.data,
        "entered_by": entrant.name,
        "entered_by_player": entrant.player_id,
        "entered_at": times(deal.entered_at),
        "updated_at": times(deal.updated_at),
        "confirmed_by": deal.confirmed_by_id,
        "disputed": deal.disputed,
        "ruled": deal.ruled,
        "dispute_reason": deal.dispute_reason,
        "dispute_note": deal.dispute_note,
    }


class SeatsSerializer(serializers.Serializer[Any]):
    N = inputs.IntegerField()
    E = inputs.IntegerField()
    S = inputs.IntegerField(required=False, help_text="Absent at a table of two.")
    W = inputs.IntegerField(required=False, help_text="Absent at a table of two.")


class MatchPlayerSerializer(serializers.Serializer[Any]):
    id = inputs.IntegerField()
    name = serializers.CharField()


def rubber_entrants(rubber: Rubber, deals: list[Deal]) -> dict[int, history.Entrant]:
    """Who entered the rubber's deals; the seated players (read with it) cost no query."""
    return history.entrants(
        rubber.session.club_id, [d.entered_by_id for d in deals], rubber.seats.values()
    )


class RubberSerializer(serializers.Serializer[Any]):
    """A match with its scoresheet: `scoresheet` is the engine's own JSON for the `kind` of game,
    the same figures as `python -m scoring rubber|chicago|bridge-for-two|misery|turnover|
    draw-discard`, each item with its explanation."""

    id = inputs.IntegerField()
    session = inputs.IntegerField(source="session_id")
    table = inputs.IntegerField(source="table.number")
    number = inputs.IntegerField()
    kind = serializers.CharField(
        help_text="rubber, chicago, bridge_for_two, misery, turnover or draw_discard."
    )
    match_players = serializers.SerializerMethodField(
        help_text="A two-player match: player 0 and player 1 as the engine numbers them."
    )
    seats = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    sitting_out = serializers.ListField(child=inputs.IntegerField())
    status = serializers.ChoiceField(choices=Rubber.Status.choices)
    ended_at = inputs.DateTimeField(
        allow_null=True,
        help_text="When the rubber ended (complete, or closed unfinished); null while in play. "
        "Ratings replay ended rubbers in this order, then by id (docs/ratings.md).",
    )
    scoresheet = serializers.SerializerMethodField()
    deals = serializers.SerializerMethodField()

    @extend_schema_field(MatchPlayerSerializer(many=True, allow_null=True))
    def get_match_players(self, rubber: Rubber) -> list[dict[str, Any]] | None:
        return _match_players(rubber)

    @extend_schema_field(SeatsSerializer)
    def get_seats(self, rubber: Rubber) -> dict[str, int]:
        return rubber.seat_ids

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "string"}})
    def get_players(self, rubber: Rubber) -> dict[str, str]:
        return _players(rubber)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_scoresheet(self, rubber: Rubber) -> dict[str, Any]:
        return _scoresheet(rubber)

    @extend_schema_field(DealSerializer(many=True))
    def get_deals(self, rubber: Rubber) -> list[dict[str, Any]]:
        return _deals(rubber, self.context.get("entrants"), answer_times())

    def to_representation(self, rubber: Rubber) -> dict[str, Any]:
        return rubber_json(rubber, self.context.get("entrants"))


def _match_players(rubber: Rubber) -> list[dict[str, Any]] | None:
    if not pages(rubber.kind).named_players:
        return None
    return [{"id": p.pk, "name": p.name} for p in rubber.players]


def _players(rubber: Rubber) -> dict[str, str]:
    return {seat: player.name for seat, player in rubber.seats.items()}


def _scoresheet(rubber: Rubber) -> dict[str, Any]:
    # Explained in the active language (games/sheets.py), a two-player match's sentences by
    # its players' names, as the pad says them (the players are read with the rubber).
    return rubber.scoresheet().to_dict(names_for(rubber))


def _deals(
    rubber: Rubber, known: dict[int, history.Entrant] | None, times: Times
) -> list[dict[str, Any]]:
    deals = rubber.ordered_deals()
    # Who entered them: given by a deal's answer that already read them (one query fewer).
    entrants = rubber_entrants(rubber, deals) if known is None else known
    return [deal_json(d, history.who(entrants, d.entered_by_id), times) for d in deals]


def rubber_json(
    rubber: Rubber, entrants: dict[int, history.Entrant] | None, times: Times | None = None
) -> dict[str, Any]:
    """`RubberSerializer`'s fields, written out, as `deal_json` (a test keeps them equal);
    `entrants` who entered its deals, if already read."""
    times = answer_times() if times is None else times
    return {
        "id": rubber.pk,
        "session": rubber.session_id,
        "table": rubber.table.number,
        "number": rubber.number,
        "kind": rubber.kind,
        "match_players": _match_players(rubber),
        "seats": rubber.seat_ids,
        "players": _players(rubber),
        "sitting_out": [int(pk) for pk in rubber.sitting_out],
        "status": rubber.status,
        "ended_at": times(rubber.ended_at) if rubber.ended_at else None,
        "scoresheet": _scoresheet(rubber),
        "deals": _deals(rubber, entrants, times),
    }


def written_json(
    deal: Deal, rubber: Rubber, next_rubber: int | None, entrants: dict[int, history.Entrant]
) -> dict[str, Any]:
    """`DealWithRubberSerializer`'s answer without building the serializers: the deal, its
    rubber as written and the next rubber's id (the same JSON; a test compares them)."""
    entrant = history.who(entrants, deal.entered_by_id)
    times = answer_times()
    return {
        **deal_json(deal, entrant, times),
        "rubber": rubber_json(rubber, entrants, times),
        "next_rubber": next_rubber,
    }


class DealWithRubberSerializer(DealSerializer):
    """A deal as written: the deal, the updated rubber and, when the deal ended the rubber, the
    next rubber's id (already seated by the rotation)."""

    rubber = serializers.SerializerMethodField()
    next_rubber = serializers.SerializerMethodField()

    class Meta(DealSerializer.Meta):
        fields = [*DealSerializer.Meta.fields, "rubber", "next_rubber"]

    @extend_schema_field(RubberSerializer)
    def get_rubber(self, deal: Deal) -> dict[str, Any]:
        rubber = self.context["rubber"]
        return RubberSerializer(rubber, context={"entrants": self.context.get("entrants")}).data

    @extend_schema_field(OpenApiTypes.INT)
    def get_next_rubber(self, deal: Deal) -> int | None:
        return self.context.get("next_rubber")

    def to_representation(self, deal: Deal) -> dict[str, Any]:
        if "entrants" not in self.context:
            rubber = self.context["rubber"]
            self.context["entrants"] = rubber_entrants(rubber, rubber.ordered_deals())
        data = super().to_representation(deal)
        data["rubber"] = self.get_rubber(deal)
        data["next_rubber"] = self.get_next_rubber(deal)
        return data


class HistoryEntrySerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=sorted(history.KINDS.values()))
    reason = serializers.CharField()
    why = serializers.CharField(
        help_text='What a dispute says is wrong ("the honours: “we had none”"); empty otherwise.'
    )
    user = serializers.CharField(
        allow_null=True, help_text="The display name of who made the change (never a login)."
    )
    player = inputs.IntegerField(
        allow_null=True, help_text="Their player id; null for a director without a player."
    )
    code_phone = serializers.CharField(
        help_text="A change from a phone holding the table's code, as the deal list names it: "
        'the player in its seat, then the code and seat ("Ann Bell, table 3 (code), seat N"); '
        "empty otherwise."
    )
    at = inputs.DateTimeField()
    before = serializers.DictField(allow_null=True)
    after = serializers.DictField()
    changes = serializers.ListField(child=serializers.DictField())


class DetailSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


class ErrorsSerializer(serializers.Serializer[Any]):
    # Documents the error body for the schema only; never validated, so shadowing
    # Serializer.errors is harmless (as clubs.serializers.ErrorsOut).
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField())
    )


class SessionDealOut(serializers.Serializer[Any]):
    table = inputs.IntegerField()
    rubber = inputs.IntegerField(help_text="The rubber's id.")
    rubber_number = inputs.IntegerField(help_text="The rubber's number at its table.")
    kind = serializers.CharField()
    number = inputs.IntegerField(help_text="The deal's number in its rubber.")
    contract = serializers.CharField(help_text='As entered: "4S", "3NTX", "pass".')
    contract_display = serializers.CharField(
        help_text='As players read it in the language asked for: "4♠", "3SAX" in Italian.'
    )
    declarer = serializers.JSONField(allow_null=True)
    tricks = serializers.JSONField(allow_null=True)
    result = serializers.CharField()
    summary = serializers.CharField()
    honours_side = serializers.CharField(allow_null=True)
    honours_points = inputs.IntegerField(allow_null=True)
    total_0 = inputs.IntegerField(help_text="NS's (or the first player's) running total.")
    total_1 = inputs.IntegerField(help_text="EW's (or the second player's) running total.")
    side_0 = serializers.CharField(
        help_text='Who plays for `total_0`: "North & South" by name, or the first player.'
    )
    side_1 = serializers.CharField(
        help_text='Who plays for `total_1`: "East & West" by name, or the second player.'
    )
    entered_by = serializers.CharField(
        help_text="Who entered the deal, as the deal list names them: a player, "
        '"Director", or a phone holding the table\'s code, named by the player in its seat ("Ann '
        'Bell, table 1 (code), seat S"); empty when unknown (a login since deleted).'
    )
    confirmed_by = serializers.CharField(
        help_text="The opponent who confirmed it (Session.asks_confirmation); empty if none."
    )


class SessionDealsOut(serializers.Serializer[Any]):
    session = inputs.IntegerField()
    deals = SessionDealOut(many=True)


class ConfirmAllOut(serializers.Serializer[Any]):
    confirmed = inputs.IntegerField(help_text="How many deals this confirmed.")
    deals = DealSerializer(many=True, help_text="The deals sent, as they now stand.")
