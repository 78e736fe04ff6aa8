"""``field__any=[...]``: the ``in`` lookup sent as one array on PostgreSQL.

``session_id__in=ids`` puts a parameter per id in the SQL: with the nightly rebuild's 200
sessions a chunk, psycopg rewrote and PostgreSQL planned statements of 200 parameters, ten of
them a chunk. ``session_id__any=ids`` sends ``session_id = ANY(%s)`` with the ids as one array
there (the same rows, any number of ids, one short statement) and is ``in`` elsewhere, and
wherever its values are a subquery or the field spans several columns.

Registered on integer columns and foreign keys only: on every field it would hide a JSON
field's key named "any". Its values must be a list, tuple, set or query, never a string: the
admin's filters pass a query string's value as it is, which ``in`` splits on commas and
``any`` would read a character at a time (refused there, the admin shows its error).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.models import ForeignObject, IntegerField
from django.db.models.expressions import ColPairs  # type: ignore[attr-defined]  # not in the stubs
from django.db.models.fields.related_lookups import RelatedIn
from django.db.models.lookups import In


class _AsArray(In):  # type: ignore[type-arg]  # generic only in the stubs
    def get_prep_lookup(self) -> Any:
        if isinstance(self.rhs, str | bytes):
            raise ValueError(f"{self.lookup_name} takes a list of values, not {self.rhs!r}")
        if self._ints():  # what preparing would give, without a call per value (thousands)
            return list(self.rhs)
        return super().get_prep_lookup()

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, Any]:
        if not self.rhs_is_direct_value() or isinstance(self.lhs, ColPairs):
            return self.as_sql(compiler, connection)
        lhs, lhs_params = self.process_lhs(compiler, connection)
        try:
            distinct = list(dict.fromkeys(self.rhs))
        except TypeError:  # unhashable values, as ``in`` takes them
            distinct = list(self.rhs)
        values = [value for value in distinct if value is not None]
        if not self._ints():
            field = self.lhs.output_field
            values = [field.get_db_prep_value(v, connection, prepared=True) for v in values]
        if not values:  # as ``in`` with no values: no row, no query
            raise EmptyResultSet
        return f"{lhs} = ANY(%s)", (*lhs_params, values)

    def _ints(self) -> bool:
        """Whether the values are ints (or None) for an integer column, or a key to one."""
        field = getattr(self.lhs, "output_field", None)
        column = getattr(field, "target_field", field)
        return (
            isinstance(column, IntegerField)
            and isinstance(self.rhs, list | tuple)
            and set(map(type, self.rhs)) <= {int, type(None)}
        )


@IntegerField.register_lookup
class AnyOf(_AsArray):
    lookup_name = "any"


@ForeignObject.register_lookup
class RelatedAnyOf(_AsArray, RelatedIn):
    """``any`` on a foreign key (``session__any`` or ``session_id__any``): its values normalised
    as ``in`` normalises them (model instances to their keys)."""

    lookup_name = "any"
