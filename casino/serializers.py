"""The round check API's bodies."""

from __future__ import annotations

from rest_framework import serializers

from .models import CasinoRuleVersion, RoundCheck


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
