"""`python manage.py import_club club.json`: restore a club written by export_club.

All or nothing: every row is checked before anything is written (games.transfer.club_import),
and the refusal lists each problem with its row. Logins the file names that already exist on
this site are linked only with `--link-existing-logins`.
"""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.transfer import ImportRefused, club_import


class Command(BaseCommand):
    help = "Create a club from an export_club file ('-' reads stdin); standings are recomputed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument(
            "--link-existing-logins",
            action="store_true",
            help="Link the file's usernames to the logins of the same name on this site (made "
            "members, directors, players). Without it an import naming an existing login is "
            "refused.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["path"] == "-":
                data = json.load(sys.stdin, parse_constant=_no_constant)
            else:
                with open(options["path"], encoding="utf-8") as source:
                    data = json.load(source, parse_constant=_no_constant)
        except RecursionError as err:
            raise CommandError(f"Cannot read {options['path']}: nested too deeply") from err
        except (OSError, ValueError) as err:
            raise CommandError(f"Cannot read {options['path']}: {err}") from err
        try:
            club = club_import(data=data, link_existing_logins=options["link_existing_logins"])
        except ImportRefused as err:
            raise CommandError(
                "Import refused; nothing was written:\n" + "\n".join(err.messages)
            ) from err
        self.stdout.write(f"Imported club {club.slug!r} ({club.sessions.count()} sessions).")


def _no_constant(name: str) -> Any:
    """JSON has no Infinity or NaN (Python's reader accepts them): an export never holds one."""
    raise ValueError(f"{name} is not a JSON number")
