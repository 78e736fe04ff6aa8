"""REST API v1: the season accounts (RULES 4.4; docs/api.md, "Season accounts").

The balance list and a player's statement (JSON, or CSV with `?format=csv`: UTF-8 with a byte
order mark, amounts with a plain "-"), and the director's payment. Money is its club's members'
only (``clubs.policy.may_read_money``): to anyone else, a public club's included, these answer
404 exactly as a missing club or player does. A payment is a director's (403 for another
member, ``games.permissions.check_record_payment``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Player
from clubs.permissions import signed_in_user
from clubs.selectors import club_for_member, player_for_member
from clubs.serializers import DetailOut, ErrorsOut
from games.permissions import Actor
from scoring.shared import inputs
from scoring.shared.renderers import BalancesCSV, StatementCSV, with_csv

from . import accounts
from .ledger import PAYMENT_KINDS, AccountEntry

TAGS = ["accounts"]
E404 = OpenApiResponse(
    DetailOut,
    description="No such club or player, or the user is not a member of its club.",
)


def _money(help_text: str = "") -> inputs.DecimalField:
    """An amount of money in an answer (two decimals; as the standings' ``money``)."""
    return inputs.DecimalField(max_digits=14, decimal_places=2, help_text=help_text)


class BalanceOut(serializers.Serializer[Any]):
    player = inputs.IntegerField(source="player_id")
    name = serializers.CharField()
    nights = _money("The nights' postings and reversals.")
    paid_in = _money()
    paid_out = _money()
    balance = _money("nights + paid_in - paid_out: + the club owes the player.")


class AccountsOut(serializers.Serializer[Any]):
    club = serializers.CharField(source="club.slug")
    currency = serializers.CharField(source="club.currency")
    cash_in_hand = _money("Paid in - paid out, every player.")
    total = _money("The balances' sum: the cash in hand.")
    balances = BalanceOut(many=True)


class StatementLineOut(serializers.Serializer[Any]):
    date = inputs.DateField()
    kind = serializers.ChoiceField(choices=AccountEntry.Kind.choices)
    session = inputs.IntegerField(source="session_id", allow_null=True)
    amount = _money("The line's effect on the balance.")
    balance = _money("The running balance after the line.")
    note = serializers.CharField(allow_blank=True)


class StatementOut(serializers.Serializer[Any]):
    player = inputs.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    currency = serializers.CharField(source="player.club.currency")
    balance = _money()
    lines = StatementLineOut(many=True)


class PaymentIn(inputs.RefusesUnknownFields, serializers.Serializer[Any]):
    player = inputs.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=PAYMENT_KINDS)
    amount = inputs.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=accounts.MAX_PAYMENT,
    )
    date = inputs.DateField(required=False)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class AccountPaymentOut(serializers.Serializer[Any]):
    id = inputs.IntegerField(source="pk")
    player = inputs.IntegerField(source="player_id")
    kind = serializers.ChoiceField(choices=PAYMENT_KINDS)
    amount = _money("The effect on the balance (out: negative).")
    date = inputs.DateField()
    note = serializers.CharField(allow_blank=True)


class ClubAccountsView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(BalancesCSV)

    @extend_schema(
        tags=TAGS,
        summary="The club's balance list and cash in hand (members only, RULES 4.4)",
        responses={200: AccountsOut, 404: E404},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = club_for_member(request.user, slug)
        return Response(AccountsOut(accounts.club_balances(club)).data)


class PaymentsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Record a payment in by or out to a player (the club's directors)",
        request=PaymentIn,
        responses={
            201: AccountPaymentOut,
            400: OpenApiResponse(ErrorsOut, description="`{errors: {field: [messages]}}`."),
            401: DetailOut,
            403: DetailOut,
            404: E404,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        user = signed_in_user(request)
        club = club_for_member(user, slug, director=True)
        data = PaymentIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        refusal = values.get("date") and accounts.payment_date_refusal(club, values["date"])
        if refusal:
            raise serializers.ValidationError({"date": [refusal]})
        player = Player.objects.filter(club=club, pk=values["player"]).first()
        if player is None:
            raise serializers.ValidationError(
                {"player": [gettext("No player of this club has this id.")]}
            )
        entry = accounts.payment_record(
            actor=Actor.in_club(user, club),
            player=player,
            kind=values["kind"],
            amount=values["amount"],
            date=values.get("date"),
            note=values["note"],
            by=user,
        )
        return Response(AccountPaymentOut(entry).data, status=status.HTTP_201_CREATED)


class PlayerStatementView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(StatementCSV)

    @extend_schema(
        tags=TAGS,
        summary="A player's statement: every line and the running balance (members only)",
        responses={200: StatementOut, 404: E404},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = player_for_member(request.user, pk)
        return Response(StatementOut(accounts.player_statement(player)).data)
