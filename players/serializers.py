"""API input validation (400 with field errors) and output shapes of the players API."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from rest_framework import serializers

from compliance.bounds import BIGINT_MAX

from .models import (
    LedgerEntry,
    LimitKind,
    LimitPeriod,
    PendingPayout,
    PlayerLimit,
    PlaySession,
    SelfExclusion,
    SessionReminder,
)
from .rules import MAX_AMOUNT_CENTS

MAX_CENTS = MAX_AMOUNT_CENTS  # far above any real amount; keeps the numbers in range (players/rules.py)


# --- Input -----------------------------------------------------------------------------------------


class RegisterSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=150)
    last_name = serializers.CharField(max_length=150)
    birth_date = serializers.DateField()
    national_id = serializers.CharField(max_length=64, write_only=True)
    id_country = serializers.CharField(max_length=2, min_length=2, default="FI")
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    phone = serializers.CharField(max_length=32, required=False, allow_blank=True, default="")
    street_address = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    postal_code = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    country_of_residence = serializers.CharField(max_length=2, min_length=2, default="FI")
    jurisdiction = serializers.CharField(max_length=8, required=False, help_text="FI (18+) or UA (21+)")

    def validate_jurisdiction(self, value: str) -> str:
        if value not in settings.PLAYER_MIN_AGE:
            raise serializers.ValidationError(
                f"Unknown jurisdiction; one of {', '.join(sorted(settings.PLAYER_MIN_AGE))}."
            )
        return value


class VerificationSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=["verified", "rejected"])
    method = serializers.CharField(max_length=50, help_text="e.g. bank_id, mobile_id, passport")
    note = serializers.CharField(max_length=255, required=False, allow_blank=True, default="")


class MoneySerializer(serializers.Serializer):
    amount_cents = serializers.IntegerField(min_value=1, max_value=MAX_CENTS)
    reference = serializers.CharField(
        max_length=100,
        help_text="Unique per business event: a retry with the same reference does nothing twice.",
    )


class StakeSerializer(MoneySerializer):
    session = serializers.IntegerField(
        min_value=1, max_value=BIGINT_MAX, help_text="The open play session the stake is placed in."
    )
    game = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PrizeSerializer(MoneySerializer):
    session = serializers.IntegerField(
        min_value=1, max_value=BIGINT_MAX, required=False, allow_null=True, default=None
    )
    game = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PrizePendingSerializer(serializers.Serializer):
    """A prize credit above the channel's limit: waiting for a compliance officer's approval."""

    code = serializers.CharField()
    detail = serializers.CharField()
    approval = serializers.IntegerField(help_text="The approval request's id.")
    reference = serializers.CharField()


class LimitRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=LimitKind.choices)
    period = serializers.ChoiceField(choices=LimitPeriod.choices)
    amount_cents = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CENTS,
        required=False,
        allow_null=True,
        default=None,
        help_text="Deposit and loss limits; empty or null removes the limit (after the cooling-off period).",
    )
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=31 * 24 * 60,
        required=False,
        allow_null=True,
        default=None,
        help_text="Play-time limits.",
    )

    def validate(self, data):
        if data["kind"] == LimitKind.TIME and data["amount_cents"] is not None:
            raise serializers.ValidationError({"amount_cents": "Play-time limits are given in minutes."})
        if data["kind"] != LimitKind.TIME and data["minutes"] is not None:
            raise serializers.ValidationError({"minutes": "Deposit and loss limits are given in cents."})
        return data


class SelfExclusionRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(
        min_value=1, max_value=36500, required=False, allow_null=True, default=None
    )
    permanent = serializers.BooleanField(required=False, default=False)

    def validate(self, data):
        if data["permanent"] == (data["days"] is not None):
            raise serializers.ValidationError({"days": "Give either a number of days or permanent: true."})
        return data


class ReminderAnswerSerializer(serializers.Serializer):
    choice = serializers.ChoiceField(choices=SessionReminder.Choice.choices)
    interval_minutes = serializers.IntegerField(
        min_value=1,
        max_value=24 * 60,
        required=False,
        allow_null=True,
        default=None,
        help_text="With 'continue': a shorter interval for the next reminders (1-15 minutes).",
    )


class IntervalSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, help_text="1-15; only after the first reminder.")


# --- Output ----------------------------------------------------------------------------------------


class LedgerEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = LedgerEntry
        fields = [
            "id",
            "kind",
            "amount_cents",
            "diverted_cents",
            "balance_after_cents",
            "reference",
            "session",
            "game",
            "note",
            "actor_repr",
            "created_at",
        ]
        read_only_fields = fields


class PendingPayoutSerializer(serializers.ModelSerializer):
    class Meta:
        model = PendingPayout
        fields = ["id", "amount_cents", "status", "created_at", "paid_at", "bank_reference"]
        read_only_fields = fields


class PostingSerializer(serializers.Serializer):
    replayed = serializers.BooleanField(
        help_text="True when the reference was already posted: nothing was done twice."
    )
    entry = LedgerEntrySerializer()
    balance_cents = serializers.IntegerField()
    pending_payout = PendingPayoutSerializer(allow_null=True)


class PlayerLimitSerializer(serializers.ModelSerializer):
    value = serializers.IntegerField(allow_null=True, read_only=True)

    class Meta:
        model = PlayerLimit
        fields = [
            "id",
            "kind",
            "period",
            "amount_cents",
            "minutes",
            "value",
            "requested_at",
            "effective_from",
            "superseded_at",
        ]
        read_only_fields = fields


class SelfExclusionSerializer(serializers.ModelSerializer):
    permanent = serializers.BooleanField(read_only=True)

    class Meta:
        model = SelfExclusion
        fields = ["id", "starts_at", "ends_at", "permanent", "requested_at"]
        read_only_fields = fields


class ReminderSerializer(serializers.ModelSerializer):
    class Meta:
        model = SessionReminder
        fields = [
            "id",
            "due_at",
            "shown_at",
            "played_seconds",
            "answered_at",
            "choice",
            "interval_seconds_after",
        ]
        read_only_fields = fields


class PlaySessionSerializer(serializers.ModelSerializer):
    reminder_due = serializers.SerializerMethodField()
    next_reminder_at = serializers.DateTimeField(read_only=True)
    reminder = serializers.SerializerMethodField(help_text="The reminder waiting for an answer, if any.")
    end_reason = serializers.ChoiceField(
        choices=PlaySession.EndReason.choices, allow_blank=True, read_only=True,
        help_text="Why the session ended; empty while it is open.",
    )

    class Meta:
        model = PlaySession
        fields = [
            "id",
            "player",
            "started_at",
            "last_activity_at",
            "ended_at",
            "end_reason",
            "reminder_interval_seconds",
            "next_reminder_at",
            "reminders_shown",
            "reminder_due",
            "reminder",
        ]
        read_only_fields = fields

    def get_reminder_due(self, obj) -> bool:
        """True from the reminder's due time until it is answered (play is blocked meanwhile)."""
        if obj.ended_at is not None:
            return False
        return obj.reminder_due(timezone.now()) or obj.reminders.filter(answered_at__isnull=True).exists()

    def get_reminder(self, obj) -> dict | None:
        if obj.ended_at is not None:
            return None
        open_reminder = obj.reminders.filter(answered_at__isnull=True).first()
        return ReminderSerializer(open_reminder).data if open_reminder else None


class EffectiveLimitSerializer(serializers.Serializer):
    kind = serializers.CharField()
    period = serializers.CharField()
    value = serializers.IntegerField(
        allow_null=True, help_text="In force: the tighter of the player's and the operator's"
    )
    player_value = serializers.IntegerField(allow_null=True)
    operator_value = serializers.IntegerField(allow_null=True)


class PlayerStatusSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    birth_date = serializers.DateField()
    jurisdiction = serializers.CharField()
    kyc_status = serializers.CharField()
    status = serializers.CharField()
    balance_cents = serializers.IntegerField()
    cap_cents = serializers.IntegerField()
    deposit_room_cents = serializers.IntegerField(
        help_text="What may still be deposited under the balance cap."
    )
    currency = serializers.CharField()
    pending_payouts_cents = serializers.IntegerField()
    self_exclusion = SelfExclusionSerializer(allow_null=True)
    limits = EffectiveLimitSerializer(many=True)
    pending_limits = PlayerLimitSerializer(many=True)
    open_session = PlaySessionSerializer(allow_null=True)
