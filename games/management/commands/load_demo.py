"""`manage.py load_demo`: load the demo club (seeds/demo.json) once; do nothing if it exists.

Everything goes through the services and model methods a director and players use
(club_create, player_create, session_create/start/close, Rubber.record_deal): no raw writes of
scores, so the demo's scoresheets are the engine's. Deterministic: the same data every time.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs import services as club_services
from clubs.models import Club, Player
from games.models import Rubber
from games.selectors import actor_of
from games.sessions import lifecycle

SEED = Path(settings.BASE_DIR) / "seeds" / "demo.json"
MAX_DEALS_PER_RUBBER = 40


class Command(BaseCommand):
    help = "Load the demo club (Riverside Bridge Club) once."

    def handle(self, *args: Any, **options: Any) -> None:
        data = json.loads(SEED.read_text())
        slug = data["club"]["slug"]
        if Club.objects.filter(slug=slug).exists():
            self.stdout.write(f"Demo club {slug!r} already loaded; nothing to do.")
            return
        with transaction.atomic():
            club = _load(data)
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {club.name}: sign in as {data['director']['username']} / "
                f"{data['director']['password']}."
            )
        )


def _load(data: dict[str, Any]) -> Club:
    user_model = get_user_model()
    spec = data["director"]
    director = user_model.objects.filter(username=spec["username"]).first()
    if director is None:
        director = user_model.objects.create_user(
            username=spec["username"], password=spec["password"]
        )
    club_spec = data["club"]
    club = club_services.club_create(
        slug=club_spec["slug"],
        name=club_spec["name"],
        director=director,
        public=club_spec["public"],
        default_stake=Decimal(club_spec["default_stake"]),
    )
    players = {
        p["name"]: club_services.player_create(
            club=club, name=p["name"], username=p.get("username"), password=p.get("password")
        )
        for p in data["players"]
    }
    script = data["deal_script"]
    for spec in data["sessions"]:
        session = lifecycle.session_create(
            club=club,
            date=datetime.date.fromisoformat(spec["date"]),
            stake_per_hundred=Decimal(spec["stake_per_hundred"]),
            tables=[[players[name] for name in table] for table in spec["tables"]],
            created_by=director,
        )
        lifecycle.session_start(session=session)
        for table in session.tables.order_by("number"):
            offset = table.number * 5
            for _ in range(spec["complete_rubbers"]):
                offset = _play(
                    table.rubbers.get(status=Rubber.Status.IN_PLAY),
                    script,
                    offset,
                    director,
                    limit=None,
                )
            if spec["then_deals"]:
                _play(
                    table.rubbers.get(status=Rubber.Status.IN_PLAY),
                    script,
                    offset,
                    director,
                    limit=spec["then_deals"],
                )
        if spec["close"]:
            lifecycle.session_close(session=session)
    return club


def _play(
    rubber: Rubber, script: list[dict[str, Any]], offset: int, director: Any, *, limit: int | None
) -> int:
    """Enter deals from the script (cycling) until the rubber ends, or `limit` deals."""
    count = limit or MAX_DEALS_PER_RUBBER
    for number in range(1, count + 1):
        deal = script[offset % len(script)]
        offset += 1
        honours = deal.get("honours") or {}
        rubber.record_deal(
            number=number,
            contract=deal["contract"],
            declarer=deal.get("declarer"),
            tricks=deal.get("tricks"),
            honours_side=honours.get("side"),
            honours_points=honours.get("points"),
            actor=actor_of(_entering_user(rubber, director), rubber),
        )
        if limit is None and rubber.status != Rubber.Status.IN_PLAY:
            return offset
    if limit is None:
        raise RuntimeError(f"The demo script did not finish {rubber}.")
    return offset


def _entering_user(rubber: Rubber, director: Any) -> Any:
    """The first seated player with a login enters, as at a real table; else the director."""
    for player in rubber.seats.values():
        if isinstance(player, Player) and player.user_id is not None:
            return player.user
    return director
