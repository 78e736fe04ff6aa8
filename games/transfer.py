"""Export a club to JSON and import it back, exactly (docs/operations.md: "Moving a club").

The document names rows by natural keys, never by database ids: logins by username, players
by name (unique in a club), sessions by their place in the export, tables by number, rubbers by
(table, number), deals by (rubber, number). Every plain column of every row is copied by the
model's own field list, so a column added later travels without a change here; a relation
this module does not know stops the export with an error rather than being dropped.

Deals keep their versions, their entered_by / confirmed_by and their whole history
(django-simple-history rows). Standings are not exported: they are derived, and the import
recomputes them from the deals (`scoring.standings.services.standings_refresh`).
"""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction

from clubs.models import (
    TWO_PLAYER_KINDS,
    Club,
    Membership,
    Player,
    Session,
    Table,
    TableSeat,
    house_rules_options,
)
from clubs.serializers import ClubIn
from games import sheets
from games.models import Deal, DealFields, Rubber
from scoring.rules import HouseRules, ScoringError
from scoring.shared.error_messages import error_line
from scoring.shared.hooks import results_restored
from scoring.shared.inputs import refuse_other_digits

FORMAT = "backscore.club/1"
SEATS = ("north", "east", "south", "west")
HistoricalDeal = Deal.history.model


# --- plain columns -------------------------------------------------------------------------------


def _plain_fields(
    model: type[models.Model], skip: tuple[str, ...] = ()
) -> list[models.Field[Any, Any]]:
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in skip
    ]


