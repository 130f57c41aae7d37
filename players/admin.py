"""Django admin for the players app: a change of the operator's mandatory limits made here is a request
that a second person approves (compliance.controls); channels are created here; everything else is
read-only, because it changes only through the services (docs/players.md)."""

from django.contrib import admin

from compliance.admin import ControlledAdmin

from .models import (
    Channel,
    GameAccount,
    LedgerEntry,
    OperatorLimit,
    PendingPayout,
    Person,
    Player,
    PlayerLimit,
    PlaySession,
    SelfExclusion,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Channel)
class ChannelAdmin(ControlledAdmin):
    """A channel is bound to its API user once. It starts with a prize limit of 0; a new limit typed
    here is a request that a compliance officer approves (compliance.controls)."""

    list_display = ("code", "name", "user", "prize_limit_cents", "active", "created_at")

    def get_readonly_fields(self, request, obj=None):
        return ("code", "user", "created_at") if obj else ("prize_limit_cents", "created_at")

    def has_add_permission(self, request):
        return admin.ModelAdmin.has_add_permission(self, request)


@admin.register(OperatorLimit)
class OperatorLimitAdmin(ControlledAdmin):
    list_display = ("kind", "period", "amount_cents", "minutes", "active", "note")
    list_filter = ("kind", "period", "active")


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    list_display = ("last_name", "first_name", "birth_date", "jurisdiction", "kyc_status")
    search_fields = ("name_normalised",)
    list_filter = ("kyc_status", "jurisdiction")
    exclude = ("national_id_hash", "national_id_encrypted")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("pk", "person", "status", "registered_at", "registered_via")


@admin.register(GameAccount)
class GameAccountAdmin(ReadOnlyAdmin):
    list_display = ("pk", "player", "balance_cents", "cap_cents", "currency")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "account",
        "kind",
        "amount_cents",
        "diverted_cents",
        "balance_after_cents",
        "reference",
    )
    list_filter = ("kind",)
    search_fields = ("reference",)


@admin.register(PendingPayout)
class PendingPayoutAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "account", "amount_cents", "status", "paid_at", "bank_reference")
    list_filter = ("status",)


@admin.register(PlayerLimit)
class PlayerLimitAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "period", "amount_cents", "minutes", "effective_from", "superseded_at")


@admin.register(PlaySession)
class PlaySessionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "player", "started_at", "ended_at", "end_reason", "reminders_shown")


@admin.register(SelfExclusion)
class SelfExclusionAdmin(ReadOnlyAdmin):
    list_display = ("person", "starts_at", "ends_at", "requested_by_repr")
