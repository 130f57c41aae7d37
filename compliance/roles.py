"""Staff roles: Django groups and the permissions each holds.

The roles are compliance's; the permissions are each app's. Every app declares, per role, what the
role gets of its own permissions (`register_grants`, from its `AppConfig.ready()`), and the groups are
(re)built after every `migrate` from the union of the declarations. The Auditor and the Administrator
are computed besides: every "view" permission, or every permission, of the apps that registered.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .schedules import sync_schedules

OPERATOR = "Operator"
DRAW_SUPERVISOR = "Draw supervisor"
COMPLIANCE_OFFICER = "Compliance officer"
AUDITOR = "Auditor"
ADMINISTRATOR = "Administrator"
# Casino operations (issue 19): venues, tables and rule versions, and the approvals (manager); recorded
# rounds (inspector, who resolves nothing alone that needs two people).
CASINO_MANAGER = "Casino manager"
CASINO_INSPECTOR = "Casino inspector"
# An integration client (sales channel, game platform) using the API with a token; not staff.
SALES_CHANNEL = "Sales channel"
ROLES = (OPERATOR, DRAW_SUPERVISOR, COMPLIANCE_OFFICER, AUDITOR, ADMINISTRATOR, CASINO_MANAGER, CASINO_INSPECTOR,
         SALES_CHANNEL)
# The group names stay English (they are keys: grants, fixtures, the API's "me"); people read these.
ROLE_LABELS = {
    OPERATOR: _("Operator"),
    DRAW_SUPERVISOR: _("Draw supervisor"),
    COMPLIANCE_OFFICER: _("Compliance officer"),
    AUDITOR: _("Auditor"),
    ADMINISTRATOR: _("Administrator"),
    CASINO_MANAGER: _("Casino manager"),
    CASINO_INSPECTOR: _("Casino inspector"),
    SALES_CHANNEL: _("Sales channel"),
}


def role_label(name: str):
    """A role's name in the reader's language (a group that is no role keeps its own name)."""
    return ROLE_LABELS.get(name, name)

# Apps whose tables the Administrator also manages in the Django admin (third-party, not capabilities).
ADMIN_EXTRA_APPS = ("auth", "knox", "django_celery_beat")

# app label -> role -> the app's own permissions ("app_label.codename") the role gets, in
# registration order (the project's apps: their permissions also make the Auditor and Administrator).
GRANTS: dict[str, dict[str, list[str]]] = {}


def register_grants(app_label: str, grants: dict[str, list[str]]) -> None:
    """Declare what each role gets of `app_label`'s own permissions. An app with no grants registers
    `{}`: its tables still count for the Auditor (view) and the Administrator (all)."""
    for role, perms in grants.items():
        if role not in ROLES:
            raise ValueError(f"{app_label} grants permissions to an unknown role {role!r}.")
        foreign = [p for p in perms if p.split(".", 1)[0] != app_label]
        if foreign:
            raise ValueError(f"{app_label} may grant only its own permissions, not {', '.join(foreign)}.")
    GRANTS[app_label] = {role: list(perms) for role, perms in grants.items()}


def project_apps() -> tuple[str, ...]:
    return tuple(GRANTS)


def declared_permissions(role: str) -> set[str]:
    """The union of what the apps grant the role."""
    return {perm for grants in GRANTS.values() for perm in grants.get(role, ())}


def _perm_key(perm: Permission) -> str:
    return f"{perm.content_type.app_label}.{perm.codename}"


def role_permissions(role: str) -> set[str]:
    """Every permission the role holds, as "app_label.codename"."""
    granted = declared_permissions(role)
    perms = Permission.objects.select_related("content_type")
    if role == AUDITOR:
        # Read-only everywhere: every "view" permission of the project's apps and nothing else.
        granted |= {
            _perm_key(p)
            for p in perms.filter(content_type__app_label__in=project_apps(), codename__startswith="view_")
        }
    elif role == ADMINISTRATOR:
        granted |= {
            _perm_key(p)
            for p in perms.filter(content_type__app_label__in=project_apps() + ADMIN_EXTRA_APPS)
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
    # post_migrate fires once per app with models; the last of them is enough and keeps it quick.
    with_models = [a for a in global_apps.get_app_configs() if a.models_module is not None]
    if app_config is None or app_config is not with_models[-1]:
        return
    sync_roles()
    sync_schedules()
