"""The round check API's bodies."""

from __future__ import annotations

from rest_framework import serializers

from .models import CasinoRuleVersion, Discrepancy, RecordedRound, RoundCheck, Table, TableVersion, Venue


class RoundCheckRequestSerializer(serializers.Serializer):
    """A recorded round, as `casino_compute` takes it (docs/casino.md), plus what was paid and when."""

    rulebook = serializers.CharField(max_length=3, help_text='"000", "002" or "004"')
    game = serializers.CharField(max_length=40, help_text="e.g. roulette, blackjack, punto_banco")
    variant = serializers.CharField(max_length=60, help_text="a variant of the game (GET /casino/rules/ lists them)")
    venue = serializers.JSONField(
        help_text='A venue kind ("casino", "game_hall", "ray", "billionaire"), or an object {"kind", "max_stake", '
                  '"win_cap", "min_age"} with the table\'s own lower limits.')
    bets = serializers.ListField(
        child=serializers.DictField(), min_length=1, max_length=500,
        help_text='The bets in the table\'s order: {"type", "stake": "25.00", "box", "player", "player_age", ...the '
                  "bet's own fields}.")
    outcome = serializers.DictField(help_text='What the table produced; cards as text ("As Kh").')
    paid = serializers.ListField(
        child=serializers.CharField(allow_null=True, max_length=20), required=False, allow_null=True,
        help_text="Optional: the amount actually paid per bet (decimal strings; null where not known).")
    round_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the round was played (selects the rule version); default now.")


class RuleVersionRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = CasinoRuleVersion
        fields = ["id", "rulebook", "game", "variant", "version", "effective_from", "rules_sha256"]


class RoundCheckSerializer(serializers.ModelSerializer):
    rule_version = RuleVersionRefSerializer(read_only=True)
    answer = serializers.JSONField(
        read_only=True, help_text="casino_compute's answer (bets with payout, rule, voided and capped excess; "
                                  "totals), plus paid and difference per bet and in total when amounts were given.")
    round_input = serializers.JSONField(read_only=True)

    class Meta:
        model = RoundCheck
        fields = ["id", "checked_at", "checked_by_name", "rulebook", "game", "variant", "round_at", "rule_version",
                  "round_input", "answer", "total_return_cents", "paid_total_cents", "difference_cents"]
        read_only_fields = fields


# --------------------------------------------------------------------------- casino operations (issue 19)


class VenueSerializer(serializers.ModelSerializer):
    class Meta:
        model = Venue
        fields = ["id", "code", "name", "kind", "rulebook", "jurisdiction", "currency", "min_age"]
        read_only_fields = fields


class TableVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = TableVersion
        fields = ["version", "effective_from", "variant", "rule_version", "min_stake_cents", "max_stake_cents",
                  "win_cap_cents", "side_games", "opening_hours", "payout_sign", "zero_rule", "records"]
        read_only_fields = fields


class TableSerializer(serializers.ModelSerializer):
    venue = serializers.SlugRelatedField(slug_field="code", read_only=True)
    versions = TableVersionSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = ["id", "venue", "code", "game", "versions"]
        read_only_fields = fields


class RoundInSerializer(serializers.Serializer):
    """One recorded round (docs/casino-operations.md): checked whole by the service, which names each
    problem by row and field."""

    table = serializers.JSONField(help_text='"venue/table" code, or the table\'s id')
    ref = serializers.JSONField(help_text="the table system's round reference (unique per table)")
    played_at = serializers.JSONField(help_text="when the round was played, ISO 8601 with its zone")
    bets = serializers.JSONField(help_text='[{"type", "stake": "25.00", "box", "person": <player id>, ...}]')
    outcome = serializers.JSONField(help_text="what the table produced (docs/casino.md)")
    paid = serializers.JSONField(help_text='what was paid per bet: ["0.00", "36.00"]')
    corrects = serializers.JSONField(required=False, help_text="the reference of the round this one corrects")


class RoundsInSerializer(serializers.Serializer):
    rounds = serializers.ListField(child=serializers.JSONField(), min_length=1, max_length=10_000)


class DiscrepancySerializer(serializers.ModelSerializer):
    class Meta:
        model = Discrepancy
        fields = ["id", "kind", "bet_index", "amount_cents", "detail", "resolved_at", "resolution_note"]
        read_only_fields = fields


class RecordedRoundSerializer(serializers.ModelSerializer):
    table = serializers.StringRelatedField()
    verified = serializers.SerializerMethodField()
    due_total_cents = serializers.SerializerMethodField()
    discrepancies = DiscrepancySerializer(many=True, read_only=True)

    class Meta:
        model = RecordedRound
        fields = ["id", "batch", "table", "ref", "game", "played_at", "bets", "outcome", "paid_cents",
                  "paid_total_cents", "corrects", "verified", "due_total_cents", "discrepancies"]
        read_only_fields = fields

    def _verification(self, obj):
        try:
            return obj.verification
        except RecordedRound.verification.RelatedObjectDoesNotExist:
            return None

    def get_verified(self, obj) -> bool:
        return self._verification(obj) is not None

    def get_due_total_cents(self, obj) -> int | None:
        v = self._verification(obj)
        return None if v is None else v.due_total_cents
