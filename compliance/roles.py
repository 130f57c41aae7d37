"""Staff roles: Django groups and the permissions each holds.

The groups are (re)built from ROLE_PERMISSIONS after every `migrate`, so the table below is the one
place to read or change who may do what. Each later capability adds its permissions here.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission
from django.db import transaction

OPERATOR = "Operator"
DRAW_SUPERVISOR = "Draw supervisor"
COMPLIANCE_OFFICER = "Compliance officer"
AUDITOR = "Auditor"
ADMINISTRATOR = "Administrator"
# An integration client (sales channel, game platform) using the API with a token; not staff.
SALES_CHANNEL = "Sales channel"
ROLES = (OPERATOR, DRAW_SUPERVISOR, COMPLIANCE_OFFICER, AUDITOR, ADMINISTRATOR, SALES_CHANNEL)

PROJECT_APPS = ("compliance", "players", "lottery", "casino")
# Apps whose tables the Administrator also manages in the Django admin.
ADMIN_EXTRA_APPS = ("auth", "knox", "django_celery_beat")

STAFF = ["compliance.access_backoffice", "compliance.use_api"]

# Explicit grants per role. The Auditor and the Administrator are computed (see role_permissions).
PRIZE_RULES = ["lottery.view_ruleset", "lottery.use_prize_calculator"]

# The staff player page and what it shows (docs/players.md).
PLAYER_VIEWS = [
    "players.view_player", "players.view_person", "players.view_gameaccount", "players.view_ledgerentry",
    "players.view_pendingpayout", "players.view_playerlimit", "players.view_operatorlimit",
    "players.view_playsession", "players.view_sessionreminder", "players.view_selfexclusion",
    "compliance.view_screeningdecision", "players.view_channel",
]
# What a sales channel does for its players over the API; no back office, no staff pages.
CHANNEL = [
    "compliance.use_api", "players.add_player", "players.view_player", "players.view_ledgerentry",
    "players.verify_person", "players.transact", "players.manage_protection",
    "lottery.view_draw", "lottery.submit_wager", "lottery.view_wager",
]

# The draw pipeline (docs/draws.md): who sees draws, winners and imports, and who does each step.
DRAW_VIEWS = [
    "lottery.view_game", "lottery.view_draw", "lottery.view_drawresult", "lottery.view_settlementrun",
    "lottery.view_tierresult", "lottery.view_winning", "lottery.view_wager", "lottery.view_line",
    "lottery.view_retailimport", "lottery.view_wagerrefund", "lottery.view_payout",
]
DRAW_OPERATIONS = ["lottery.manage_draw", "lottery.enter_result", "lottery.import_sales"]
# Second pair of eyes: confirmation, correction, cancellation and settlement reruns.
DRAW_SUPERVISION = [
    "lottery.confirm_result", "lottery.correct_result", "lottery.cancel_draw", "lottery.manage_settlement",
]
# Money out: a settlement's approval for payout, and a large win's own approval.
PAYOUT_APPROVAL = ["lottery.approve_settlement"]
# The approvals page and its decisions (compliance.approvals). Which kinds a person may decide is
# limited by each kind's own permission (lottery.confirm_result, compliance.import_registry, ...).
FOUR_EYES = ["compliance.view_approval", "compliance.decide_approval"]

ROLE_PERMISSIONS: dict[str, list[str]] = {
    OPERATOR: [*STAFF, *PRIZE_RULES, *PLAYER_VIEWS, "players.release_payout", "players.search_identifier",
               *DRAW_VIEWS, *DRAW_OPERATIONS],
    DRAW_SUPERVISOR: [*STAFF, *PRIZE_RULES, *DRAW_VIEWS, *DRAW_OPERATIONS, *DRAW_SUPERVISION, *PAYOUT_APPROVAL,
                      *FOUR_EYES, "compliance.view_job"],
    COMPLIANCE_OFFICER: [
        *STAFF, "compliance.view_auditevent", *PRIZE_RULES, *PLAYER_VIEWS, *DRAW_VIEWS, *PAYOUT_APPROVAL,
        "lottery.approve_large_win",
        "compliance.view_exclusionregistry", "compliance.view_exclusionentry",
        "players.verify_person", "players.reveal_identifier", "players.search_identifier",
        # Money out needs a second person: a recorded bank payout, a channel's prize above its limit.
        "players.release_payout", "players.approve_channel_prize",
        # Compliance tools (docs/compliance.md): dashboard, registries and their imports, bans and their
        # early lifting, four-eyes decisions, screening log, live-register calls, reports.
        "compliance.view_compliance_dashboard", "compliance.view_registryimport", "compliance.import_registry",
        "compliance.add_exclusionentry", "compliance.change_exclusionentry", "compliance.view_registrycall",
        "compliance.view_approval", "compliance.decide_approval", "compliance.view_report", "compliance.add_report",
        "compliance.view_job",
        # Second person for staff roles and control switches (compliance.controls).
        "compliance.approve_role_grant", "compliance.approve_control_change",
    ],
    # The calculator changes nothing, so the read-only role may use it to check published prizes.
    AUDITOR: [*STAFF, "lottery.use_prize_calculator"],
    ADMINISTRATOR: [*STAFF],
    SALES_CHANNEL: CHANNEL,
}


def _perm_key(perm: Permission) -> str:
    return f"{perm.content_type.app_label}.{perm.codename}"


def role_permissions(role: str) -> set[str]:
    """Every permission the role holds, as "app_label.codename"."""
    granted = set(ROLE_PERMISSIONS[role])
    perms = Permission.objects.select_related("content_type")
    if role == AUDITOR:
        # Read-only everywhere: every "view" permission of the project's apps and nothing else.
        granted |= {
            _perm_key(p)
            for p in perms.filter(content_type__app_label__in=PROJECT_APPS, codename__startswith="view_")
        }
    elif role == ADMINISTRATOR:
        granted |= {
            _perm_key(p)
            for p in perms.filter(content_type__app_label__in=PROJECT_APPS + ADMIN_EXTRA_APPS)
        }
    return granted


def _resolve(keys: set[str]) -> list[Permission]:
    found = []
    missing = []
    for key in sorted(keys):
        app_label, codename = key.split(".", 1)
        perm = Permission.objects.filter(content_type__app_label=app_label, codename=codename).first()
        (found if perm else missing).append(perm or key)
    if missing:
        raise LookupError(f"Unknown permissions in compliance.roles: {', '.join(missing)}")
    return found


@transaction.atomic
def sync_roles() -> dict[str, int]:
    """Create the role groups and set their permissions exactly as declared. Idempotent."""
    for app_config in global_apps.get_app_configs():
        create_permissions(app_config, verbosity=0)
    counts = {}
    for role in ROLES:
        group, _ = Group.objects.get_or_create(name=role)
        perms = _resolve(role_permissions(role))
        group.permissions.set(perms)
        counts[role] = len(perms)
    return counts


def sync_after_migrate(sender: Any, app_config: Any = None, **kwargs: Any) -> None:
    # post_migrate fires once per app; the last app of the project is enough and keeps it quick.
    if app_config is None or app_config.label != "casino":
        return
    sync_roles()
    from .schedules import sync_schedules

    sync_schedules()
