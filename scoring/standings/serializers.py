"""Input and output serializers of the standings API (API.md: Standings)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from scoring.shared import inputs

from .ratings import POOLS


def choose_one_of(choices: Any) -> str:
    """A refusal of a value not among `choices` that lists them: never the value sent, which a
    query string can make anything, of any length (an answer must not reflect it)."""
    return _("Choose one of: %(choices)s.") % {"choices": ", ".join(choices)}


class ListedChoiceField(serializers.ChoiceField):
    """A `ChoiceField` whose refusal names the valid values (`choose_one_of`), not the one sent."""

    def fail(self, key: str, **kwargs: Any) -> Any:
        if key == "invalid_choice":
            raise serializers.ValidationError(
                choose_one_of(self.choice_strings_to_values), code=key
            )
        return super().fail(key, **kwargs)


class LeaderboardQueryIn(serializers.Serializer[Any]):
    """`?from=YYYY-MM-DD&to=YYYY-MM-DD`, both optional (all time without them), and the ladder:
    `?kind=bridge` (the default: rubber and Chicago) or a two-player game kind."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # `from` is a Python keyword, so the fields are named here rather than as attributes.
        return {
            "from": inputs.DateField(required=False, allow_null=True),
            "to": inputs.DateField(required=False, allow_null=True),
            "kind": ListedChoiceField(choices=list(POOLS), required=False, default="bridge"),
        }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("from"), attrs.get("to")
        if start and end and start > end:
            raise serializers.ValidationError({"to": [_("The end date is before the start date.")]})
        return attrs


class RunningOut(serializers.Serializer[Any]):
    points = inputs.IntegerField(help_text="The side's running total in the rubber in play.")
    hundreds = inputs.IntegerField()


class StandingPlayerOut(serializers.Serializer[Any]):
    player = inputs.IntegerField()
    name = serializers.CharField()
    rank = inputs.IntegerField(
        allow_null=True,
        help_text="Place in the room (RULES 6.3): equal figures share it and the next is "
        "skipped (1, 2, 2, 4); null for a player who played no deal, listed last, unranked.",
    )
    place_shared = serializers.BooleanField(
        help_text="The place is shared with another player (RULES 6.3)."
    )
    place = serializers.CharField(
        allow_null=True,
        help_text='The place as written: "2", or "=2" when shared (RULES 6.3); null unranked.',
    )
    left_early = serializers.BooleanField(
        help_text="Left the session early (their seat given up): ranked by what they played "
        "(RULES 6.3)."
    )
    table = inputs.IntegerField(allow_null=True)
    table_rank = inputs.IntegerField(allow_null=True)
    table_place = serializers.CharField(
        allow_null=True, help_text='The place at the table, "=1" when shared.'
    )
    rubbers = inputs.IntegerField(help_text="Rubbers ended (complete or unfinished).")
    won = inputs.IntegerField(help_text="Rubbers won on points (RULES 2.5).")
    lost = inputs.IntegerField(help_text="Rubbers (or two-player matches) lost.")
    tied = inputs.IntegerField(help_text="Ended with equal totals (RULES 8.3, 7.3).")
    points = inputs.IntegerField(help_text="Gross points: the side's totals added up.")
    net = inputs.IntegerField(help_text="Net points: the margins added up.")
    hundreds = inputs.IntegerField(help_text="Back score in hundreds (RULES 4.1).")
    money = inputs.DecimalField(max_digits=12, decimal_places=2)
    running = RunningOut(
        allow_null=True, help_text="The rubber in play (provisional, not counted yet)."
    )


class TableStandingOut(serializers.Serializer[Any]):
    number = inputs.IntegerField()
    winner = inputs.IntegerField(
        allow_null=True,
        help_text="The table's prize winner; null before a rubber ends, and while the first "
        "place is shared (a cut decides, RULES 6.3).",
    )
    winners = serializers.ListField(
        child=inputs.IntegerField(),
        help_text="Every player holding the table's first place (more than one: shared).",
    )
    players = StandingPlayerOut(many=True)


