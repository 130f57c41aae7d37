from django.contrib import admin

from .models import Draw, DrawResult, Game, RetailImport, RuleSet, SettlementRun, Wager


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """Read-only: versions are published by `manage.py publish_ruleset` (audited), never edited."""

    list_display = ("game", "version", "effective_from", "created_by", "created_at")
    list_filter = ("game",)
    readonly_fields = ("game", "version", "effective_from", "params", "params_sha256", "source", "created_by", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Regulated tables of the draw pipeline: read in the admin, changed only through the services."""

    show_full_result_count = False  # no COUNT(*) over big tables on every page

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("code", "name", "main_count", "main_max", "secondary_count", "secondary_max", "plus_max")


@admin.register(Draw)
class DrawAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "state", "sales_close_at", "draw_at", "jackpot_cents")
    list_filter = ("game", "state")
    search_fields = ("number",)


@admin.register(DrawResult)
class DrawResultAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "status", "entered_by", "confirmed_by", "entered_at")
    list_filter = ("status",)


@admin.register(SettlementRun)
class SettlementRunAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "state", "phase", "lines_count", "winners_count", "paid_cents", "finished_at")
    list_filter = ("state",)


@admin.register(RetailImport)
class RetailImportAdmin(ReadOnlyAdmin):
    list_display = ("file_name", "draw", "state", "rows", "tickets", "error_count", "actor_repr", "finished_at")
    list_filter = ("state",)


@admin.register(Wager)
class WagerAdmin(ReadOnlyAdmin):
    list_display = ("channel", "reference", "draw", "player_id", "stake_cents", "line_count", "accepted_at")
    search_fields = ("reference",)
    raw_id_fields = ("draw", "retail_import")
