"""REST API v1: rubbers, deals, corrections, confirmations, rulings and history (API.md).

Views parse input, call the model methods (which ask the write policy, games.permissions) and
render. Domain errors (`ScoringError` → 400 naming the rule, `games.models.Conflict` → 409,
`games.permissions.NotAllowed` → 403 with its reason) are mapped by
`config.api.exception_handler`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpResponseBase
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.permissions import signed_in_user
from clubs.selectors import session_for_reader
from scoring.shared.cache import cache_seconds, found_key, versioned_answer
from scoring.shared.renderers import SessionDealsCSV, with_csv

from . import exports, history
from .models import Deal, Rubber
from .permissions import (
    check_confirm,
    check_confirms,
    check_correct,
    check_delete,
    check_dispute,
    check_enter,
    check_rule,
)
from .registry import pages
from .selectors import (
    deal_for_reader,
    rubber_for_entry,
    rubber_for_reader,
    rubber_version_for_reader,
)
from .serializers import (
    ConfirmAllIn,
    ConfirmAllOut,
    DealConfirmIn,
    DealCorrectionSerializer,
    DealDeleteIn,
    DealDisputeIn,
    DealInSerializer,
    DealNumberIn,
    DealRuleIn,
    DealSerializer,
    DealWithRubberSerializer,
    DetailSerializer,
    ErrorsSerializer,
    HistoryEntrySerializer,
    RubberSerializer,
    SessionDealsOut,
    TwoPlayerCorrectionSerializer,
    TwoPlayerDealInSerializer,
    two_player_fields,
    written_json,
)

E400 = OpenApiResponse(
    ErrorsSerializer, description="Bad input or an impossible result; names the field and rule."
)
E401 = OpenApiResponse(DetailSerializer, description="Not signed in.")
E403 = OpenApiResponse(DetailSerializer, description="Signed in but not allowed.")
E404 = OpenApiResponse(DetailSerializer, description="No such object, or its club is hidden.")
E409 = OpenApiResponse(
    DetailSerializer,
    description="Conflicts with what is stored: a stale version, a finished rubber or closed "
    "session, or other content for a deal number already entered.",
)
TAGS = ["rubbers and deals"]


def _written(
    deal: Deal, rubber: Rubber, code: int, given: Mapping[int, history.Entrant] | None = None
) -> Response:
    """The deal, the rubber as now stored (with its deals), and the next rubber if it is over.
    A deal deleted (or moved on) since it was written is missing: Http404, as if it had gone
    before the request. Made without DRF's serializers (`written_json`, the same JSON as
    `DealWithRubberSerializer`); who entered the deals named from the seated players and
    `given` (`history.director_entrant`), else read."""
    deals = rubber.ordered_deals()
    written = next((d for d in deals if d.pk == deal.pk), None)
    if written is None:
        raise Http404("No such deal.")
    rubber.fetch_players()
    next_rubber = None
    if rubber.status == Rubber.Status.COMPLETE:
        found = rubber.next_rubber()
        next_rubber = None if found is None else found.pk
    names = history.entrants(
        rubber.session.club_id,
        [d.entered_by_id for d in deals],
        rubber.seats.values(),
        given,
    )
    return Response(written_json(written, rubber, next_rubber, names), status=code)


def rubber_answer_key(user: Any, pk: int) -> tuple[str, tuple[Any, ...], int]:
    """What a rubber's cached GET answer is kept under (Http404 if the user may not read it):
    the DRF view's and its fast path's (`cached_or_drf`) alike."""
    version = rubber_version_for_reader(user, pk)
    return "rubber", (pk, *version), cache_seconds("RUBBER_CACHE_SECONDS")


def _rubber_answer(request: Request, pk: int) -> HttpResponseBase:
    """GET's answer for a rubber: cached under its version (`answer_state`,
    scoring/shared/cache.py), else its deals and players read and rendered."""
    name, version, seconds = found_key(request) or rubber_answer_key(request.user, pk)
    return versioned_answer(
        request, name, version, seconds, lambda: RubberSerializer(_with_deals(pk)).data
    )


def _with_deals(pk: int) -> Rubber:
    # Read after its version: a rubber withdrawn in between (one with no deal, at a close or a
    # leaver's move) is missing, as it would have been a moment later.
    rubber = Rubber.objects.with_deals().filter(pk=pk).first()
    if rubber is None:
        raise Http404("No such rubber.")
    rubber.fetch_players()
    return rubber


class RubberDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="A rubber and its scoresheet",
        responses={200: RubberSerializer, 404: E404},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        return _rubber_answer(request, pk)


class RubberDeals(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Enter a deal",
        description="201 with the deal and the updated rubber; a retry of the same deal answers "
        "200 and changes nothing. `next_rubber` is set when the deal ended the rubber.",
        request=PolymorphicProxySerializer(
            component_name="AnyDealIn",
            serializers=[DealInSerializer, TwoPlayerDealInSerializer],
            resource_type_field_name=None,
        ),
        responses={
            201: DealWithRubberSerializer,
            200: DealWithRubberSerializer,
            400: E400,
            401: E401,
            403: E403,
            404: E404,
            409: E409,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        user = signed_in_user(request)
        rubber, actor = rubber_for_entry(user, pk)
        check_enter(actor)  # before the body is read (403 before 400); record_deal asks again
        if pages(rubber.kind).entry is not None:  # the game enters its own fields
            number = DealNumberIn(data=request.data)
            number.is_valid(raise_exception=True)
            deal, created = rubber.record_deal(
                number=number.validated_data["number"],
                data=two_player_fields(request.data),
                actor=actor,
            )
        else:
            serializer = DealInSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            deal, created = rubber.record_deal(**serializer.to_record_kwargs(), actor=actor)
        # Answered from the rubber as record_deal wrote it (no second read; docs/benchmarks.md).
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        # A director with no player here, as the entry check read them (no query for the name;
        # `viewer_player_id` is its EntryCheck's).
        player_id = getattr(rubber, "viewer_player_id", None)
        given = history.director_entrant(user.pk, actor.role, player_id)
        return _written(deal, deal.rubber, code, given)


class DealDetail(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(tags=TAGS, summary="A deal", responses={200: DealSerializer, 404: E404})
    def get(self, request: Request, pk: int) -> Response:
        deal, _ = deal_for_reader(request.user, pk)
        return Response(_deal_answer(deal))

    @extend_schema(
        tags=TAGS,
        summary="Correct a deal",
        description="Send the `version` you read and the fields to change; the others keep "
        "their stored values, and an unknown field is a 400. The rubber is re-scored from its "
        "deals. If the correction reopens a completed rubber, an empty next rubber is withdrawn; "
        "a next rubber that holds deals makes it a 409 naming them, unless a director sends "
        "`move_next_deals: true` to move them into this rubber (docs/rules.md).",
        request=PolymorphicProxySerializer(
            component_name="AnyDealCorrection",
            serializers=[DealCorrectionSerializer, TwoPlayerCorrectionSerializer],
            resource_type_field_name=None,
        ),
        responses={
            200: DealWithRubberSerializer,
            400: E400,
            401: E401,
            403: E403,
            404: E404,
            409: E409,
        },
    )
    def patch(self, request: Request, pk: int) -> Response:
        deal, viewer = deal_for_reader(request.user, pk)
        check_correct(viewer.actor)  # before the body is read; Deal.correct asks again
        serializer: DealCorrectionSerializer | TwoPlayerCorrectionSerializer
        if pages(deal.rubber.kind).entry is not None:
            serializer = TwoPlayerCorrectionSerializer(data=request.data)
        else:
            serializer = DealCorrectionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deal = deal.correct(
            version=serializer.validated_data["version"],
            actor=viewer.actor,
            move_next_deals=serializer.validated_data["move_next_deals"],
            **serializer.to_changes(),
        )
        rubber = Rubber.objects.with_deals().filter(pk=deal.rubber_id).first()
        if rubber is None:  # withdrawn since: the deal went with it
            raise Http404("No such deal.")
        return _written(deal, rubber, status.HTTP_200_OK)

    @extend_schema(
        tags=TAGS,
        summary="Delete the last deal of a rubber in play (a deal entered by mistake)",
        description="Send the `version` you read, as `?version=N` (or in a JSON body). Only the "
        "last deal of a rubber, Chicago or match in play, while its session runs; the same "
        "people as a correction. 204 and nothing in the body; the rubber is scored from the "
        "deals left, so the next deal takes the freed number and its vulnerability. The history "
        "keeps a `deleted` record with who deleted it. 409 when the deal changed since "
        "(`version`), is no longer the last (an entry landed first), finished the rubber "
        "(correct it instead) or the session is closed (docs/rules.md, §8 decision 7).",
        parameters=[
            OpenApiParameter(
                "version", int, required=True, description="The deal's version, as you read it."
            )
        ],
        request=None,
        responses={
            204: OpenApiResponse(description="Deleted."),
            400: E400,
            401: E401,
            403: E403,
            404: E404,
            409: E409,
        },
    )
    def delete(self, request: Request, pk: int) -> Response:
        deal, viewer = deal_for_reader(request.user, pk)
        check_delete(viewer.actor)  # before the body is read; Deal.delete_last asks again
        sent = DealDeleteIn(data=_delete_input(request))
        sent.is_valid(raise_exception=True)
        deal.delete_last(version=sent.validated_data["version"], actor=viewer.actor)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _delete_input(request: Request) -> Any:
    """The version a DELETE names, in its query string or its JSON body (DealDeleteIn); both
    must then agree. A body with other fields does not hide the query string's version; a body
    that is not an object (a list, a string, null) is refused as such (400), never read as one."""
    query, body = request.query_params, request.data
    if "version" not in query or not isinstance(body, Mapping):
        return body
    if "version" in body and str(body["version"]) != query["version"]:
        raise ValidationError(
            {"version": [_("The query string and the body name different versions.")]}
        )
    return query


class DealHistory(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="Every change of a deal",
        responses={200: HistoryEntrySerializer(many=True), 404: E404},
    )
    def get(self, request: Request, pk: int) -> Response:
        deal, _ = deal_for_reader(request.user, pk)
        entries = history.for_deal(deal, deal.rubber.session.club_id)
        return Response(HistoryEntrySerializer(entries, many=True).data)


class DealConfirm(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Confirm a deal (an opponent of the side that entered it)",
        request=DealConfirmIn,
        responses={200: DealSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        deal, viewer = deal_for_reader(request.user, pk)
        check_confirm(viewer.actor, deal)  # before the body is read; Deal.confirm asks again
        body = DealConfirmIn(data=request.data)
        body.is_valid(raise_exception=True)
        confirmed = deal.confirm(actor=viewer.actor, version=body.validated_data.get("version"))
        confirmed.rubber = deal.rubber  # as read, with its session
        return Response(_deal_answer(confirmed))


class RubberConfirmAll(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Confirm all the deals awaiting you at once (an opponent of the side that "
        "entered them)",
        description='As the pad\'s "Confirm all": send the deals of this rubber awaiting your '
        "confirmation, each with the `version` you read. All or none: a deal corrected since "
        "answers 409 saying what it is now, as does a deal not of this rubber; a deal disputed "
        "or settled since is left as it is (disputes stay per deal). 403 for the side that "
        "wrote a deal or someone not seated in the rubber; 409 too for a closed session or one "
        "that asks no confirmation. 200 with how many were confirmed and the deals sent as they "
        "now stand.",
        request=ConfirmAllIn,
        responses={200: ConfirmAllOut, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        rubber, viewer = rubber_for_reader(request.user, pk)
        check_confirms(viewer.actor)  # before the body is read; each deal asks again
        body = ConfirmAllIn(data=request.data)
        body.is_valid(raise_exception=True)
        seen = {deal["id"]: deal["version"] for deal in body.validated_data["deals"]}
        confirmed = rubber.confirm_deals(actor=viewer.actor, seen=seen)
        deals = list(Deal.objects.filter(rubber_id=rubber.pk, pk__in=seen).order_by("number"))
        for deal in deals:
            deal.rubber = rubber  # as read, with its session
        names = history.entrants(rubber.session.club_id, [deal.entered_by_id for deal in deals])
        return Response(
            {
                "confirmed": confirmed,
                "deals": DealSerializer(deals, many=True, context={"entrants": names}).data,
            }
        )


class DealDispute(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Dispute a deal, saying why (an opponent of the side that entered it)",
        description="Flags the deal for the director: `disputed` becomes true, with "
        "`dispute_reason` and `dispute_note` as sent. A director then corrects it or rules that "
        "it stands; either settles it. 400 names a bad `reason` or a `note` too long; 409 for "
        "a deal corrected since the `version` sent, or a closed session. Disputing twice, or a "
        "settled deal, changes nothing.",
        request=DealDisputeIn,
        responses={200: DealSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        deal, viewer = deal_for_reader(request.user, pk)
        check_dispute(viewer.actor, deal)  # before the body is read; Deal.dispute asks again
        body = DealDisputeIn(data=request.data)
        body.is_valid(raise_exception=True)
        given = body.validated_data
        disputed = deal.dispute(
            actor=viewer.actor,
            version=given.get("version"),
            reason=given["reason"],
            note=given.get("note", ""),
        )
        disputed.rubber = deal.rubber  # as read, with its session
        return Response(_deal_answer(disputed))


class DealRule(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        summary="Rule that a disputed deal stands (a director of the club)",
        description="Settles a dispute with no change: `disputed` becomes false and `ruled` "
        "true, and the deal no longer waits for a confirmation. Send the `version` you read: a "
        "deal corrected since answers 409 saying what it is now. 409 too for a closed session "
        "or a deal that is not disputed; ruling twice is harmless. A correction clears the "
        "ruling.",
        request=DealRuleIn,
        responses={200: DealSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
    )
    def post(self, request: Request, pk: int) -> Response:
        deal, viewer = deal_for_reader(request.user, pk)
        check_rule(viewer.actor)  # before the body is read; Deal.rule asks again
        body = DealRuleIn(data=request.data)
        body.is_valid(raise_exception=True)
        ruled = deal.rule(actor=viewer.actor, version=body.validated_data["version"])
        ruled.rubber = deal.rubber  # as read, with its session
        return Response(_deal_answer(ruled))


def _deal_answer(deal: Deal) -> dict[str, Any]:
    """One deal; who entered it as the club shows them (its `rubber` read with its session)."""
    names = history.entrants(deal.rubber.session.club_id, [deal.entered_by_id])
    return DealSerializer(deal, context={"entrants": names}).data


class SessionDeals(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = with_csv(SessionDealsCSV)

    @extend_schema(
        tags=TAGS,
        summary="Every deal of a session with its figures (also `?format=csv`)",
        description="One row per deal, by table, rubber and deal, with the running totals "
        "after it. Readable by whoever may read the session.",
        responses={200: SessionDealsOut, 404: E404},
    )
    def get(self, request: Request, pk: int) -> Response:
        session = session_for_reader(request.user, pk)
        return Response(SessionDealsOut(exports.session_deals(session)).data)
