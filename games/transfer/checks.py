"""Every row of a club file checked as the API would check it, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models

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

from .columns import SEATS, HistoricalDeal, load, plain_fields
from .values import error_items, no_nul, sane_date, typed_as_written, whole_numbers

SECTIONS = ("memberships", "players", "sessions", "tables", "seats", "rubbers", "deals")


class Check:
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
            no_nul(row)
            check(row)
        except ValidationError as err:
            for field, messages in error_items(err):
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
        typed_as_written(model, row, skip)
        instance = model(**load(model, row, skip))
        relations = [f.name for f in model._meta.fields if f.is_relation]
        instance.clean_fields(exclude=[*relations, *skip])
        for field in plain_fields(model, skip):
            value = getattr(instance, field.attname)
            if isinstance(field, models.DateField) and value is not None:
                sane_date(field.name, value)
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
        whole_numbers(row, "session", "number")
        key = (row["session"], row["number"])
        if key in self.tables:
            raise ValidationError({"number": [f"table {row['number']!r} appears twice"]})
        self.tables.add(key)
        table = self._fields(Table, row, skip=("code",))
        self._session_ref(row)
        if table.number < 1:
            raise ValidationError({"number": ["a table number starts at 1"]})

    def _seat(self, row: dict[str, Any]) -> None:
        whole_numbers(row, "session", "table", "position")
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
        whole_numbers(row, "session", "table", "number")
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
        whole_numbers(row, "number")
        if not isinstance(row["rubber"], list) or len(row["rubber"]) != 3:
            raise ValidationError({"rubber": ["expected [session, table, number]"]})
        whole_numbers(dict(enumerate(row["rubber"])), 0, 1, 2)
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
