"""What the casino app gives the project's role table and navigation, as plain data (issue 16 moves
both into registries filled from each app's `AppConfig.ready()`; until then `CasinoConfig.ready()`
adds ROLE_GRANTS to `compliance.roles.ROLE_PERMISSIONS` and `config.navigation` lists NAVIGATION).

The Auditor's read-only grants (every `view_` permission) and the Administrator's (every casino
permission) are computed by `compliance.roles.role_permissions` and need no line here.
"""

from django.utils.translation import gettext_lazy as _

from compliance import roles

RULES_READ = ["casino.view_casinoruleversion"]
CHECKS_READ = ["casino.view_roundcheck"]
CHECK = ["casino.check_round"]

#: role -> casino permissions it holds.
ROLE_GRANTS: dict[str, list[str]] = {
    roles.OPERATOR: [*RULES_READ, *CHECK],
    roles.DRAW_SUPERVISOR: [*RULES_READ, *CHECK],
    roles.COMPLIANCE_OFFICER: [*RULES_READ, *CHECKS_READ],
}

#: (url name, label, permission): the staff pages of the casino.
NAVIGATION = [
    ("casino:round-check", _("Round check"), "casino.check_round"),
    ("casino:rules", _("Casino rules"), "casino.view_casinoruleversion"),
]


def grant_roles(table: dict[str, list[str]]) -> None:
    """Add ROLE_GRANTS to a role table (idempotent)."""
    for role, perms in ROLE_GRANTS.items():
        table[role].extend(p for p in perms if p not in table[role])
