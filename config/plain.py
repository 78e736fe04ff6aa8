"""Baselines the HTTP benchmark measures the API against in the same run (bench/bench_http.py).
Not part of the public API or its schema, and mounted only when the benchmarks' settings ask for
them (`BENCH_PLAIN`).

- ``plain``: a plain JSON answer, with no database and no DRF.
- ``floor``: a deal's write with nothing but its writes, the floor under the API's POST: in one
  transaction the rubber locked and the deal and its history row inserted in one statement, then
  the session's standings marked stale and the club's leaderboard revised in one statement, as
  the POST writes them (no token, no check, no scoring, no answer but the deal's id). Raw SQL, no
  CSRF check (no browser ever reaches it: benchmarks only).
"""

import json

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt


def plain(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


#: The deal and its history row in one statement, as the POST writes them (games/models/rows.py).
_DEAL = (
    "WITH d AS (INSERT INTO games_deal (rubber_id, number, contract, declarer, tricks, "
    "honours_side, honours_points, data, entered_by_id, written_seat, written_phone, entered_at, "
    "updated_at, version, confirmed_by_id, disputed, dispute_reason, dispute_note, ruled) VALUES "
    "(%s, %s, %s, %s, %s, '', NULL, NULL, NULL, '', '', %s, %s, 1, NULL, false, '', '', false) "
    "RETURNING *) INSERT INTO games_historicaldeal (id, number, contract, declarer, tricks, "
    "honours_side, honours_points, data, written_seat, written_phone, entered_at, updated_at, "
    "version, disputed, dispute_reason, dispute_note, ruled, rubber_id, entered_by_id, "
    "confirmed_by_id, history_date, history_change_reason, history_type, history_user_id) SELECT "
    "id, number, contract, declarer, tricks, honours_side, honours_points, data, written_seat, "
    "written_phone, entered_at, updated_at, version, disputed, dispute_reason, dispute_note, "
    "ruled, rubber_id, entered_by_id, confirmed_by_id, %s, 'entered', '+', NULL FROM d "
    "RETURNING id"
)
_QUEUE = (
    "WITH state AS (UPDATE scoring_sessionstandingsstate SET stale = true, dirty = dirty + 1, "
    "requested_at = %s WHERE session_id = %s RETURNING 1) UPDATE scoring_leaderboardrevision SET "
    "revision = revision + 1, revised_at = %s WHERE club_id = (SELECT club_id FROM clubs_session "
    "WHERE id = %s) AND EXISTS (SELECT FROM state)"
)


@csrf_exempt
def floor(request: HttpRequest, pk: int) -> JsonResponse:
    deal = json.loads(request.body)
    now = timezone.now()
    facts = [deal["number"], deal["contract"], deal["declarer"], deal["tricks"]]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT session_id FROM games_rubber WHERE id = %s FOR NO KEY UPDATE", [pk])
        (session_id,) = cursor.fetchone()
        cursor.execute(_DEAL, [pk, *facts, now, now, now])
        (deal_id,) = cursor.fetchone()
    with connection.cursor() as cursor:
        cursor.execute(_QUEUE, [now, session_id, now, session_id])
    return JsonResponse({"id": deal_id}, status=201)
