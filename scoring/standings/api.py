"""REST API v1: session standings, settlement and the club leaderboard (API.md: Standings).

Reads only, as JSON or, with `?format=csv`, as CSV (one row per player or payment:
scoring/shared/renderers.py). Each view does a permission-checked lookup (clubs.permissions: a
members-only club is 404 to outsiders) and renders rows the refresh stored, in a constant number
of queries.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.http import HttpResponseBase
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Player
from clubs.permissions import signed_in_user
from clubs.selectors import club_id_for_reader, session_for_reader
from clubs.serializers import DetailOut, ErrorsOut
from games.permissions import Actor
from scoring.shared.cache import found_key, leaderboard_cache_seconds, versioned_answer
from scoring.shared.renderers import (
    LeaderboardCSV,
    RatingsCSV,
    SettlementCSV,
    StandingsCSV,
    with_csv,
)

from . import cuts, queries, ratings
from .serializers import (
    LeaderboardOut,
    LeaderboardQueryIn,
    PrizeCutIn,
    PrizesOut,
    RatingsOut,
    RatingsQueryIn,
    SessionStandingsOut,
    SettlementOut,
)

TAGS = ["standings"]
E400 = OpenApiResponse(ErrorsOut, description="Bad dates: `{errors: {field: [messages]}}`.")
E400_POOL = OpenApiResponse(ErrorsOut, description="Unknown pool: `{errors: {pool: [messages]}}`.")
E404 = OpenApiResponse(
    DetailOut,
    description="No such object, or it belongs to a members-only club the user is not in.",
)


class SessionStandingsView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(StandingsCSV)

    @extend_schema(
        tags=TAGS,
        summary="A session's standings: room, tables and prizes",
        description=(
            "Precomputed by Celery after each change; `stale` is true while a refresh is "
            "pending. Ended rubbers count; a rubber in play shows under `running` only."
        ),
        responses={200: SessionStandingsOut, 404: E404},
    )
    def get(self, request: Request, pk: int) -> Response:
        session = session_for_reader(request.user, pk)
        return Response(SessionStandingsOut(queries.session_standings(session)).data)


class PrizeCutsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Record the cut between winners sharing a prize's choice (the club's directors)",
        description=(
            "RULES 6.3: winners with equal figures share a choice of prize; a cut at the table "
            "decides who chooses first. Name its winner: the cut is recorded among the players "
            "still sharing that choice, kept in the session's history, and the prizes answer "
            "in their new order."
        ),
        request=PrizeCutIn,
        responses={
            201: PrizesOut,
            400: OpenApiResponse(ErrorsOut, description="`{errors: {winner: [messages]}}`."),
            401: DetailOut,
            403: DetailOut,
            404: E404,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        user = signed_in_user(request)
        session = session_for_reader(user, pk, director=True)
        data = PrizeCutIn(data=request.data)
        data.is_valid(raise_exception=True)
        winner = Player.objects.filter(club_id=session.club_id, pk=data.validated_data["winner"])
        if not winner.exists():
            raise serializers.ValidationError(
                {"winner": [gettext("No player of this club has this id.")]}
            )
        cuts.prize_cut_record(
            actor=Actor.in_club(user, session.club),
            session=session,
            winner=winner.get(),
            by=user,
            again=data.validated_data["again"],
        )
        prizes = queries.session_standings(session)["prizes"]
        return Response(PrizesOut({"prizes": prizes}).data, status=status.HTTP_201_CREATED)


class SessionSettlementView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(SettlementCSV)

    @extend_schema(
        tags=TAGS,
        summary="Who pays whom to settle a session (fewest payments, RULES 4.2)",
        responses={200: SettlementOut, 404: E404},
    )
    def get(self, request: Request, pk: int) -> Response:
        session = session_for_reader(request.user, pk)
        return Response(SettlementOut(queries.session_settlement(session)).data)


def leaderboard_answer_key(
    user: Any,
    slug: str,
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    kind: str = ratings.BRIDGE,
) -> tuple[str, tuple[Any, ...], int]:
    """What a club's cached board for a period and ladder is kept under (Http404 if the user may
    not read the club): the DRF view's and its fast path's (`cached_or_drf`) alike."""
    version = queries.leaderboard_version_for_reader(user, slug)
    return "leaderboard", ((slug, *version), (start, end, kind)), leaderboard_cache_seconds()


class ClubLeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(LeaderboardCSV)

    @extend_schema(
        tags=TAGS,
        summary="The club's leaderboard of one game over a period (all time without dates)",
        description=(
            "Rubber bridge and Chicago make one ladder (`kind=bridge`, the default); each "
            "two-player game has its own: a hundred of one game never counts in another's."
        ),
        parameters=[
            OpenApiParameter("from", OpenApiTypes.DATE, description="First day (inclusive)."),
            OpenApiParameter("to", OpenApiTypes.DATE, description="Last day (inclusive)."),
            OpenApiParameter(
                "kind",
                OpenApiTypes.STR,
                enum=list(queries.LADDERS),
                default=ratings.BRIDGE,
                description="bridge (rubber and Chicago together) or a two-player game kind.",
            ),
        ],
        responses={200: LeaderboardOut, 400: E400, 404: E404},
    )
    def get(self, request: Request, slug: str) -> HttpResponseBase:
        # The club's id, its board's version and the read check only: a cached board needs
        # nothing more.
        start = end = None
        kind = ratings.BRIDGE
        if request.query_params:
            query = LeaderboardQueryIn(data=request.query_params)
            query.is_valid(raise_exception=True)
            start, end = query.validated_data.get("from"), query.validated_data.get("to")
            kind = query.validated_data["kind"]
        key = found_key(request) or leaderboard_answer_key(request.user, slug, start, end, kind)
        name, version, seconds = key
        club_id = version[0][1]

        def build() -> dict[str, Any]:
            board = queries.club_leaderboard(club_id, slug, start, end, kind=kind)
            return LeaderboardOut(board).data

        return versioned_answer(request, name, version, seconds, build)


class ClubRatingsView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(RatingsCSV)

    @extend_schema(
        tags=TAGS,
        summary="The club's ratings in one pool (OpenSkill Plackett-Luce, docs/ratings.md)",
        description=(
            "Replayed by Celery over the club's ended rubbers after each change; `stale` is true "
            "while a refresh is pending. Players with no rated match are not listed; highest "
            "`ordinal` (mu - 3 sigma) first."
        ),
        parameters=[
            OpenApiParameter(
                "pool",
                OpenApiTypes.STR,
                enum=list(ratings.POOLS),
                default=ratings.BRIDGE,
                description="bridge (rubber and Chicago together) or a two-player game kind.",
            )
        ],
        responses={200: RatingsOut, 400: E400_POOL, 404: E404},
    )
    def get(self, request: Request, slug: str) -> Response:
        club_id = club_id_for_reader(request.user, slug)
        query = RatingsQueryIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = ratings.club_ratings(club_id, query.validated_data["pool"])
        return Response(RatingsOut(data).data)