class PrizeOut(serializers.Serializer[Any]):
    choice = inputs.IntegerField(
        help_text="1 chooses first (RULES 6.3); equal winners share a choice, the next skipped."
    )
    place = serializers.CharField(help_text='The choice as written: "2", or "=2" when shared.')
    shared = serializers.BooleanField(
        help_text="The choice is shared (a tie at the top of the table, or between tables' "
        "winners): a cut decides who chooses first (RULES 6.3)."
    )
    cut = serializers.ChoiceField(
        choices=["won", "lost", "undecided"],
        allow_null=True,
        help_text="For a shared choice, what the cuts the director recorded made of this "
        "winner: `won` (chooses before those cut against), `lost`, or `undecided` (no cut "
        "yet; listed by id). Null when the choice is not shared. The list is in the order the "
        "prizes are chosen.",
    )
    table = inputs.IntegerField()
    player = inputs.IntegerField()
    name = serializers.CharField()


class PrizeCutIn(inputs.RefusesUnknownFields, serializers.Serializer[Any]):
    """The cut for a shared prize choice (RULES 6.3): who won it."""

    winner = inputs.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        help_text="The player who won the cut among those sharing their choice.",
    )
    again = serializers.BooleanField(
        default=False,
        help_text="Record the cut among all who share the winner's choice again (a slip "
        "corrected): it replaces the one recorded, which stays in the session's history.",
    )


class PrizesOut(serializers.Serializer[Any]):
    prizes = PrizeOut(many=True, help_text="The prizes in the order they are chosen.")


class FreshnessOut(serializers.Serializer[Any]):
    computed_at = inputs.DateTimeField(allow_null=True)
    stale = serializers.BooleanField(help_text="True while a refresh is pending.")


class SessionStandingsOut(FreshnessOut):
    session = inputs.IntegerField()
    ranking = serializers.ChoiceField(choices=["net", "gross"], help_text="RULES 4.3")
    stake_per_hundred = inputs.DecimalField(max_digits=8, decimal_places=2)
    players = StandingPlayerOut(many=True)
    tables = TableStandingOut(many=True)
    prizes = PrizeOut(many=True)


class PaymentOut(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": inputs.IntegerField(help_text="The paying player's id."),
            "from_name": serializers.CharField(),
            "to": inputs.IntegerField(help_text="The paid player's id."),
            "to_name": serializers.CharField(),
            "amount": inputs.DecimalField(max_digits=12, decimal_places=2),
        }


class SettlementOut(FreshnessOut):
    session = inputs.IntegerField()
    stake_per_hundred = inputs.DecimalField(max_digits=8, decimal_places=2)
    payments = PaymentOut(many=True)


class LeaderboardPlayerOut(serializers.Serializer[Any]):
    player = inputs.IntegerField()
    name = serializers.CharField()
    rank = inputs.IntegerField(help_text="Equal figures share a rank (1, 2, 2, 4).")
    place_shared = serializers.BooleanField(help_text="The rank is shared with another player.")
    place = serializers.CharField(help_text='The rank as written: "2", or "=2" when shared.')
    sessions = inputs.IntegerField()
    rubbers = inputs.IntegerField()
    won = inputs.IntegerField()
    lost = inputs.IntegerField()
    tied = inputs.IntegerField()
    hundreds = inputs.IntegerField()
    net = inputs.IntegerField()
    money = inputs.DecimalField(max_digits=14, decimal_places=2)


class LeaderboardOut(FreshnessOut):
    club = serializers.CharField()
    kind = serializers.CharField(
        help_text="The ladder: bridge (rubber and Chicago) or a two-player game kind."
    )
    players = LeaderboardPlayerOut(many=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = inputs.DateField(allow_null=True)
        fields["to"] = inputs.DateField(allow_null=True)
        return fields


class RatingsQueryIn(serializers.Serializer[Any]):
    """`?pool=bridge` (the default) or a two-player game kind."""

    pool = ListedChoiceField(
        choices=list(POOLS),
        required=False,
        default="bridge",
        help_text="bridge (rubber and Chicago), or a two-player game: "
        "bridge_for_two, misery, turnover, draw_discard.",
    )


class RatingOut(serializers.Serializer[Any]):
    player = inputs.IntegerField()
    name = serializers.CharField()
    mu = inputs.FloatField(help_text="The model's estimate of the player's skill (unrounded).")
    sigma = inputs.FloatField(help_text="Its uncertainty (unrounded).")
    ordinal = inputs.FloatField(help_text="mu - 3 sigma: the rating shown, highest first.")
    matches = inputs.IntegerField(help_text="Rated matches played.")
    won = inputs.IntegerField()
    lost = inputs.IntegerField()
    drawn = inputs.IntegerField(help_text="Matches with equal totals.")


class RatingsOut(FreshnessOut):
    pool = serializers.CharField()
    ratings = RatingOut(many=True)
