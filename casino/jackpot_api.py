"""The jackpots over the API (read only): a table system reads the jackpots linked to its tables, with
the terms in force, the posted balance and what verified rounds accrued that is not posted yet, to
check what its display shows (docs/casino-operations.md, "Jackpots")."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response

from .jackpot_selectors import jackpots_for_system, pending_by_jackpot, version_in_force
from .models import Jackpot, JackpotVersion


class CasinoJackpotTermsSerializer(serializers.ModelSerializer):
    overflow_to = serializers.StringRelatedField()
    tables = serializers.StringRelatedField(many=True, help_text="venue/table codes")
    contribution_rate = serializers.DecimalField(max_digits=7, decimal_places=6, coerce_to_string=True)

    class Meta:
        model = JackpotVersion
        fields = ["version", "effective_from", "name", "kind", "bet_type", "participation_fee_cents",
                  "contribution_rate", "seed_cents", "reset_cents", "max_cents", "overflow", "overflow_to",
                  "max_win_cents", "instructions", "tables"]
        read_only_fields = fields


class CasinoJackpotSerializer(serializers.ModelSerializer):
    venue = serializers.SlugRelatedField(slug_field="code", read_only=True)
    terms = serializers.SerializerMethodField()
    balance_cents = serializers.IntegerField(read_only=True)
    pending_contributions_cents = serializers.SerializerMethodField()
    pending_wins_cents = serializers.SerializerMethodField()

    class Meta:
        model = Jackpot
        fields = ["id", "venue", "code", "state", "pot_cents", "held_cents", "balance_cents", "posted_through",
                  "pending_contributions_cents", "pending_wins_cents", "terms"]
        read_only_fields = fields

    def _pending(self, obj):
        return self.context.get("pending", {}).get(obj.pk)

    @extend_schema_field(CasinoJackpotTermsSerializer)
    def get_terms(self, obj) -> dict:
        return CasinoJackpotTermsSerializer(version_in_force(obj.versions.all())).data

    def get_pending_contributions_cents(self, obj) -> int:
        pending = self._pending(obj)
        return pending.contributions_cents if pending else 0

    def get_pending_wins_cents(self, obj) -> int:
        pending = self._pending(obj)
        return pending.wins_cents if pending else 0


class JackpotListAPI(ListAPIView):
    """Jackpots linked to the caller's tables (a table system: those assigned to it; staff who record
    rounds: all), with the terms in force, the posted pot and held reserve, and what is accrued and not
    posted yet (the end of the gaming day posts it)."""

    permission_required = "casino.record_round"
    serializer_class = CasinoJackpotSerializer

    def get_queryset(self):
        return jackpots_for_system(self.request.user)

    def get_serializer_context(self):
        context = super().get_serializer_context()
        page = getattr(self, "_ids", None)
        context["pending"] = pending_by_jackpot(page) if page is not None else {}
        return context

    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        rows = list(page if page is not None else queryset)
        self._ids = [j.pk for j in rows]
        serializer = self.get_serializer(rows, many=True)
        if page is not None:
            return self.get_paginated_response(serializer.data)
        return Response(serializer.data)
