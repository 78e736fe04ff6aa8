"""Export a club to JSON and import it back, exactly (docs/operations.md: "Moving a club").

The document names rows by natural keys, never by database ids: logins by username, players
by name (unique in a club), sessions by their place in the export, tables by number, rubbers by
(table, number), deals by (rubber, number). Every plain column of every row is copied by the
model's own field list, so a column added later travels without a change here; a relation
this module does not know stops the export with an error rather than being dropped.

Deals keep their versions, their entered_by / confirmed_by and their whole history
(django-simple-history rows). Standings are not exported: they are derived, and the import
recomputes them from the deals (`scoring.standings.services.standings_refresh`).

- `columns`: plain columns and natural keys, both ways.
- `export`: `club_export`.
- `importing`: `club_import` and `club_import_problems` (all or nothing).
- `checks`: every row checked before anything is written; `values`: the checks of single values.
- `write`: the rows of a checked file written, and the standings recomputed.
"""

from .columns import FORMAT
from .export import club_export
from .importing import ImportRefused, club_import, club_import_problems
from .values import SANE_YEARS
from .write import club_restore_standings

__all__ = [
    "FORMAT",
    "SANE_YEARS",
    "ImportRefused",
    "club_export",
    "club_import",
    "club_import_problems",
    "club_restore_standings",
]
