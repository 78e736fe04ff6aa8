"""`python manage.py export_club SLUG > club.json`: the whole club as JSON (games.transfer)."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from games.transfer import club_export


class Command(BaseCommand):
    help = "Write a club (players, logins, sessions, rubbers, deals and their history) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="Write to this file instead of stdout.")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with the slug {options['slug']!r}.")
        text = json.dumps(club_export(club=club), indent=1, sort_keys=True, ensure_ascii=False)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            self.stdout.write(text)
