"""`python manage.py seed_synthetic`: a synthetic federation for benchmarks (bench/).

Realistic clubs, players, closed sessions, pivot tables, rubbers and deals, deterministic for a
seed, written in bulk and in bounded memory (one club at a time, deals flushed in batches).
The defaults (50 clubs × 40 players × 200 sessions) make about a million deals.

Bulk writes bypass `Rubber.record_deal` on purpose: this is benchmark data, not entry. The deals
are still cut into rubbers by the scoring engine (`score_rubber_keys`), so every rubber ends exactly
where the laws end it (RULES 2.4, 8.1) and the data is what real entry would have produced.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone
from tqdm import tqdm

from clubs.models import Club, Player, Session, Table, TableSeat
from games.models import Deal, Rubber
from scoring.rules import Contract, Side, input_key, score_rubber_keys
from scoring.rules.rotation import Seating, plan

SEAT_SIDE = {"N": Side.NS, "E": Side.EW}
DECLARERS = ("N", "E", "S", "W")
LEVEL_WEIGHTS = (8, 22, 26, 28, 8, 6, 2)  # levels 1..7: part scores, games, a few slams
STRAINS = ("C", "D", "H", "S", "NT")
BATCH = 5000


@dataclass
class Counts:
    clubs: int = 0
    players: int = 0
    sessions: int = 0
    tables: int = 0
    rubbers: int = 0
    deals: int = 0
    pending_deals: list[Deal] = field(default_factory=list)


def _random_deal(rng: random.Random) -> tuple[str, str, int | None]:
    """A plausible deal: mostly made or one off, occasionally doubled or passed out."""
    if rng.random() < 0.04:
        return "pass", "", None
    level = rng.choices(range(1, 8), weights=LEVEL_WEIGHTS)[0]
    strain = rng.choice(STRAINS)
    doubling = rng.choices(("", "X", "XX"), weights=(90, 9, 1))[0]
    tricks = max(
        0, min(13, 6 + level + rng.choices((-3, -2, -1, 0, 1, 2), (2, 6, 18, 45, 22, 7))[0])
    )
    return f"{level}{strain}{doubling}", rng.choice(DECLARERS), tricks


class Command(BaseCommand):
    help = "Generate a deterministic synthetic federation (clubs, sessions, rubbers, deals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clubs", type=int, default=50)
        parser.add_argument("--players", type=int, default=40, help="players per club")
        parser.add_argument("--sessions", type=int, default=200, help="sessions per club")
        parser.add_argument("--tables", type=int, default=5, help="tables per session (of four)")
        parser.add_argument("--rubbers", type=int, default=3, help="rubbers per table")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--prefix", default="syn", help="slug prefix of the clubs made")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        rng = random.Random(opts["seed"])
        counts = Counts()
        total_sessions = opts["clubs"] * opts["sessions"]
        bar = tqdm(total=total_sessions, unit="session", disable=opts["no_progress"])
        contracts: dict[str, Contract] = {}
        for c in range(opts["clubs"]):
            with transaction.atomic():
                self._club(rng, c, opts, counts, contracts, bar)
                self._flush(counts)
        bar.close()
        self.stdout.write(
            f"clubs={counts.clubs} players={counts.players} sessions={counts.sessions} "
            f"tables={counts.tables} rubbers={counts.rubbers} deals={counts.deals}"
        )

    def _club(
        self,
        rng: random.Random,
        number: int,
        opts: dict[str, Any],
        counts: Counts,
        contracts: dict[str, Contract],
        bar: Any,
    ) -> None:
        club = Club.objects.create(
            slug=f"{opts['prefix']}-{opts['seed']}-{number + 1}",
            name=f"Synthetic Club {number + 1}",
            public=True,
        )
        rules = club.house_rules().to_dict()
        players = Player.objects.bulk_create(
            Player(club=club, name=f"Player {i + 1:03d}") for i in range(opts["players"])
        )
        counts.clubs += 1
        counts.players += len(players)
        start = datetime.date(2024, 1, 1)
        now = timezone.now()
        per_session = min(len(players) // 4, opts["tables"]) * 4
        for s in range(opts["sessions"]):
            session = Session.objects.create(
                club=club,
                date=start + datetime.timedelta(days=s * 3),
                stake_per_hundred="0.10",
                status=Session.Status.CLOSED,
                rules=rules,
                started_at=now,
                closed_at=now,
            )
            counts.sessions += 1
            tonight = rng.sample(players, per_session)
            tables = Table.objects.bulk_create(
                Table(session=session, number=t + 1) for t in range(per_session // 4)
            )
            counts.tables += len(tables)
            seats = []
            for t, tbl in enumerate(tables):
                group = tonight[t * 4 : t * 4 + 4]
                seats += [
                    TableSeat(session=session, table=tbl, player=p, position=i)
                    for i, p in enumerate(group)
                ]
                self._rubbers(rng, session, tbl, group, opts, counts, contracts, rules)
            TableSeat.objects.bulk_create(seats)
            bar.update(1)
            if len(counts.pending_deals) >= BATCH:
                self._flush(counts)

    def _rubbers(
        self,
        rng: random.Random,
        session: Session,
        tbl: Table,
        group: list[Player],
        opts: dict[str, Any],
        counts: Counts,
        contracts: dict[str, Contract],
        rules: dict[str, Any],
    ) -> None:
        seatings: list[Seating[int]] = plan(
            [p.pk for p in group], opts["rubbers"], movement="pivot"
        )
        for seating in seatings:
            last = seating.rubber == opts["rubbers"]
            deals: list[tuple[str, str, int | None]] = []
            keys: list[int] = []
            while True:
                deal = _random_deal(rng)
                contract = contracts.get(deal[0]) or contracts.setdefault(
                    deal[0], Contract.parse(deal[0])
                )
                side = SEAT_SIDE.get(deal[1]) or (Side.NS if deal[1] == "S" else Side.EW)
                key = input_key(contract, side if deal[2] is not None else None, deal[2], None)
                deals.append(deal)
                keys.append(key)
                score = score_rubber_keys(keys)
                # The last rubber of the night is sometimes stopped unfinished (RULES 2.6).
                if score.rubber_complete or (last and len(deals) >= 3 and rng.random() < 0.3):
                    break
            status = Rubber.Status.COMPLETE if score.rubber_complete else Rubber.Status.UNFINISHED
            rubber = Rubber.objects.create(
                session=session,
                table=tbl,
                number=seating.rubber,
                north_id=seating.seats["N"],
                east_id=seating.seats["E"],
                south_id=seating.seats["S"],
                west_id=seating.seats["W"],
                rules=rules,
                status=status,
                ended_at=timezone.now(),
            )
            counts.rubbers += 1
            counts.pending_deals += [
                Deal(
                    rubber=rubber,
                    number=n,
                    contract=c,
                    declarer=d,
                    tricks=t,
                )
                for n, (c, d, t) in enumerate(deals, start=1)
            ]

    def _flush(self, counts: Counts) -> None:
        if counts.pending_deals:
            Deal.objects.bulk_create(counts.pending_deals, batch_size=BATCH)
            counts.deals += len(counts.pending_deals)
            counts.pending_deals = []
