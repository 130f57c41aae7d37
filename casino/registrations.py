"""What the casino registers with compliance from CasinoConfig.ready(): what each role gets of its
permissions, its pages and its demo data (docs/architecture.md, "Dependencies and the app registries").

The Auditor's read-only grants (every `view_` permission) and the Administrator's (every casino
permission) are computed by `compliance.roles` and need no line here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance import roles
from compliance.navigation import NavEntry
from compliance.plugins import register_app

from . import demo

RULES_READ = ["casino.view_casinoruleversion"]
CHECKS_READ = ["casino.view_roundcheck"]
CHECK = ["casino.check_round"]

GRANTS = {
    roles.OPERATOR: [*RULES_READ, *CHECK],
    roles.DRAW_SUPERVISOR: [*RULES_READ, *CHECK],
    roles.COMPLIANCE_OFFICER: [*RULES_READ, *CHECKS_READ],
}

NAVIGATION = [
    NavEntry("casino:round-check", _("Round check"), "casino.check_round"),
    NavEntry("casino:rules", _("Casino rules"), "casino.view_casinoruleversion"),
]


def register() -> None:
    # The demo rule versions are published by the demo staff, who exist before any seeder runs.
    register_app("casino", grants=GRANTS, navigation=NAVIGATION, demo=demo.seed)
