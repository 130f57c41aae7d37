"""The round check API (thin: the serializer shapes, the service computes and records)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response

from . import serializers as s
from . import services
from .selectors import checks_by


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
