"""`python manage.py import_club club.json`: restore a club written by export_club."""

import json
import sys
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.transfer import club_import, club_restore_standings


class Command(BaseCommand):
    help = "Create a club from an export_club file ('-' reads stdin); standings are recomputed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["path"] == "-":
            data = json.load(sys.stdin)
        else:
            with open(options["path"], encoding="utf-8") as source:
                data = json.load(source)
        try:
            club = club_import(data=data)
        except ValidationError as err:
            raise CommandError(" ".join(err.messages)) from err
        club_restore_standings(club=club)
        self.stdout.write(f"Imported club {club.slug!r} ({club.sessions.count()} sessions).")
