"""What compliance registers with its own registries, as every app does from its AppConfig.ready():
its role grants, its pages, its report kinds and its demo data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from . import demo, work
from .controls import CONTROL_KIND, ROLE_GRANT_KIND
from .navigation import NavEntry
from .plugins import register_app
from .registry_services import IMPORT_KIND, LIFT_KIND
from .reports.kinds import AUDIT_EXTRACT, EXCLUSION_HITS
from .roles import (
    ADMINISTRATOR,
    AUDITOR,
    CASINO_INSPECTOR,
    CASINO_MANAGER,
    COMPLIANCE_OFFICER,
    DRAW_SUPERVISOR,
    OPERATOR,
    SALES_CHANNEL,
)
from .words import register_words

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
    # The casino roles (issue 19): the manager sees the verification jobs of the rounds.
    CASINO_MANAGER: [*STAFF, "compliance.view_job"],
    CASINO_INSPECTOR: [*STAFF],
    # A sales channel uses the API only: no back office, no staff pages.
    SALES_CHANNEL: ["compliance.use_api"],
}

# The labels of the payload keys compliance writes (audit trail; compliance.words).
KEYS = {
    "action": _("Action"),
    "decision": _("Decision"),
    "reasons": _("Reasons"),
    "code": _("Code"),
    "message": _("Message"),
    "params": _("Parameters"),
    "roles": _("Roles"),
    "username": _("Username"),
    "user": _("User"),
    "expires": _("Valid until"),
    "token_prefix": _("Start of the token"),
    "revoked_others": _("Other tokens revoked"),
    "external_id": _("Identifier in the register"),
    "by_identifier": _("Entered by identifier"),
    "identifier_hash": _("Fingerprint of the identifier"),
    "replaced": _("Entries replaced"),
    "sha256": _("Fingerprint"),
    "size_bytes": _("Size (bytes)"),
    "worker": _("Worker"),
}


def _reasons_words(reasons) -> list[str]:
    """A screening decision's stored reasons, each rendered again from its code and parameters in the
    reader's language (compliance.screening.reason_message)."""
    from .screening import reason_message

    if not isinstance(reasons, list):
        return [str(reasons)]
    return [str(reason_message(r)) if isinstance(r, dict) else str(r) for r in reasons]


NAVIGATION = [
    NavEntry("compliance:dashboard", _("Compliance"), "compliance.view_compliance_dashboard"),
    NavEntry("compliance:approvals", _("Approvals"), "compliance.view_approval"),
    NavEntry("compliance:registries", _("Registries"), "compliance.view_exclusionregistry"),
    NavEntry("compliance:screening", _("Screening log"), "compliance.view_screeningdecision"),
    NavEntry("compliance:reports", _("Reports"), "compliance.view_report"),
    NavEntry("compliance:jobs", _("Jobs"), "compliance.view_job"),
    NavEntry("compliance:audit-list", _("Audit trail"), "compliance.view_auditevent"),
]


def _links() -> dict:
    from django.urls import reverse

    return {
        "compliance.registryimport": lambda pk: reverse("compliance:registry-import", args=[int(pk)]),
        "compliance.approval": lambda pk: reverse("compliance:approvals") + f"#approval-{int(pk)}",
        "compliance.exclusionentry": lambda pk: reverse("compliance:registries") + f"#entry-{int(pk)}",
    }


def _approval_name(pk: str) -> str:
    from .approvals import approval_kind_words
    from .models import Approval

    approval = Approval.objects.filter(pk=int(pk)).only("kind").first()
    return f"{approval_kind_words(approval.kind)} #{approval.pk}" if approval is not None else ""


def _entry_name(pk: str) -> str:
    from .models import ExclusionEntry

    entry = ExclusionEntry.objects.select_related("registry").filter(pk=int(pk)).first()
    if entry is None:
        return ""
    return f"{entry.shown_name or entry.external_id or entry.pk} ({entry.registry.name})"


def register() -> None:
    register_words(links=_links(), names={"compliance.approval": _approval_name,
                                          "compliance.exclusionentry": _entry_name},
                   keys=KEYS, render={"reasons": _reasons_words})
    register_app("compliance", grants=GRANTS, navigation=NAVIGATION, report_kinds=(AUDIT_EXTRACT, EXCLUSION_HITS),
                 demo=demo.seed, queues=work.QUEUES,
                 approval_phrases={IMPORT_KIND: work.import_phrases, LIFT_KIND: work.lift_phrases,
                                   CONTROL_KIND: work.control_phrases, ROLE_GRANT_KIND: work.role_phrases})
