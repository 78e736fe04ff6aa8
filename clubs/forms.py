"""Forms of the club pages: they validate input; the services write."""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.rules.games import GAMES
from scoring.shared import inputs

from .logins import normalize_login
from .models import Club, Player, Session
from .rules_text import preset_choices

#: Slugs that would hide a page under /clubs/.
RESERVED_SLUGS = frozenset({"new"})


def refuse_a_bare_number(name: str) -> None:
    """A new player's name, on every page and in the API (issue 31): a bare number is refused.
    Typed where a name goes it is a slip (a player's number, a table's), never someone the club
    would call by it."""
    if name.strip().isdigit():
        raise ValidationError(_("A new player's name is a name, not a number."), code="number")


#: Characters that turn the text around them (embeddings, overrides, isolates): in a name, a
#: way to make "exe.png" read "gnp.exe", never a name's own.
_DIRECTION_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def _unreadable(char: str) -> bool:
    """A control character, half a surrogate pair, a direction control or a noncharacter."""
    point = ord(char)
    return (
        unicodedata.category(char) in ("Cc", "Cs")
        or char in _DIRECTION_CONTROLS
        or 0xFDD0 <= point <= 0xFDEF
        or point & 0xFFFE == 0xFFFE
    )


def _invisible(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) == "Cf"


def refuse_unreadable(name: str) -> None:
    """A new player's name, on every page and in the API: no control characters (a newline, a
    tab, U+0001), no direction controls, no noncharacters, and something visible (not only
    spaces and invisible joiners). Joiners inside a name stay: Persian names and emoji need
    them. Found by an outside probe: such names were stored and shown as they came."""
    if name and (any(map(_unreadable, name)) or all(map(_invisible, name))):
        raise ValidationError(
            _(
                "A name is made of characters one can read: no control, direction or invisible "
                "characters."
            ),
            code="unreadable",
        )


#: The rules of a new player's name (issue 31: one rule for all, pages and API).
NAME_RULES = [refuse_a_bare_number, refuse_unreadable]


