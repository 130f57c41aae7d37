"""What compliance registers with its own registries, as every app does from its AppConfig.ready():
its role grants, its pages, its report kinds and its demo data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from . import demo
from .navigation import NavEntry
from .plugins import register_app
from .reports.kinds import AUDIT_EXTRACT, EXCLUSION_HITS
from .roles import ADMINISTRATOR, AUDITOR, COMPLIANCE_OFFICER, DRAW_SUPERVISOR, OPERATOR, SALES_CHANNEL

# Back-office access and the API, for every staff role.
STAFF = ["compliance.access_backoffice", "compliance.use_api"]
# The approvals page and its decisions (compliance.approvals). Which kinds a person may decide is
# limited by each kind's own permission (lottery.confirm_result, compliance.import_registry, ...).
FOUR_EYES = ["compliance.view_approval", "compliance.decide_approval"]

GRANTS = {
    # The screening log is part of the staff player page (docs/players.md).
    OPERATOR: [*STAFF, "compliance.view_screeningdecision"],
    DRAW_SUPERVISOR: [*STAFF, *FOUR_EYES, "compliance.view_job"],
    COMPLIANCE_OFFICER: [
        *STAFF, "compliance.view_auditevent", "compliance.view_screeningdecision",
        "compliance.view_exclusionregistry", "compliance.view_exclusionentry",
        # Compliance tools (docs/compliance.md): dashboard, registries and their imports, bans and their
        # early lifting, four-eyes decisions, screening log, live-register calls, reports.
        "compliance.view_compliance_dashboard", "compliance.view_registryimport", "compliance.import_registry",
        "compliance.add_exclusionentry", "compliance.change_exclusionentry", "compliance.view_registrycall",
        *FOUR_EYES, "compliance.view_report", "compliance.add_report", "compliance.view_job",
        # Second person for staff roles and control switches (compliance.controls).
        "compliance.approve_role_grant", "compliance.approve_control_change",
    ],
    AUDITOR: [*STAFF],
    ADMINISTRATOR: [*STAFF],
    # A sales channel uses the API only: no back office, no staff pages.
    SALES_CHANNEL: ["compliance.use_api"],
}

NAVIGATION = [
    NavEntry("compliance:dashboard", _("Compliance"), "compliance.view_compliance_dashboard"),
    NavEntry("compliance:approvals", _("Approvals"), "compliance.view_approval"),
    NavEntry("compliance:registries", _("Registries"), "compliance.view_exclusionregistry"),
    NavEntry("compliance:screening", _("Screening log"), "compliance.view_screeningdecision"),
    NavEntry("compliance:reports", _("Reports"), "compliance.view_report"),
    NavEntry("compliance:jobs", _("Jobs"), "compliance.view_job"),
    NavEntry("compliance:audit-list", _("Audit trail"), "compliance.view_auditevent"),
]


def register() -> None:
    register_app("compliance", grants=GRANTS, navigation=NAVIGATION, report_kinds=(AUDIT_EXTRACT, EXCLUSION_HITS),
                 demo=demo.seed)
