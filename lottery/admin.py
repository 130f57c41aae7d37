from django.contrib import admin

from .models import RuleSet


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