class PlayersField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """Players by id; an id beyond the database's integers is the field's "not a valid value"
    error, not an OverflowError from the database (SQLite) when the choices are looked up."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            inputs.refuse_other_digits(pk)
            try:
                number = int(str(pk))
            except ValueError:
                continue  # Django's own check names it
            if not -(2**63) <= number < 2**63:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)  # type: ignore[misc]


class ClubSettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    """The club settings a director changes (issue 18); the house rules by their names, and the
    defaults of new sessions: opponent confirmation and table codes (the console turns either on
    or off for a running session)."""

    rules_preset = forms.ChoiceField(label=_("House rules"), choices=preset_choices)
    default_stake = inputs.DecimalFormField(
        label=_("Default stake per hundred"),
        max_digits=8,
        decimal_places=2,
        min_value=Decimal("0"),
    )
    currency = forms.RegexField(
        label=_("Currency"),
        regex=r"^[A-Za-z]{3}$",
        error_messages={"invalid": _("Three letters, such as EUR or GBP.")},
    )

    class Meta:
        model = Club
        fields = [
            "name",
            "public",
            "rules_preset",
            "default_stake",
            "currency",
            "language",
            "confirm_entries",
            "table_codes",
        ]
        labels = {
            "name": _("Name"),
            "public": _("Public: anyone may read the sessions and leaderboard"),
            "language": _("Language"),
            "confirm_entries": _("Opponent confirmation: the other side confirms each deal"),
            "table_codes": _("Table codes: phones open their table by its code, with no account"),
        }

    def clean_currency(self) -> str:
        return str(self.cleaned_data["currency"]).upper()


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Web address"),
        max_length=50,
        # A form renders its help text as HTML: the placeholder is text, not a tag.
        help_text=escape(_("Letters, digits and hyphens: /clubs/<address>/")),
    )
    public = forms.BooleanField(
        label=_("Public: anyone may read the sessions and leaderboard"),
        required=False,
        initial=True,
    )
    rules_preset = forms.ChoiceField(
        label=_("House rules"),
        choices=preset_choices,
        initial="acbl",
        help_text=_("A club's directors can change them later on the club's settings page."),
    )
    default_stake = inputs.DecimalFormField(
        label=_("Default stake per hundred"),
        max_digits=8,
        decimal_places=2,
        min_value=Decimal("0"),
        initial=Decimal("0.00"),
    )
    currency = forms.CharField(label=_("Currency"), min_length=3, max_length=3, initial="EUR")
    language = forms.ChoiceField(
        label=_("Language"),
        choices=Club.Language.choices,
        required=False,
        help_text=_("The language of the club's pages, unless a visitor chooses another."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = self._current_language()

    @staticmethod
    def _current_language() -> str:
        language = (get_language() or "")[:2]
        return language if language in Club.Language.values else Club.Language.EN

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"].lower()
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("This address is reserved; choose another."))
        if Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("A club with this address already exists."))
        return slug

    def clean_language(self) -> str:
        return str(self.cleaned_data.get("language") or self._current_language())

    def clean_currency(self) -> str:
        return str(self.cleaned_data["currency"]).upper()


class LoginNameField(forms.RegexField):
    """A username as Django's sign-in page reads it: NFKC-normalised (`normalize_login`) before
    the pattern and length are checked, so "ＡＢＣ" is created as "ABC" and signs in."""

    def to_python(self, value: Any) -> str:
        return normalize_login(str(super().to_python(value)))


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, validators=NAME_RULES)
    username = LoginNameField(
        label=_("Login (optional)"),
        regex=r"^[\w.@+-]+\Z",
        max_length=150,
        required=False,
        help_text=_(
            "With a password: a new login, so the player can enter their own results. "
            "Without one: an existing login, whose holder is invited."
        ),
    )
    password = forms.CharField(
        label=_("Password for the new login"),
        required=False,
        widget=forms.PasswordInput(render_value=False),
        max_length=128,
    )
    director = forms.BooleanField(label=_("Make this login a director"), required=False)
    email = forms.EmailField(
        label=_("E-mail address for results (optional)"),
        required=False,
        max_length=254,
        help_text=_("Each night's results are mailed here; no login is needed."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("director") and not data.get("username"):
            self.add_error("director", _("A director needs a login: give a username."))
        if data.get("password") and not data.get("username"):
            self.add_error("password", _("A password needs a username to go with it."))
        return data


class PlayerLanguageForm(forms.Form):
    """The language a player is written to, and their pages speak when they are signed in
    (docs/i18n.md); blank: the club's."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("The club's language")), *Club.Language.choices],
    )


class PlayerEmailForm(forms.Form):
    """The address a player's results are mailed to after each night; blank: none."""

    email = forms.EmailField(label=_("E-mail address"), required=False, max_length=254)


class KindSelect(forms.Select):
    """The game's select; each option says its game's seats (`data-seats`, from the engine's
    registry), so the page hides the movement for a two-player game: its tables of two have
    none of the rubber movements (Pivot, Fixed partners, Cut-in)."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if (entry := GAMES.get(str(value))) is not None:
            option["attrs"]["data-seats"] = entry.seats
        return option


class SessionForm(forms.Form):
    """Tonight's session: pick who is here; the tables are suggested from the count."""

    date = inputs.DateFormField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    kind = forms.ChoiceField(label=_("Game"), choices=Session.Kind.choices, widget=KindSelect)
    movement = forms.ChoiceField(label=_("Movement"), choices=Session.Movement.choices)
    stake_per_hundred = inputs.DecimalFormField(
        label=_("Stake per hundred"), max_digits=8, decimal_places=2, min_value=Decimal("0")
    )
    players = PlayersField(
        label=_("Tonight's players"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "date": timezone.localdate(),
                "kind": Session.Kind.RUBBER,
                "movement": Session.Movement.PIVOT,
                "stake_per_hundred": club.default_stake,
            },
        )
        super().__init__(*args, **kwargs)
        self.club = club
        players = cast("forms.ModelMultipleChoiceField[Player]", self.fields["players"])
        players.queryset = Player.objects.filter(club=club).order_by("name")


