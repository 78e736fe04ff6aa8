"""Importing a club file, all or nothing: every row checked (`checks`), then written (`write`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction

from clubs.models import Club

from .checks import Check
from .columns import FORMAT
from .write import club_restore_standings, write_club


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
            club = write_club(data)
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
    check = Check(data)
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
