"""Read-only admin: rule versions are published by `publish_casino_rules` and checks by the round
check; neither is ever edited or deleted."""

from django.contrib import admin

from compliance.admin import ReadOnlyAdmin

from .models import CasinoRuleVersion, RoundCheck


@admin.register(CasinoRuleVersion)
class CasinoRuleVersionAdmin(ReadOnlyAdmin):
    list_display = ("rulebook", "game", "variant", "version", "effective_from", "published_by", "rules_sha256")
    list_filter = ("rulebook", "game")
    search_fields = ("game", "variant", "rules_sha256")


@admin.register(RoundCheck)
class RoundCheckAdmin(ReadOnlyAdmin):
    list_display = ("id", "checked_at", "checked_by_name", "rulebook", "game", "variant", "rule_version",
                    "total_return_cents", "difference_cents")
    list_filter = ("rulebook", "game")
