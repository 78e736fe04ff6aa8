"""The season accounts' pages (RULES 4.4): the club's balances, a player's statement, and the
director's payment form; and a night's one-page results sheet.

Money is its club's members' only (``clubs.policy.may_read_money``): to anyone else the accounts'
pages answer exactly like a missing club or player. The results sheet is read like the standings
(``clubs.policy.may_read``): the night's settlement is on those already."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from clubs.models import Club, Player
from clubs.permissions import signed_in_user
from clubs.policy import may_direct
from clubs.selectors import club_for_member, player_for_member, session_for_reader
from games.permissions import Actor
from scoring.shared import inputs

from . import accounts, queries
from .ledger import AccountEntry


class PaymentForm(forms.Form):
    """A payment in or out of a player's account; the amount is positive (RULES 4.4)."""

    player = inputs.ModelChoiceFormField(label=_("Player"), queryset=Player.objects.none())
    kind = forms.ChoiceField(
        label=_("Payment"),
        choices=[
            (AccountEntry.Kind.PAID_IN, _("Paid in by the player")),
            (AccountEntry.Kind.PAID_OUT, _("Paid out to the player")),
        ],
    )
    amount = inputs.DecimalFormField(
        label=_("Amount"),
        max_digits=12,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=accounts.MAX_PAYMENT,
        widget=forms.NumberInput(attrs={"step": "0.01", "min": "0.01", "inputmode": "decimal"}),
    )
    date = inputs.DateFormField(
        label=_("Date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(club=club).order_by("name")  # type: ignore[attr-defined]
        self.club = club

    def clean_date(self) -> Any:
        day = self.cleaned_data.get("date")
        refusal = day and accounts.payment_date_refusal(self.club, day)
        if refusal:
            raise forms.ValidationError(refusal)
        return day


@require_GET
def club_accounts(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's balance list: every player's nights, payments and balance, and the cash in
    hand they sum to."""
    club = club_for_member(request.user, slug)
    return render(
        request,
        "scoring/accounts.html",
        {**accounts.club_balances(club), "director": may_direct(club.role_of(request.user))},
    )


@require_GET
def player_statement(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's statement: each night's posting, each correction and payment, the running
    balance."""
    player = player_for_member(request.user, pk)
    return render(
        request,
        "scoring/statement.html",
        {**accounts.player_statement(player), "club": player.club},
    )


@require_http_methods(["GET", "POST"])
def payment_new(request: HttpRequest, slug: str) -> HttpResponse:
    """The director records a payment; bad input answers the form with its errors (400)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club = club_for_member(request.user, slug, director=True)
    user = signed_in_user(request)
    if request.method == "GET":
        form = PaymentForm(club=club, initial={"date": timezone.localdate()})
        return render(request, "scoring/payment_form.html", {"club": club, "form": form})
    form = PaymentForm(request.POST, club=club)
    if not form.is_valid():
        return render(
            request, "scoring/payment_form.html", {"club": club, "form": form}, status=400
        )
    data = form.cleaned_data
    accounts.payment_record(
        actor=Actor.in_club(user, club),
        player=data["player"],
        kind=data["kind"],
        amount=data["amount"],
        date=data["date"],
        note=data["note"],
        by=user,
    )
    messages.success(request, gettext("Payment recorded."))
    return redirect("scoring:club-accounts", club.slug)


@require_GET
def results_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """A night's results on one page (standings, prizes, settlement), to print and pin to the
    board: its print CSS keeps up to six tables on one A4 sheet."""
    session = session_for_reader(request.user, pk)
    return render(
        request,
        "scoring/results_sheet.html",
        {
            "session": session,
            "data": queries.session_standings(session),
            "settlement": queries.session_settlement(session),
        },
    )
