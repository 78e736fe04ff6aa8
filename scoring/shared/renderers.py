"""CSV answers of the API's tables of numbers (`?format=csv`, API.md: Formats).

djangorestframework-csv's renderer flattens a whole JSON answer into one row (`players.0.name`,
`players.1.name`, ...), which suits flat lists only. Our answers are an object holding one list
of rows (`players`, `payments`, `deals`), so `RowsCSVRenderer` renders that list, one row per
item, under a fixed header: the JSON's own keys, in the order given. UTF-8 with a byte order
mark and a plain "-" for the pages' minus sign (Excel opens it cleanly), one header row, served
as an attachment. An error answer (a dict without the list) is rendered flat, as the base
renderer does, so a 404 stays a 404 with its message.

Every text cell that a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a
tab or a carriage return) is prefixed with a single quote, as OWASP advises against CSV
injection: a player named `=HYPERLINK(...)` stays text. Numbers are never changed, whether the
JSON holds them as numbers or as strings (`-300`, `"-12.50"`): they are not formulas, and a
quote would break them as numbers; nor is a lone sign (the `result` "=" of a contract made
exactly) (docs/api.md: CSV; docs/security.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from rest_framework.settings import api_settings
from rest_framework_csv.renderers import CSVRenderer


class RowsCSVRenderer(CSVRenderer):  # type: ignore[misc]
    """The list under `rows_field` of an answer, one row per item, columns `header`."""

    charset = "utf-8"
    #: Start the file with a byte order mark, so a spreadsheet opens it as UTF-8: names, the
    #: suits' glyphs (4♠) and the currency's symbol read right in Excel, which without it
    #: reads the file in the machine's code page ("4â™ ").
    bom: ClassVar[bool] = True
    rows_field: ClassVar[str]
    header: ClassVar[list[str]]
    filename: ClassVar[str]

    def render(
        self,
        data: Any,
        media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
        writer_opts: Any = None,
    ) -> bytes:
        context = dict(renderer_context or {})
        response = context.get("response")
        if isinstance(data, Mapping) and self.rows_field in data:
            if response is not None:
                name = self.filename.format(**(context.get("kwargs") or {}))
                response["Content-Disposition"] = f'attachment; filename="{name}"'
            rows = [
                {key: _cell(value) for key, value in row.items()} for row in data[self.rows_field]
            ]
            context["header"] = self.header
            body: bytes = super().render(rows, media_type, context)
            return b"\xef\xbb\xbf" + body if self.bom else body
        context["header"] = None
        flat: bytes = super().render(data, media_type, context)
        return flat

    def tablize(self, data: Any, header: Any = None, labels: Any = None) -> Iterator[list[Any]]:
        """The base renderer's rows, every cell (rows and flat error answers alike) through
        `neutralise`."""
        for row in super().tablize(data, header=header, labels=labels):
            yield [neutralise(cell) for cell in row]


#: What a spreadsheet starts a formula with (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A number written as text (a decimal the JSON holds as a string): never a formula.
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)\Z")


#: A formula start after a character a spreadsheet may split a cell at: the list separator of
#: locales that write decimal commas (";", Italian Excel among them), a tab or a line break.
#: "Eve;=1+1" opens there as two cells, the second a formula (an outside probe).
SPLIT_FORMULA = re.compile(r"([;\t\r\n])(\s*)([=+\-@])")


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, quoted so it is read as text, also
    where a spreadsheet splitting at ";" or a tab would start a cell (`SPLIT_FORMULA`);
    anything else (numbers, plain text, numbers as text) as it is. A lone sign is left too:
    nothing follows it to run, and the deals' `result` column writes "=" for a contract made
    exactly (its neighbours "+1", "-1" are numbers)."""
    if not isinstance(value, str) or PLAIN_NUMBER.match(value):
        return value
    value = SPLIT_FORMULA.sub(r"\1\2'\3", value)
    if len(value) > 1 and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


#: The minus sign the pages write ("−2", U+2212): a spreadsheet reads it as text, not as a
#: sign, and a code page without it garbles it. The CSV writes a plain "-".
MINUS = "\u2212"


def _cell(value: Any) -> Any:
    """None is an empty cell, booleans are true/false as in the JSON, the pages' minus sign a
    plain "-" (a result "−2" is the number -2 in a spreadsheet)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value.replace(MINUS, "-")
    return value


def with_csv(renderer: type[RowsCSVRenderer]) -> list[Any]:
    """The default renderers (JSON, browsable API) and this CSV one."""
    return [*api_settings.DEFAULT_RENDERER_CLASSES, renderer]


class StandingsCSV(RowsCSVRenderer):
    rows_field = "players"
    filename = "session-{pk}-standings.csv"
    header = [
        "rank",
        "place_shared",
        "player",
        "name",
        "left_early",
        "table",
        "table_rank",
        "rubbers",
        "won",
        "lost",
        "tied",
        "points",
        "net",
        "hundreds",
        "money",
    ]


class SettlementCSV(RowsCSVRenderer):
    rows_field = "payments"
    filename = "session-{pk}-settlement.csv"
    header = ["from", "from_name", "to", "to_name", "amount"]


class BalancesCSV(RowsCSVRenderer):
    """The season accounts' balance list (RULES 4.4); amounts with a plain "-" sign."""

    rows_field = "balances"
    filename = "{slug}-balances.csv"
    header = ["player", "name", "nights", "paid_in", "paid_out", "balance"]


class StatementCSV(RowsCSVRenderer):
    """A player's statement, with the running balance (RULES 4.4)."""

    rows_field = "lines"
    filename = "player-{pk}-statement.csv"
    header = ["date", "kind", "session", "amount", "balance", "note"]


class LeaderboardCSV(RowsCSVRenderer):
    rows_field = "players"
    filename = "{slug}-leaderboard.csv"
    header = [
        "rank",
        "place_shared",
        "player",
        "name",
        "sessions",
        "rubbers",
        "won",
        "lost",
        "tied",
        "hundreds",
        "net",
        "money",
    ]


class SessionDealsCSV(RowsCSVRenderer):
    rows_field = "deals"
    filename = "session-{pk}-deals.csv"
    header = [
        "table",
        "rubber",
        "rubber_number",
        "kind",
        "number",
        "contract",
        "contract_display",
        "declarer",
        "tricks",
        "result",
        "summary",
        "honours_side",
        "honours_points",
        "total_0",
        "total_1",
        "side_0",
        "side_1",
        "entered_by",
        "confirmed_by",
    ]


class RatingsCSV(RowsCSVRenderer):
    rows_field = "ratings"
    filename = "{slug}-ratings.csv"
    header = ["player", "name", "mu", "sigma", "ordinal", "matches", "won", "lost", "drawn"]