def _json(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def _dump(
    obj: models.Model, relations: dict[str, Callable[[Any], Any]], **extra: Any
) -> dict[str, Any]:
    """Plain columns as JSON values, the relations through their natural keys."""
    model = type(obj)
    known = set(relations)
    for f in model._meta.concrete_fields:
        if f.is_relation and f.name not in known:
            raise ValueError(f"{model.__name__}.{f.name}: a relation the club export does not map")
    skip = tuple(extra)
    row = {f.name: _json(f.value_from_object(obj)) for f in _plain_fields(model, skip)}
    for name, key in relations.items():
        row[name] = key(getattr(obj, f"{name}_id"))
    row.update(extra)
    return row


def _load(
    model: type[models.Model], row: dict[str, Any], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Plain columns back to Python values (fields missing from an older export keep defaults)."""
    return {f.name: f.to_python(row[f.name]) for f in _plain_fields(model, skip) if f.name in row}


# --- export --------------------------------------------------------------------------------------


def club_export(*, club: Club) -> dict[str, Any]:
    users = dict(get_user_model().objects.values_list("pk", "username"))

    def username(pk: int | None) -> str | None:
        return None if pk is None else users[pk]

    players = list(Player.objects.filter(club=club).order_by("name"))
    names = {p.pk: p.name for p in players}

    def player(pk: int | None) -> str | None:
        return None if pk is None else names[pk]

    sessions = list(Session.objects.filter(club=club).order_by("pk"))
    refs = {s.pk: i for i, s in enumerate(sessions, start=1)}
    tables = {t.pk: t for t in Table.objects.filter(session__club=club)}
    rubbers = {r.pk: r for r in Rubber.objects.filter(session__club=club).select_related("table")}

    def rubber_key(pk: int | None) -> list[int] | None:
        if pk is None or pk not in rubbers:
            return None
        r = rubbers[pk]
        return [refs[r.session_id], r.table.number, r.number]

    deals = Deal.objects.filter(rubber__session__club=club).order_by("pk")
    deal_keys = {d.pk: [*rubber_key(d.rubber_id), d.number] for d in deals}  # type: ignore[misc]
    history = HistoricalDeal.objects.filter(id__in=deal_keys).order_by("history_date", "pk")

    return {
        "format": FORMAT,
        "club": _dump(club, {}),
        "memberships": [
            _dump(m, {"club": lambda pk: None, "user": username})
            for m in Membership.objects.filter(club=club).order_by("user__username")
        ],
        "players": [_dump(p, {"club": lambda pk: None, "user": username}) for p in players],
        "sessions": [
            _dump(s, {"club": lambda pk: None, "created_by": username}, ref=refs[s.pk])
            for s in sessions
        ],
        "tables": [
            # Not its code: a table code opens the table to whoever holds it (an import
            # gives each table a new one).
            {k: v for k, v in _dump(t, {"session": refs.get}).items() if k != "code"}
            for t in sorted(tables.values(), key=lambda t: (refs[t.session_id], t.number))
        ],
        "seats": [
            _dump(
                seat,
                {
                    "session": refs.get,
                    "table": lambda pk: tables[pk].number,
                    "player": player,
                },
            )
            for seat in TableSeat.objects.filter(session__club=club).order_by(
                "session_id", "table__number", "position"
            )
        ],
        "rubbers": [
            _dump(
                r,
                {
                    "session": refs.get,
                    "table": lambda pk: tables[pk].number,
                    **dict.fromkeys(SEATS, player),
                },
                sitting_out=[names[pk] for pk in r.sitting_out],
            )
            for r in sorted(
                rubbers.values(), key=lambda r: (refs[r.session_id], r.table.number, r.number)
            )
        ],
        "deals": [
            _dump(
                d,
                {"rubber": rubber_key, "entered_by": username, "confirmed_by": player},
            )
            for d in deals
        ],
        "deal_history": [
            _dump(
                h,
                {
                    "rubber": rubber_key,
                    "entered_by": username,
                    "confirmed_by": player,
                    "history_user": username,
                },
                id=deal_keys[h.id],
                history_id=None,
            )
            for h in history
        ],
    }


# --- import --------------------------------------------------------------------------------------


class ImportRefused(ValidationError):
    """The file cannot be imported; `messages` say what is wrong with which row (nothing was
    written)."""


def club_import(*, data: Any, link_existing_logins: bool = False) -> Club:
    """Create the club described by `data` (from `club_export`), all or nothing.

    Every row is checked first, as the API would check it (the club by `ClubIn` and the house
    rules by the engine, every column by its model field, every deal by the scoring engine,
    every rubber's deals scored in order), and nothing is written unless all rows pass: an
    `ImportRefused` lists each problem with its row. The rows and the standings recomputed from
    them are then written in one transaction.

    Logins are named by username. A missing login is created without a usable password; an
    existing one is linked (made a member, a director, a player's login) only when
    `link_existing_logins` is true, because the file alone cannot say that the person holding
    that login on this site is the person the file means.
    """
    problems = club_import_problems(data=data, link_existing_logins=link_existing_logins)
    if problems:
        raise ImportRefused(problems)
    try:
        with transaction.atomic():
            club = _write(data)
            club_restore_standings(club=club)
    except (
        DatabaseError,
        LookupError,
        TypeError,
        ValueError,
        OverflowError,
        RecursionError,
    ) as err:
        # Last resort: a check above missed something the database (or the writer) refuses.
        # The transaction is rolled back, so still nothing is written.
        raise ImportRefused([f"the database refused a row: {err}".strip()]) from err
    return club


def club_import_problems(*, data: Any, link_existing_logins: bool = False) -> list[str]:
    """Every problem of an import file, one line each naming its row; [] when it can be
    imported. Reads the database (taken slugs and logins), writes nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        return [f"Not a Backscore club export (format {found!r})."]
    check = _Check(data)
    check.run()
    problems = check.problems
    existing = sorted(
        get_user_model()
        .objects.filter(username__in=check.usernames)
        .values_list("username", flat=True)
    )
    if existing and not link_existing_logins:
        problems.append(
            "logins that already exist on this site: "
            + ", ".join(existing)
            + ". The file would make them members, directors or players of the club; pass "
            "--link-existing-logins if they are the same people."
        )
    return problems


SECTIONS = ("memberships", "players", "sessions", "tables", "seats", "rubbers", "deals")


class _Check:
    """Checks an export file row by row, collecting `problems` and the `usernames` it names."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []
        self.usernames: set[str] = set()
        self.players: set[str] = set()
        self.sessions: dict[Any, Any] = {}  # ref -> kind
        self.tables: set[tuple[Any, Any]] = set()
        self.rubbers: dict[tuple[Any, ...], Rubber | None] = {}
        #: The deals of each rubber whose rows all passed, for its scoresheet.
        self.deals: dict[tuple[Any, ...], list[Deal]] = {}
        self.deal_keys: set[tuple[Any, ...]] = set()
        self.seen: set[tuple[Any, ...]] = set()
        #: The players seated at each (session, table).
        self.seated: dict[tuple[Any, Any], set[Any]] = {}
        #: The players of each rubber (its seats and those sitting out).
        self.people: dict[tuple[Any, ...], list[Any]] = {}

    def run(self) -> None:
        rows: dict[str, list[Any]] = {}
        for name in (*SECTIONS, "deal_history"):
            section = self.data.get(name, [])
            if not isinstance(section, list):
                self.problems.append(f"{name}: expected a list of rows")
                section = []
            rows[name] = section
        self._row("club", self.data.get("club"), self._club)
        for name in SECTIONS:
            for i, row in enumerate(rows[name]):
                self._row(f"{name}[{i}]", row, getattr(self, f"_{name[:-1]}"))
        for key, deals in self.deals.items():
            if self.rubbers[key] is not None:
                self._row(f"rubber {list(key)}", deals, partial(self._scoresheet, key))
        self._row("tables", [], self._running_tables)
        for i, row in enumerate(rows["deal_history"]):
            self._row(f"deal_history[{i}]", row, self._history)

    def _row(self, where: str, row: Any, check: Callable[[Any], None]) -> None:
        """Run one row's check; every refusal becomes a line naming the row."""
        if not isinstance(row, dict | list):
            self.problems.append(f"{where}: expected an object")
            return
        try:
            _no_nul(row)
            check(row)
        except ValidationError as err:
            for field, messages in _error_items(err):
                for message in messages:
                    self.problems.append(
                        f"{where}: {field}: {message}" if field else f"{where}: {message}"
                    )
        except ScoringError as err:
            self.problems.append(f"{where}: {error_line(err)}")
        except KeyError as err:
            self.problems.append(f"{where}: missing field {err.args[0]!r}")
        except (TypeError, ValueError, AttributeError, OverflowError, RecursionError) as err:
            self.problems.append(f"{where}: malformed row ({err})")

    def _fields(
        self, model: type[models.Model], row: dict[str, Any], skip: tuple[str, ...] = ()
    ) -> Any:
        """An unsaved instance with the row's plain columns, each checked by its model field
        (type, choices, length, validators such as a slug's)."""
        _typed_as_written(model, row, skip)
        instance = model(**_load(model, row, skip))
        relations = [f.name for f in model._meta.fields if f.is_relation]
        instance.clean_fields(exclude=[*relations, *skip])
        for field in _plain_fields(model, skip):
            value = getattr(instance, field.attname)
            if isinstance(field, models.DateField) and value is not None:
                _sane_date(field.name, value)
        return instance

    def _user(self, name: Any, field: str) -> None:
        if name is None:
            return
        user_model = get_user_model()
        username = user_model._meta.get_field("username")
        try:
            username.clean(name, None)
        except ValidationError as err:
            raise ValidationError({field: err.messages}) from err
        self.usernames.add(name)

    def _player_ref(self, name: Any, field: str, *, required: bool = False) -> None:
        if name is None and not required:
            return
        if name not in self.players:
            raise ValidationError({field: [f"{name!r} is not a player of this file"]})

    # --- one check per section (named after the section's rows) ---

    def _club(self, row: dict[str, Any]) -> None:
        self._fields(Club, row)
        data = ClubIn(
            data={
                "slug": row["slug"],
                "name": row["name"],
                "public": row.get("public", True),
                "rules_preset": row.get("rules_preset", "acbl"),
                "rules": row.get("rules_overrides", {}),
                "default_stake": row.get("default_stake", "0.00"),
                "currency": row.get("currency", "EUR"),
                "language": row.get("language", Club.Language.EN),
            }
        )
        if not data.is_valid():
            raise ValidationError({k: [str(m) for m in v] for k, v in data.errors.items()})
        if data.validated_data["slug"] != row["slug"]:
            raise ValidationError({"slug": ["must be lower case"]})
        house_rules_options(row.get("rules_preset", "acbl"), row.get("rules_overrides") or {})
        if Club.objects.filter(slug=row["slug"]).exists():
            raise ValidationError(
                {"slug": [f"a club with the slug {row['slug']!r} already exists: import refused"]}
            )

    def _membership(self, row: dict[str, Any]) -> None:
        self._fields(Membership, row)
        self._user(row["user"], "user")
        if row["user"] is None:
            raise ValidationError({"user": ["a membership needs a login"]})
        self._once(("membership", row["user"]), "user", f"{row['user']!r} has two memberships")

    def _player(self, row: dict[str, Any]) -> None:
        name = row["name"]
        if str(name).lower() in {p.lower() for p in self.players}:
            raise ValidationError({"name": [f"{name!r} appears twice"]})
        self.players.add(name)
        self._fields(Player, row)
        if not str(name).strip():
            raise ValidationError({"name": ["a player needs a name"]})
        self._user(row["user"], "user")
        if row["user"] is not None:
            self._once(("player", row["user"]), "user", f"{row['user']!r} is two players")

    def _session(self, row: dict[str, Any]) -> None:
        if row["ref"] in self.sessions:
            raise ValidationError({"ref": [f"session {row['ref']!r} appears twice"]})
        self.sessions[row["ref"]] = row.get("kind")
        session = self._fields(Session, row, ("ref",))
        self._user(row["created_by"], "created_by")
        HouseRules.from_dict(session.rules)

    def _table(self, row: dict[str, Any]) -> None:
        _whole_numbers(row, "session", "number")
        key = (row["session"], row["number"])
        if key in self.tables:
            raise ValidationError({"number": [f"table {row['number']!r} appears twice"]})
        self.tables.add(key)
        table = self._fields(Table, row, skip=("code",))
        self._session_ref(row)
        if table.number < 1:
            raise ValidationError({"number": ["a table number starts at 1"]})

    def _seat(self, row: dict[str, Any]) -> None:
        _whole_numbers(row, "session", "table", "position")
        self._fields(TableSeat, row)
        self._table_ref(row)
        self._player_ref(row["player"], "player", required=True)
        self.seated.setdefault((row["session"], row["table"]), set()).add(row["player"])
        session = row["session"]
        self._once(("seat", session, row["player"]), "player", "sits at two tables")
        self._once(("position", session, row["table"], row["position"]), "position", "taken")

    def _rubber(self, row: dict[str, Any]) -> None:
        key = (row["session"], row["table"], row["number"])
        if key in self.rubbers:
            raise ValidationError({"number": [f"rubber {list(key)} appears twice"]})
        self.rubbers[key] = None
        self.deals[key] = []
        _whole_numbers(row, "session", "table", "number")
        rubber = self._fields(Rubber, row, ("sitting_out",))
        self._table_ref(row)
        if rubber.number < 1:
            raise ValidationError({"number": ["a rubber number starts at 1"]})
        for seat in SEATS:
            self._player_ref(row[seat], seat, required=seat in ("north", "east"))
        if not isinstance(row["sitting_out"], list):
            raise ValidationError({"sitting_out": ["expected a list of player names"]})
        for name in row["sitting_out"]:
            self._player_ref(name, "sitting_out", required=True)
        people = [row[seat] for seat in SEATS if row[seat] is not None] + row["sitting_out"]
        if len(set(people)) != len(people):
            raise ValidationError({"north": ["a player has two places in this rubber"]})
        if self.sessions[row["session"]] != rubber.kind:
            raise ValidationError({"kind": ["differs from its session's"]})
        if (row["south"] is None) != (rubber.kind in TWO_PLAYER_KINDS):
            raise ValidationError({"south": ["the seats do not match the game"]})
        HouseRules.from_dict(rubber.rules)
        self.people[key] = people
        self.rubbers[key] = rubber

    def _deal(self, row: dict[str, Any]) -> None:
        _whole_numbers(row, "number")
        if not isinstance(row["rubber"], list) or len(row["rubber"]) != 3:
            raise ValidationError({"rubber": ["expected [session, table, number]"]})
        _whole_numbers(dict(enumerate(row["rubber"])), 0, 1, 2)
        if row.get("updated_at") is None:
            raise ValidationError({"updated_at": ["missing"]})
        key = tuple(row["rubber"])
        if key not in self.rubbers:
            raise ValidationError({"rubber": [f"{list(key)} is not a rubber of this file"]})
        if (*key, row["number"]) in self.deal_keys:
            raise ValidationError({"number": [f"deal {row['number']!r} appears twice"]})
        self.deal_keys.add((*key, row["number"]))
        try:
            deal = self._fields(Deal, row)
            self._user(row["entered_by"], "entered_by")
            self._player_ref(row["confirmed_by"], "confirmed_by")
            rubber = self.rubbers[key]
            if rubber is not None:
                # The engine checks the deal as an entry would (RULES 1, 3.6, 7).
                DealFields.build(kind=rubber.kind, **deal.fields().as_kwargs())
        except Exception:
            self.deals.pop(key, None)  # its scoresheet cannot be checked: the row is named
            raise
        if key in self.deals:
            self.deals[key].append(deal)

    def _scoresheet(self, key: tuple[Any, ...], _deals: Any) -> None:
        """A rubber's deals, in order, scored as the site would score them (RULES 8.1, 8.2):
        no deal after the end of the match, and the status the deals give."""
        rubber = cast(Rubber, self.rubbers[key])
        deals = sorted(self.deals[key], key=lambda d: d.number)
        if [d.number for d in deals] != list(range(1, len(deals) + 1)):
            raise ValidationError({"deals": ["deal numbers are not 1, 2, 3, …"]})
        sheet = sheets.score(
            rubber.kind,
            deals,
            closed=rubber.status == Rubber.Status.UNFINISHED,
            options=HouseRules.from_dict(rubber.rules),
        )
        if (rubber.status == Rubber.Status.COMPLETE) != sheet.complete:
            raise ValidationError(
                {
                    "status": [
                        f"{rubber.status!r}, but its deals say the match is "
                        + ("over" if sheet.complete else "not over")
                    ]
                }
            )

    def _history(self, row: dict[str, Any]) -> None:
        self._fields(HistoricalDeal, row, ("id", "history_id"))
        if not isinstance(row["id"], list) or tuple(row["id"]) not in self.deal_keys:
            raise ValidationError({"id": [f"{row['id']!r} is not a deal of this file"]})
        if not isinstance(row["rubber"], list) or row["rubber"] != row["id"][:3]:
            raise ValidationError({"rubber": [f"{row['rubber']!r} is not its deal's rubber"]})
        self._once(("history", json.dumps(row, sort_keys=True, default=str)), "id", "appears twice")
        for field in ("entered_by", "history_user"):
            self._user(row[field], field)
        self._player_ref(row["confirmed_by"], "confirmed_by")

    def _running_tables(self, _rows: Any) -> None:
        """A table's rubber in play is what its pages show: at most one a table, and everyone
        in it seated at that table (the rows the console and the standings read)."""
        problems: dict[str, list[str]] = {}
        in_play: set[tuple[Any, Any]] = set()
        for key, rubber in self.rubbers.items():
            if rubber is None or rubber.status != Rubber.Status.IN_PLAY:
                continue
            where = f"rubber {list(key)}"
            if key[:2] in in_play:
                problems.setdefault(where, []).append("a second rubber in play at its table")
            in_play.add(key[:2])
            seated = self.seated.get(key[:2], set())
            missing = [name for name in self.people.get(key, []) if name not in seated]
            if missing:
                problems.setdefault(where, []).append(
                    "in play, but not seated at its table: " + ", ".join(map(str, missing))
                )
        if problems:
            raise ValidationError(problems)

    def _once(self, key: tuple[Any, ...], field: str, message: str) -> None:
        """A row that the database allows once (its unique constraints)."""
        if key in self.seen:
            raise ValidationError({field: [message]})
        self.seen.add(key)

    def _session_ref(self, row: dict[str, Any]) -> None:
        if row["session"] not in self.sessions:
            raise ValidationError(
                {"session": [f"{row['session']!r} is not a session of this file"]}
            )

    def _table_ref(self, row: dict[str, Any]) -> None:
        self._session_ref(row)
        if (row["session"], row["table"]) not in self.tables:
            raise ValidationError({"table": [f"{row['table']!r} is not a table of its session"]})


def _no_nul(value: Any) -> None:
    """PostgreSQL text cannot hold a NUL character: refuse it in any string of the row."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValidationError(["a text contains a NUL character"])
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


#: The years a stored date may have once converted to UTC: PostgreSQL cannot read back a
#: timestamp before year 1 or after 9999, and nothing in a club is older or further away.
SANE_YEARS = (1900, 9998)


def _sane_date(field: str, value: datetime.date) -> None:
    year = value.year
    try:
        if isinstance(value, datetime.datetime) and value.tzinfo is not None:
            year = value.astimezone(datetime.UTC).year
    except OverflowError:
        year = 0  # before year 1 or after 9999 in UTC
    if not SANE_YEARS[0] <= year <= SANE_YEARS[1]:
        raise ValidationError(
            {field: [f"{value.isoformat()} is outside the years {SANE_YEARS[0]}–{SANE_YEARS[1]}"]}
        )


#: Columns whose text an export writes in the digits 0-9 (decimals and times are strings in JSON).
_WRITTEN_IN_DIGITS = (models.DateField, models.DateTimeField, models.DecimalField)


def _typed_as_written(
    model: type[models.Model], row: dict[str, Any], skip: tuple[str, ...]
) -> None:
    """The row's plain columns as an export writes them: a whole number as a JSON number (the
    model's field would read "10" as 10), a date, time or decimal in the digits 0-9 (it would
    read "١٠" as 10); every wrong column is named."""
    problems: dict[str, list[str]] = {}
    for field in _plain_fields(model, skip):
        value = row.get(field.name)
        if value is None:
            continue
        if isinstance(field, models.IntegerField):
            if not isinstance(value, int) or isinstance(value, bool):
                problems[field.name] = [f"{value!r} is not a whole number"]
        elif isinstance(field, _WRITTEN_IN_DIGITS):
            try:
                refuse_other_digits(value)
            except ValidationError as err:
                problems[field.name] = err.messages
    if problems:
        raise ValidationError(problems)


def _whole_numbers(row: dict[Any, Any], *fields: Any) -> None:
    """Natural keys are whole numbers in an export (not "1", not 1.0, not true)."""
    for field in fields:
        value = row[field]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError({str(field): [f"{value!r} is not a whole number"]})


def _error_items(err: ValidationError) -> list[tuple[str, list[str]]]:
    if hasattr(err, "error_dict"):
        return [
            (field, ValidationError(errors).messages) for field, errors in err.error_dict.items()
        ]
    return [("", err.messages)]


def _write(data: dict[str, Any]) -> Club:
    """Write the rows of a checked file (`club_import_problems` found nothing)."""
    User = get_user_model()
    user_cache: dict[str, Any] = {}

    def user(name: str | None) -> Any:
        if name is None:
            return None
        if name not in user_cache:
            found = User.objects.filter(username=name).first()
            if found is None:
                found = User(username=name)
                found.set_unusable_password()
                found.save()
            user_cache[name] = found
        return user_cache[name]

    club = Club.objects.create(**_load(Club, data["club"]))
    for row in data["memberships"]:
        Membership.objects.create(club=club, user=user(row["user"]), **_load(Membership, row))
    players = {}
    for row in data["players"]:
        p = Player.objects.create(club=club, user=user(row["user"]), **_load(Player, row))
        players[p.name] = p

    def player(name: str | None) -> Player | None:
        return None if name is None else players[name]

    sessions = {}
    for row in data["sessions"]:
        sessions[row["ref"]] = Session.objects.create(
            club=club, created_by=user(row["created_by"]), **_load(Session, row, ("ref",))
        )
    tables = {}
    for row in data["tables"]:
        t = Table.objects.create(
            session=sessions[row["session"]], **_load(Table, row, skip=("code",))
        )
        tables[(row["session"], t.number)] = t
    for row in data["seats"]:
        TableSeat.objects.create(
            session=sessions[row["session"]],
            table=tables[(row["session"], row["table"])],
            # A seat always has a player (the export names it; the database refuses none).
            player=cast(Player, player(row["player"])),
            **_load(TableSeat, row),
        )
    rubbers = {}
    for row in data["rubbers"]:
        r = Rubber.objects.create(
            session=sessions[row["session"]],
            table=tables[(row["session"], row["table"])],
            sitting_out=[players[name].pk for name in row["sitting_out"]],
            **{seat: player(row[seat]) for seat in SEATS},
            **_load(Rubber, row, ("sitting_out",)),
        )
        rubbers[(row["session"], row["table"], r.number)] = r

    def rubber(key: list[int] | None) -> Rubber | None:
        return None if key is None else rubbers[tuple(key)]  # type: ignore[index]

    deals = {}
    for row in data["deals"]:
        fields = _load(Deal, row)
        d = Deal(
            rubber=rubber(row["rubber"]),
            entered_by=user(row["entered_by"]),
            confirmed_by=player(row["confirmed_by"]),
            **fields,
        )
        d.skip_history_when_saving = True  # type: ignore[attr-defined]
        d.save()
        # auto_now stamped the import time: put back the stored one.
        Deal.objects.filter(pk=d.pk).update(updated_at=fields["updated_at"])
        deals[(*row["rubber"], d.number)] = d
    HistoricalDeal.objects.bulk_create(
        [
            HistoricalDeal(
                id=deals[tuple(row["id"])].pk,
                rubber_id=rubber(row["rubber"]).pk,  # type: ignore[union-attr]
                entered_by=user(row["entered_by"]),
                confirmed_by_id=getattr(player(row["confirmed_by"]), "pk", None),
                history_user=user(row["history_user"]),
                **_load(HistoricalDeal, row, ("id", "history_id")),
            )
            for row in data["deal_history"]
        ]
    )
    return club


def club_restore_standings(*, club: Club) -> None:
    """Recompute the standings of every session of the club from its deals."""
    for session_id in Session.objects.filter(club=club).values_list("pk", flat=True):
        results_restored.send(sender=Club, session_id=session_id)
