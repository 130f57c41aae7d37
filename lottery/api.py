"""Draw pipeline API (thin: serializers validate, services change, selectors read).

Refusals: 409 when the draw's state does not allow the step, 403 when the four-eyes rule is broken,
400 for invalid input; the services raise and the API's one exception handler answers
{"code": ..., "detail": message} (compliance/api_errors.py).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance.api_errors import error_responses
from players.models import PlaySession
from players.selectors import channel_of, players_visible_to

from . import serializers as s
from . import services
from .games import registry
from .models import Draw, Payout, RetailImport, Wager
from .selectors import WinnerFilter, winners_page
from .services.retail import retail_import_submit
from .services.settlement import settled_run
from .services.wagers import wager_place


class DrawListAPI(ListAPIView):
    """Draws, newest first; ?game=lotto&state=open. POST schedules one (lottery.manage_draw)."""

    permission_required = "lottery.view_draw"
    serializer_class = s.DrawSerializer

    def get_queryset(self):
        flt = s.DrawFilterSerializer(data=self.request.query_params)
        flt.is_valid(raise_exception=True)
        qs = Draw.objects.select_related("game", "ruleset")
        if game := flt.validated_data.get("game"):
            qs = qs.filter(game__code=game)
        if state := flt.validated_data.get("state"):
            qs = qs.filter(state=state)
        return qs

    @extend_schema(parameters=[s.DrawFilterSerializer])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=s.DrawScheduleSerializer, responses={201: s.DrawSerializer})
    def post(self, request):
        if not request.user.has_perm("lottery.manage_draw"):
            raise PermissionDenied("Scheduling a draw needs lottery.manage_draw.")
        form = s.DrawScheduleSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        draw = services.draw_schedule(actor=request.user, request=request, **form.validated_data)
        return Response(s.DrawSerializer(draw).data, status=status.HTTP_201_CREATED)


class DrawDetailAPI(RetrieveAPIView):
    """A draw with its results, its settlement progress and its tier results."""

    permission_required = "lottery.view_draw"
    serializer_class = s.DrawDetailSerializer
    queryset = Draw.objects.select_related("game", "ruleset").prefetch_related("results")


class _DrawStep(APIView):
    """POST a step of the lifecycle to /draws/<id>/<step>/."""

    request_serializer = None

    def post(self, request, pk: int):
        draw = get_object_or_404(Draw.objects.select_related("game", "ruleset"), pk=pk)
        data = {}
        if self.request_serializer is not None:
            form = self.request_serializer(data=request.data)
            form.is_valid(raise_exception=True)
            data = form.validated_data
        self.step(draw, dict(data))
        draw.refresh_from_db()
        return Response(s.DrawDetailSerializer(draw).data)

    def step(self, draw, data):  # pragma: no cover
        raise NotImplementedError


RESULT_FIELDS = registry.result_fields()  # every game's result fields (their codecs say which)


def _result(data: dict) -> dict:
    return {k: data[k] for k in RESULT_FIELDS if data.get(k) not in (None, [])}


@extend_schema(request=None, responses={200: s.DrawDetailSerializer})
class DrawOpenAPI(_DrawStep):
    permission_required = "lottery.manage_draw"

    def step(self, draw, data):
        services.draw_open_sales(actor=self.request.user, draw=draw, request=self.request)


@extend_schema(request=None, responses={200: s.DrawDetailSerializer})
class DrawCloseAPI(_DrawStep):
    permission_required = "lottery.manage_draw"

    def step(self, draw, data):
        services.draw_close_sales(actor=self.request.user, draw=draw, request=self.request)


@extend_schema(request=s.JackpotSerializer, responses={200: s.DrawDetailSerializer})
class DrawJackpotAPI(_DrawStep):
    permission_required = "lottery.manage_draw"
    request_serializer = s.JackpotSerializer

    def step(self, draw, data):
        services.draw_set_jackpot(actor=self.request.user, draw=draw, jackpot_cents=data["jackpot_cents"],
                                  to_highest_class=data.get("to_highest_class"), request=self.request)


@extend_schema(request=s.ResultEntrySerializer, responses={200: s.DrawDetailSerializer})
class ResultEnterAPI(_DrawStep):
    permission_required = "lottery.enter_result"
    request_serializer = s.ResultEntrySerializer

    def step(self, draw, data):
        services.result_enter(actor=self.request.user, draw=draw, numbers=_result(data),
                              draw_method=data["draw_method"], witnesses=data["witnesses"], request=self.request)


@extend_schema(request=None, responses={200: s.DrawDetailSerializer})
class ResultConfirmAPI(_DrawStep):
    permission_required = "lottery.confirm_result"

    def step(self, draw, data):
        services.result_confirm(actor=self.request.user, draw=draw, request=self.request)


@extend_schema(request=s.ReasonSerializer, responses={200: s.DrawDetailSerializer})
class ResultRejectAPI(_DrawStep):
    permission_required = "lottery.confirm_result"
    request_serializer = s.ReasonSerializer

    def step(self, draw, data):
        services.result_reject(actor=self.request.user, draw=draw, reason=data["reason"], request=self.request)


@extend_schema(request=s.ReasonSerializer, responses={200: s.DrawDetailSerializer})
class DrawCancelAPI(_DrawStep):
    permission_required = "lottery.cancel_draw"
    request_serializer = s.ReasonSerializer

    def step(self, draw, data):
        services.draw_cancel(actor=self.request.user, draw=draw, reason=data["reason"], request=self.request)


@extend_schema(request=s.CorrectionSerializer, responses={200: s.DrawDetailSerializer})
class CorrectionRequestAPI(_DrawStep):
    permission_required = "lottery.correct_result"
    request_serializer = s.CorrectionSerializer

    def step(self, draw, data):
        services.correction_request(actor=self.request.user, draw=draw, numbers=_result(data), reason=data["reason"],
                                    request=self.request)


@extend_schema(request=None, responses={200: s.DrawDetailSerializer})
class CorrectionConfirmAPI(_DrawStep):
    permission_required = "lottery.correct_result"

    def step(self, draw, data):
        services.correction_confirm(actor=self.request.user, draw=draw, request=self.request)


class RetailImportUploadAPI(APIView):
    """POST a retail sales file (multipart, field `file`): stored and imported by a worker. 202 with
    the queued import (poll `GET /api/v1/retail-imports/<id>/` until `state` is `done` or `failed`);
    the same file while it is being imported: 202 with that import (`attached`: true); a file already
    imported for the draw: 422 with the refusal, as before."""

    permission_required = "lottery.import_sales"
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request={"multipart/form-data": s.RetailUploadSerializer}, responses={202: s.RetailImportSerializer,
                                                                                       422: s.RetailImportSerializer})
    def post(self, request, pk: int):
        draw = get_object_or_404(Draw, pk=pk)
        form = s.RetailUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        upload = form.validated_data["file"]
        record, attached = retail_import_submit(actor=request.user, draw=draw, stream=upload, file_name=upload.name,
                                                request=request)
        data = {**s.RetailImportSerializer(record).data, "attached": attached}
        if record.state == RetailImport.State.FAILED:
            return Response(data, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        code = status.HTTP_201_CREATED if record.state == RetailImport.State.DONE else status.HTTP_202_ACCEPTED
        return Response(data, status=code, headers={"Location": reverse("api:retail-import", args=[record.pk])})


class RetailImportDetailAPI(RetrieveAPIView):
    permission_required = "lottery.view_retailimport"
    serializer_class = s.RetailImportSerializer
    queryset = RetailImport.objects.all()


class WinnersAPI(APIView):
    """Winners of the draw's settled run: ?class_no=&min_prize_cents=&ticket=&order=line|prize&after=<cursor>.
    Keyset pagination: follow `next` (a cursor), there is no total count."""

    permission_required = "lottery.view_winning"

    @extend_schema(
        parameters=[s.WinnersQuerySerializer],
        responses={200: OpenApiTypes.OBJECT, **error_responses(409, e409="The draw has no settled run")},
    )
    def get(self, request, pk: int):
        draw = get_object_or_404(Draw, pk=pk)
        query = s.WinnersQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        q = query.validated_data
        run = settled_run(draw)
        if run is None:
            raise services.DrawStateError(_("%(draw)s has no settled run."), draw=str(draw))
        flt = WinnerFilter(class_no=q.get("class_no"), boosted=q.get("boosted"),
                           min_prize_cents=q.get("min_prize_cents"), ticket=q["ticket"], order=q["order"])
        rows, cursor = winners_page(run, flt, after=q.get("after") or None, limit=q["limit"])
        return Response({"run_version": run.version, "next": cursor, "results": s.WinningSerializer(rows, many=True).data})


class WagerPlaceAPI(APIView):
    """A sales channel places a player's wager: lines validated, player screened and the stake debited
    from the game account in one transaction. 201 when accepted, 200 when the reference was already
    accepted (idempotent); refusals say why (409 sales not open, 400 bad lines, 422 screening or funds)."""

    permission_required = "lottery.submit_wager"

    @extend_schema(request=s.WagerPlaceSerializer,
                   responses={201: s.WagerSerializer, 200: s.WagerSerializer,
                              **error_responses(404, 422, e404="No such player (of the caller's) or draw",
                                                 e422="Refused by player protection or the ledger")})
    def post(self, request):
        form = s.WagerPlaceSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data

        player = players_visible_to(request.user).select_related("account").filter(pk=data["player"]).first()
        if player is None:
            raise NotFound("No such player.")
        session = PlaySession.objects.filter(pk=data["session"], player=player).first()
        if not Draw.objects.filter(pk=data["draw"]).exists():
            raise NotFound("No such draw.")
        placed = wager_place(actor=request.user, draw=data["draw"], player=player, session=session,
                             reference=data["reference"], lines=data["lines"], addons=data.get("addons") or (),
                             request=request)
        return Response(s.WagerSerializer(placed.wager).data,
                        status=status.HTTP_200_OK if placed.replayed else status.HTTP_201_CREATED)


class WagerDetailAPI(RetrieveAPIView):
    """A wager and its lines. A sales channel sees only its own wagers."""

    permission_required = "lottery.view_wager"
    serializer_class = s.WagerSerializer

    def get_queryset(self):
        qs = Wager.objects.all()
        channel = channel_of(self.request.user)
        if channel is not None:
            return qs.filter(channel=channel.code)
        if not self.request.user.has_perm("compliance.access_backoffice"):
            return qs.none()
        return qs


@extend_schema(request=None, responses={200: s.DrawDetailSerializer})
class SettlementApproveAPI(_DrawStep):
    """Approve the settled draw for payout (a user other than the result's enterer and confirmer)."""

    permission_required = "lottery.approve_settlement"

    def step(self, draw, data):
        services.settlement_approve(actor=self.request.user, draw=draw, request=self.request)


class PayoutApproveAPI(APIView):
    """Approve a held large win (a user other than the settlement's approver)."""

    permission_required = "lottery.approve_large_win"

    @extend_schema(request=None, responses={200: s.PayoutSerializer})
    def post(self, request, pk: int):
        payout = get_object_or_404(Payout, pk=pk)
        payout = services.payout_approve_large(actor=request.user, payout=payout, request=request)
        payout.refresh_from_db()
        return Response(s.PayoutSerializer(payout).data)


class DrawPayoutsAPI(ListAPIView):
    """Payouts of a draw: ?state=held|due|paid|retail|failed."""

    permission_required = "lottery.view_payout"
    serializer_class = s.PayoutSerializer

    def get_queryset(self):
        flt = s.PayoutFilterSerializer(data=self.request.query_params)
        flt.is_valid(raise_exception=True)
        qs = Payout.objects.filter(draw_id=self.kwargs["pk"]).order_by("pk")
        if state := flt.validated_data.get("state"):
            qs = qs.filter(state=state)
        return qs

    @extend_schema(parameters=[s.PayoutFilterSerializer])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
