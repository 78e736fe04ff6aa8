"""Input and output serializers for rubbers and deals (API.md: Rubbers and deals).

Inputs only check shapes (a number is a number); the bridge rules are the scoring engine's,
applied by the model methods, so an impossible result is refused with the rule it breaks.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from . import history
from .models import Deal, Rubber


class HonoursSerializer(serializers.Serializer):
    side = serializers.CharField(help_text="NS or EW: the side holding the honours.")
    points = serializers.IntegerField(help_text="100 (four honours) or 150 (five, or four aces).")


class DealInSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, help_text="The deal's place in the rubber.")
    contract = serializers.CharField(max_length=10, help_text='"4S", "3NTX", "2HXX" or "pass"')
    declarer = serializers.CharField(
        max_length=2, required=False, allow_blank=True, allow_null=True, help_text="N, E, S or W"
    )
    tricks = serializers.IntegerField(
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


class DealCorrectionSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The version you are correcting (from a GET).")
    contract = serializers.CharField(max_length=10, required=False)
    declarer = serializers.CharField(
        max_length=2, required=False, allow_blank=True, allow_null=True
    )
    tricks = serializers.IntegerField(required=False, allow_null=True)
    honours = HonoursSerializer(required=False, allow_null=True, help_text="null removes them.")

    def to_changes(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data.pop("version")
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


class DealSerializer(serializers.ModelSerializer):
    honours = serializers.SerializerMethodField()
    entered_by = serializers.SerializerMethodField()
    confirmed_by = serializers.IntegerField(source="confirmed_by_id", allow_null=True)
    rubber_id = serializers.IntegerField()

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
            "entered_by",
            "entered_at",
            "updated_at",
            "confirmed_by",
        ]

    @extend_schema_field(HonoursSerializer(allow_null=True))
    def get_honours(self, deal: Deal) -> dict[str, Any] | None:
        if not deal.honours_side:
            return None
        return {"side": deal.honours_side, "points": deal.honours_points}

    @extend_schema_field(OpenApiTypes.STR)
    def get_entered_by(self, deal: Deal) -> str | None:
        return None if deal.entered_by is None else deal.entered_by.get_username()


class SeatsSerializer(serializers.Serializer):
    N = serializers.IntegerField()
    E = serializers.IntegerField()
    S = serializers.IntegerField()
    W = serializers.IntegerField()


class RubberSerializer(serializers.Serializer):
    """A rubber with its scoresheet: `scoresheet` is the engine's RubberScore.to_dict(), the same
    figures as `python -m scoring rubber`, each item with its explanation."""

    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id")
    table = serializers.IntegerField(source="table.number")
    number = serializers.IntegerField()
    seats = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    sitting_out = serializers.ListField(child=serializers.IntegerField())
    status = serializers.ChoiceField(choices=Rubber.Status.choices)
    scoresheet = serializers.SerializerMethodField()
    deals = serializers.SerializerMethodField()

    @extend_schema_field(SeatsSerializer)
    def get_seats(self, rubber: Rubber) -> dict[str, int]:
        return rubber.seat_ids

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "string"}})
    def get_players(self, rubber: Rubber) -> dict[str, str]:
        return {seat: player.name for seat, player in rubber.seats.items()}

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_scoresheet(self, rubber: Rubber) -> dict[str, Any]:
        return rubber.scoresheet().to_dict()

    @extend_schema_field(DealSerializer(many=True))
    def get_deals(self, rubber: Rubber) -> list[dict[str, Any]]:
        return DealSerializer(rubber.ordered_deals(), many=True).data


class DealWithRubberSerializer(DealSerializer):
    """A deal as written: the deal, the updated rubber and, when the deal ended the rubber, the
    next rubber's id (already seated by the rotation)."""

    rubber = serializers.SerializerMethodField()
    next_rubber = serializers.SerializerMethodField()

    class Meta(DealSerializer.Meta):
        fields = [*DealSerializer.Meta.fields, "rubber", "next_rubber"]

    @extend_schema_field(RubberSerializer)
    def get_rubber(self, deal: Deal) -> dict[str, Any]:
        return RubberSerializer(self.context["rubber"]).data

    @extend_schema_field(OpenApiTypes.INT)
    def get_next_rubber(self, deal: Deal) -> int | None:
        return self.context.get("next_rubber")


class HistoryEntrySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=sorted(history.KINDS.values()))
    reason = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()
    before = serializers.DictField(allow_null=True)
    after = serializers.DictField()
    changes = serializers.ListField(child=serializers.DictField())


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class ErrorsSerializer(serializers.Serializer):
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
