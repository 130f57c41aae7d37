"""The round check API (thin: the serializer shapes, the service computes and records)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response

from . import operations, services
from . import serializers as s
from .models import RecordedRound, RoundBatch
from .selectors import checks_by, tables_for_system, venues_visible


class RoundCheckAPI(ListAPIView):
    """POST a recorded round: every bet's payout with its rule clause, the voided (stake limit) and capped
    (win cap) excess, the total return and, when `paid` is given, the difference per bet and in total,
    computed with the rule version in force at `round_at`. Each check is recorded. GET lists the
    caller's own checks, newest first."""

    permission_required = "casino.check_round"
    serializer_class = s.RoundCheckSerializer

    def get_queryset(self):
        return checks_by(self.request.user)

    @extend_schema(request=s.RoundCheckRequestSerializer, responses={201: s.RoundCheckSerializer})
    def post(self, request):
        form = s.RoundCheckRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        check = services.round_check(actor=request.user, request=request, **form.validated_data)
        return Response(s.RoundCheckSerializer(check).data, status=status.HTTP_201_CREATED)


# --------------------------------------------------------------------------- casino operations (issue 19)


class VenueListAPI(ListAPIView):
    """Venues (staff who may see them)."""

    permission_required = "casino.view_venue"
    serializer_class = s.VenueSerializer

    def get_queryset(self):
        return venues_visible()


class TableListAPI(ListAPIView):
    """Tables with every configuration version. A table system sees only the tables assigned to it."""

    permission_required = "casino.record_round"
    serializer_class = s.TableSerializer

    def get_queryset(self):
        return tables_for_system(self.request.user).prefetch_related("versions")


class RoundsAPI(ListAPIView):
    """POST one round or a batch (`{"rounds": [...]}`), all or nothing: 201 with the batch, whose
    verification runs as a job; 400 naming each problem by row and field (`rounds[3].bets[0].stake`).
    GET lists the rounds of the caller's tables, newest first (`?table=venue/code`, `?since=<id>`)."""

    permission_required = "casino.record_round"
    serializer_class = s.RecordedRoundSerializer

    def get_queryset(self):
        qs = (RecordedRound.objects.filter(table__in=tables_for_system(self.request.user))
              .select_related("table__venue", "verification").prefetch_related("discrepancies"))
        table = self.request.query_params.get("table")
        if table and table.count("/") == 1:
            venue, code = table.split("/")
            qs = qs.filter(table__venue__code=venue, table__code=code)
        since = self.request.query_params.get("since", "")
        if since.isdigit():
            qs = qs.filter(id__gt=int(since))
        return qs.order_by("-id")

    @extend_schema(request=s.RoundsInSerializer, responses={201: None})
    def post(self, request):
        data = request.data
        rounds = data.get("rounds") if isinstance(data, dict) and "rounds" in data else [data]
        if not isinstance(rounds, list):
            rounds = [rounds]
        batch = operations.rounds_record(
            actor=request.user, rounds=rounds, source=RoundBatch.Source.API, request=request,
            allowed_tables=tables_for_system(request.user).values_list("pk", flat=True))
        return Response({"batch": batch.pk, "rounds": batch.rounds, "first_round": batch.first_round_id,
                         "last_round": batch.last_round_id, "state": batch.state}, status=status.HTTP_201_CREATED)