class TablePlayerForm(forms.Form):
    player = inputs.ModelChoiceFormField(label=_("Player"), queryset=Player.objects.none())

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = cast(inputs.ModelChoiceFormField, self.fields["player"])
        player.queryset = Player.objects.filter(club=club).order_by("name")


def _free_players(session: Session) -> Any:
    """The club's players who sit at no table of this session now (the service checks the
    other running sessions, and answers naming them)."""
    seated = session.table_seats.filter(active=True).values("player_id")
    return Player.objects.filter(club=session.club).exclude(pk__in=seated).order_by("name")


class LeaverForm(forms.Form):
    """An early leaver at a table (issue 18): a substitute (a player of the club, or a new name),
    or the table's rubber closed unfinished and the room re-planned (the button pressed)."""

    leaver = inputs.ModelChoiceFormField(label=_("Who leaves"), queryset=Player.objects.none())
    substitute = inputs.ModelChoiceFormField(
        label=_("Substitute"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(
        label=_("or a new player"),
        max_length=80,
        required=False,
        validators=NAME_RULES,
    )

    def __init__(self, *args: Any, table: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        leaver = cast(inputs.ModelChoiceFormField, self.fields["leaver"])
        leaver.queryset = Player.objects.filter(
            table_seats__table=table, table_seats__active=True
        ).order_by("table_seats__position")
        substitute = cast(inputs.ModelChoiceFormField, self.fields["substitute"])
        substitute.queryset = _free_players(table.session)
        # Changing who leaves brings that player's consequences into the page (issue 31): the
        # explanations are swapped in from the page for `?leaver=` (`hx-get`, the view's page),
        # the inputs kept as typed.
        self.fields["leaver"].widget.attrs.update(
            {
                "hx-trigger": "change",
                "hx-target": "#leaver-shown",
                "hx-select": "#leaver-shown",
                "hx-swap": "outerHTML",
                "hx-select-oob": ("#consequence-after-rubber,#consequence-substitute,#replan-plan"),
                "hx-replace-url": "true",
            }
        )
        substitute.empty_label = _("— choose —")


ARRIVAL_MODES = [
    ("", _("As suggested")),
    ("table", _("A new table")),
    ("cut_in", _("Cut in at a table")),
]


class ArrivalsForm(forms.Form):
    """Late arrivals at a running session (issue 18): players of the club and new names, at a
    new table or cutting in."""

    players = PlayersField(
        label=_("Players who arrived"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    names = forms.CharField(
        label=_("New players (one name a line)"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=1000,
        required=False,
    )
    mode = forms.ChoiceField(label=_("Seat them"), choices=ARRIVAL_MODES, required=False)
    table = forms.TypedChoiceField(
        label=_("Table (for a cut-in)"), coerce=int, required=False, empty_value=None
    )

    def __init__(
        self, *args: Any, session: Session, table_number: int | None = None, **kwargs: Any
    ) -> None:
        """`table_number`: the arrivals page opened from a table (the room's tile), which
        the form offers to cut in at first."""
        super().__init__(*args, **kwargs)
        players = cast("forms.ModelMultipleChoiceField[Player]", self.fields["players"])
        players.queryset = _free_players(session)
        table = cast("forms.TypedChoiceField", self.fields["table"])
        table.choices = [("", _("the smallest tables"))] + [
            (str(n), str(n))
            for n in session.tables.order_by("number").values_list("number", flat=True)
        ]
        if table_number is not None:
            self.initial.update(mode="cut_in", table=str(table_number))

    def clean_names(self) -> list[str]:
        """One name a line. A bare number is refused: typed in a box of names it is a slip (a
        player's number, a table's), never someone the club would call by it (the API, whose
        names are JSON strings, refuses it too: `refuse_a_bare_number`)."""
        text = self.cleaned_data.get("names") or ""
        names = [line.strip() for line in text.splitlines() if line.strip()]
        if any(name.isdigit() for name in names):  # `refuse_a_bare_number`, with the page's hint
            raise forms.ValidationError(
                _(
                    "A new player's name is a name, not a number: tick the players of the club "
                    "above, or type their names."
                ),
                code="number",
            )
        for name in names:
            refuse_unreadable(name)
        return names
