"""REST API v1: clubs, players, sessions, tables and rotations (docs/api.md).

Every view starts with a permission-checked lookup (`clubs.permissions`), parses input with an
explicit serializer, calls one service and renders an explicit output serializer. Domain errors
(`ValidationError`, `games.models.Conflict`, `ScoringError`) become 400/409 in `config.api`.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import services as club_services
from clubs.models import Club, Invitation, Player, Session, Table, TableSeat
from clubs.permissions import (
    IsClubDirectorOrReadOnly,
    check_club_access,
    is_director,
    signed_in_user,
)
from clubs.selectors import club_for_reader
from clubs.serializers import (
    ArrivalsIn,
    ClubIn,
    ClubOut,
    DetailOut,
    ErrorsOut,
    InvitationOut,
    LeaverIn,
    PlayerDirectorOut,
    PlayerIn,
    PlayerOut,
    SeatingOut,
    SessionIn,
    SessionOut,
    SessionStartIn,
    SubstituteIn,
    TableChangeOut,
    TableOut,
    TablePlayerIn,
)
from games.models import Rubber
from games.sessions import ahead, arrivals, lifecycle, table_changes
from scoring.shared import inputs
from scoring.shared.inputs import NoBodyIn

E400 = OpenApiResponse(ErrorsOut, description="Bad input: `{errors: {field: [messages]}}`.")
E401 = OpenApiResponse(DetailOut, description="Not signed in.")
E403 = OpenApiResponse(DetailOut, description="Signed in, but not a director of this club.")
E404 = OpenApiResponse(
    DetailOut,
    description="No such object, or it belongs to a members-only club the user is not in.",
)
E409 = OpenApiResponse(DetailOut, description="Conflicts with the session's state.")
READ_ERRORS = {404: E404}
WRITE_ERRORS = {400: E400, 401: E401, 403: E403, 404: E404}

TAGS_CLUBS = ["clubs"]
TAGS_SESSIONS = ["sessions"]


def table_queryset() -> QuerySet[Table]:
    """Tables with their seated players and the rubber in play (a fixed number of queries)."""
    return Table.objects.prefetch_related(
        Prefetch("seats", queryset=TableSeat.objects.select_related("player")),
        Prefetch(
            "rubbers",
            queryset=Rubber.objects.filter(status=Rubber.Status.IN_PLAY),
            to_attr="rubbers_in_play",
        ),
    )


def session_queryset() -> QuerySet[Session]:
    return Session.objects.select_related("club").prefetch_related(
        Prefetch("tables", queryset=table_queryset())
    )


def _session(request: Request, pk: int, *, director: bool = False) -> Session:
    session = session_queryset().filter(pk=pk).first()
    if session is None:
        raise Http404("No such session.")
    check_club_access(request.user, session.club, director=director)
    return session


def _table(session: Session, number: int) -> Table:
    table = (
        table_queryset()
        .select_related("session__club")
        .filter(session=session, number=number)
        .first()
    )
    if table is None:
        raise Http404("No such table in this session.")
    return table


def _session_out(pk: int) -> dict[str, Any]:
    """A director's write answered as its GET answers the director: each table's code as the
    cards carry it (`TableOut.get_code`). Read again after the write: a session another
    director deleted since is missing."""
    session = session_queryset().filter(pk=pk).first()
    if session is None:
        raise Http404("No such session.")
    return SessionOut(session, context={"director": True}).data


# --- clubs -------------------------------------------------------------------------------------


class ClubListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=TAGS_CLUBS,
        summary="Clubs this user may see",
        responses={200: ClubOut(many=True)},
    )
    def get(self, request: Request) -> Response:
        clubs = Club.objects.visible_to(request.user).order_by("name")
        return Response(ClubOut(clubs, many=True).data)

    @extend_schema(
        tags=TAGS_CLUBS,
        summary="Create a club (the creator becomes its director)",
        request=ClubIn,
        responses={201: ClubOut, 400: E400, 401: E401},
    )
    def post(self, request: Request) -> Response:
        data = ClubIn(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_services.club_create(
            slug=data.validated_data["slug"],
            name=data.validated_data["name"],
            public=data.validated_data["public"],
            rules_preset=data.validated_data["rules_preset"],
            rules=data.validated_data["rules"],
            default_stake=data.validated_data["default_stake"],
            currency=data.validated_data["currency"].upper(),
            language=data.validated_data["language"],
            director=signed_in_user(request),
        )
        return Response(ClubOut(club).data, status=status.HTTP_201_CREATED)


class ClubDetailView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(tags=TAGS_CLUBS, summary="A club", responses={200: ClubOut, **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(ClubOut(club_for_reader(request.user, slug)).data)


class PlayerListView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_CLUBS,
        summary="The club's players (with their logins for the club's directors)",
        responses={200: PlayerDirectorOut(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = club_for_reader(request.user, slug)
        players = (
            Player.objects.filter(club=club)
            .select_related("user")
            .annotate(invited=Exists(Invitation.objects.filter(player=OuterRef("pk"))))
            .order_by("name")
        )
        out = PlayerDirectorOut if is_director(request.user, club) else PlayerOut
        return Response(out(players, many=True).data)

    @extend_schema(
        tags=TAGS_CLUBS,
        summary="Add a player (director only): invite an existing login, or create a new one",
        request=PlayerIn,
        responses={201: PlayerDirectorOut, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        club = club_for_reader(request.user, slug, director=True)
        data = PlayerIn(data=request.data)
        data.is_valid(raise_exception=True)
        player = club_services.player_create(
            club=club,
            name=data.validated_data["name"],
            username=data.validated_data.get("username") or None,
            password=data.validated_data.get("password") or None,
            director=data.validated_data["director"],
            email=data.validated_data.get("email") or "",
        )
        return Response(PlayerDirectorOut(player).data, status=status.HTTP_201_CREATED)


# --- invitations -------------------------------------------------------------------------------

TAGS_INVITATIONS = ["invitations"]
E404_INVITATION = OpenApiResponse(
    DetailOut, description="No such invitation, or it is another login's."
)


class InvitationListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS_INVITATIONS,
        summary="The signed-in login's pending invitations to be a club's player",
        responses={200: InvitationOut(many=True), 401: E401},
    )
    def get(self, request: Request) -> Response:
        invitations = Invitation.objects.for_holder(request.user).select_related("player__club")
        return Response(InvitationOut(invitations, many=True).data)


class InvitationAcceptView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS_INVITATIONS,
        summary="Accept: the player is linked to this login, which joins the club",
        request=None,
        responses={200: PlayerOut, 400: E400, 401: E401, 404: E404_INVITATION, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        NoBodyIn.check(request.data)
        try:
            player = club_services.invitation_accept(invitation_id=pk, user=signed_in_user(request))
        except Invitation.DoesNotExist as err:
            raise Http404("No such invitation.") from err
        return Response(PlayerOut(player).data)


class InvitationDeclineView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS_INVITATIONS,
        summary="Decline: the invitation is deleted; the player stays unlinked",
        request=None,
        responses={204: None, 400: E400, 401: E401, 404: E404_INVITATION},
    )
    def post(self, request: Request, pk: int) -> Response:
        NoBodyIn.check(request.data)
        try:
            club_services.invitation_decline(invitation_id=pk, user=signed_in_user(request))
        except Invitation.DoesNotExist as err:
            raise Http404("No such invitation.") from err
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- sessions ----------------------------------------------------------------------------------


class SessionListView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="The club's sessions, newest first",
        responses={200: SessionOut(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = club_for_reader(request.user, slug)
        sessions = session_queryset().filter(club=club)
        return Response(SessionOut(sessions, many=True).data)

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Plan a session (director only)",
        request=SessionIn,
        responses={201: SessionOut, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        club = club_for_reader(request.user, slug, director=True)
        data = SessionIn(data=request.data, context={"club": club})
        data.is_valid(raise_exception=True)
        session = lifecycle.session_create(
            club=club,
            date=data.validated_data["date"],
            kind=data.validated_data["kind"],
            movement=data.validated_data["movement"],
            stake_per_hundred=data.validated_data.get("stake_per_hundred"),
            tables=data.validated_data["tables"],
            created_by=signed_in_user(request),
        )
        return Response(_session_out(session.pk), status=status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="A session with its tables and the rubber in play at each",
        responses={200: SessionOut, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        session = _session(request, pk)
        director = is_director(request.user, session.club)
        return Response(SessionOut(session, context={"director": director}).data)

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Re-seat a planned session (director only)",
        description=(
            "Any of the planning fields (`tables`, `date`, `kind`, `movement`, "
            "`stake_per_hundred`), validated as when planning; what is not sent is kept. "
            "409 once the session has started."
        ),
        request=SessionIn(partial=True),
        responses={200: SessionOut, **WRITE_ERRORS, 409: E409},
    )
    def patch(self, request: Request, pk: int) -> Response:
        session = _session(request, pk, director=True)
        data = SessionIn(data=request.data, partial=True, context={"club": session.club})
        data.is_valid(raise_exception=True)
        lifecycle.session_reseat(session=session, by=signed_in_user(request), **data.validated_data)
        return Response(_session_out(session.pk))


class SessionStartView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Start a planned session: every table gets its first rubber",
        description=(
            "400 on `tables` naming each player seated in another running session: one of the "
            "same day always; one of another day left running unless `anyway` is true (the "
            "session's history then names them). 409 once started."
        ),
        request=SessionStartIn,
        responses={200: SessionOut, **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _session(request, pk, director=True)
        data = SessionStartIn(data=request.data)
        data.is_valid(raise_exception=True)
        lifecycle.session_start(
            session=session, by=signed_in_user(request), anyway=data.validated_data["anyway"]
        )
        return Response(_session_out(session.pk))


class SessionCloseView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Close a running session: rubbers in play close as unfinished (RULES 2.6)",
        request=None,
        responses={200: SessionOut, **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _session(request, pk, director=True)
        NoBodyIn.check(request.data)
        lifecycle.session_close(session=session, by=signed_in_user(request))
        return Response(_session_out(session.pk))


class SessionReopenView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Reopen a closed session for corrections; close it again to recompute",
        description=(
            "The session runs again (no rubber starts; rubbers closed unfinished stay as "
            "played) so deals can be corrected; `closed_at` keeps the last close until it "
            "closes again. 409 unless the session is closed."
        ),
        request=None,
        responses={200: SessionOut, **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _session(request, pk, director=True)
        NoBodyIn.check(request.data)
        lifecycle.session_reopen(session=session, by=signed_in_user(request))
        return Response(_session_out(session.pk))


class AheadIn(serializers.Serializer[Any]):
    ahead = inputs.IntegerField(min_value=0, max_value=30, default=3)


class TableRotationView(APIView):
    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="The rubber in play at a table and the seatings planned after it (RULES 6)",
        parameters=[
            OpenApiParameter(
                "ahead", int, description="How many rubbers to plan ahead (0-30, default 3)."
            )
        ],
        responses={200: SeatingOut(many=True), 400: E400, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        session = _session(request, pk)
        table = _table(session, number)
        params = AheadIn(data=request.query_params)
        params.is_valid(raise_exception=True)
        seatings = ahead.table_rotation(table=table, ahead=params.validated_data["ahead"])
        return Response(SeatingOut(seatings, many=True).data)


class TablePlayersView(APIView):
    """Late arrivals and early leavers: the rotation is re-planned from the next rubber."""

    permission_classes = [IsClubDirectorOrReadOnly]

    def _parse(self, request: Request, session: Session) -> Player:
        raw = request.data if request.data else request.query_params
        data = TablePlayerIn(data=raw, context={"club": session.club})
        data.is_valid(raise_exception=True)
        return cast(Player, data.validated_data["player"])

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Seat a late arrival at a table (director only)",
        request=TablePlayerIn,
        responses={201: TableOut, **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        session = _session(request, pk, director=True)
        table = _table(session, number)
        player = self._parse(request, session)
        table_changes.table_add_player(table=table, player=player)
        return Response(TableOut(_table(session, number)).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="An early leaver leaves a table after the rubber in play (director only)",
        request=TablePlayerIn,
        parameters=[
            OpenApiParameter(
                "player", int, description="The player id, when the client cannot send a body."
            )
        ],
        responses={200: TableOut, **WRITE_ERRORS, 409: E409},
    )
    def delete(self, request: Request, pk: int, number: int) -> Response:
        session = _session(request, pk, director=True)
        table = _table(session, number)
        player = self._parse(request, session)
        table_changes.table_remove_player(table=table, player=player)
        return Response(TableOut(_table(session, number)).data)


class TableSubstituteView(APIView):
    """An early leaver replaced (issue 18): from the next rubber, or at once when the rubber in
    play has no deal yet."""

    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Replace an early leaver by a substitute (director only)",
        request=SubstituteIn,
        responses={200: TableChangeOut, **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        session = _session(request, pk, director=True)
        table = _table(session, number)
        data = SubstituteIn(data=request.data, context={"club": session.club})
        data.is_valid(raise_exception=True)
        change = table_changes.table_substitute(
            table=table,
            leaver=data.validated_data["leaver"],
            substitute=data.validated_data["substitute"],
            new_name=data.validated_data["name"],
            by=signed_in_user(request),
        )
        return Response(TableChangeOut(change).data)


class TableLeaveView(APIView):
    """An early leaver with nobody to replace them: the table's rubber in play closes
    unfinished (RULES 2.6) and the room is re-planned (RULES 6.2)."""

    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Close a table's rubber for an early leaver and re-plan the room (director only)",
        request=LeaverIn,
        responses={200: TableChangeOut(many=True), **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        session = _session(request, pk, director=True)
        table = _table(session, number)
        data = LeaverIn(data=request.data, context={"club": session.club})
        data.is_valid(raise_exception=True)
        made = table_changes.table_leave_and_replan(
            table=table, leaver=data.validated_data["leaver"], by=signed_in_user(request)
        )
        return Response(TableChangeOut(made, many=True).data)


class SessionArrivalsView(APIView):
    """Late arrivals: a new table of their own, or a cut-in (issue 18, RULES 6.2)."""

    permission_classes = [IsClubDirectorOrReadOnly]

    @extend_schema(
        tags=TAGS_SESSIONS,
        summary="Seat late arrivals at a new table or cutting in (director only)",
        request=ArrivalsIn,
        responses={201: TableChangeOut(many=True), **WRITE_ERRORS, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = _session(request, pk, director=True)
        data = ArrivalsIn(data=request.data, context={"club": session.club})
        data.is_valid(raise_exception=True)
        made = arrivals.session_add_arrivals(
            session=session,
            players=data.validated_data["players"],
            names=data.validated_data["names"],
            mode=data.validated_data["mode"],
            table_number=data.validated_data["table"],
            by=signed_in_user(request),
        )
        return Response(TableChangeOut(made, many=True).data, status=status.HTTP_201_CREATED)
