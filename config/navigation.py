"""The staff navigation: one entry per task page, shown to the roles holding its permission.

Each capability adds its pages here, next to the permission its view requires.
"""

from django.utils.translation import gettext_lazy as _

from casino.registration import NAVIGATION as CASINO_NAVIGATION

# (url name, label, permission or "staff" for the Django admin)
NAVIGATION = [
    ("dashboard", _("Dashboard"), "compliance.access_backoffice"),
    ("lottery:draws", _("Draws"), "lottery.view_draw"),
    ("lottery:calculator", _("Prize calculator"), "lottery.use_prize_calculator"),
    ("lottery:rulesets", _("Prize rules"), "lottery.view_ruleset"),
    *CASINO_NAVIGATION,
    ("players:search", _("Players"), "players.view_player"),
    ("compliance:dashboard", _("Compliance"), "compliance.view_compliance_dashboard"),
    ("compliance:approvals", _("Approvals"), "compliance.view_approval"),
    ("compliance:registries", _("Registries"), "compliance.view_exclusionregistry"),
    ("compliance:screening", _("Screening log"), "compliance.view_screeningdecision"),
    ("compliance:reports", _("Reports"), "compliance.view_report"),
    ("compliance:jobs", _("Jobs"), "compliance.view_job"),
    ("compliance:audit-list", _("Audit trail"), "compliance.view_auditevent"),
    ("api-docs", _("API"), "compliance.use_api"),
    ("admin:index", _("Admin"), "staff"),
]


def entries_for(user) -> list[dict]:
    from django.urls import reverse

    if not user.is_authenticated:
        return []
    items = []
    for url_name, label, perm in NAVIGATION:
        allowed = user.is_staff if perm == "staff" else user.has_perm(perm)
        if allowed:
            items.append({"url_name": url_name, "url": reverse(url_name), "label": label})
    return items
