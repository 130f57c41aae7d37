"""What players registers with compliance from PlayersConfig.ready(): what each role gets of its
permissions, its pages, its report kind and its demo data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance import roles
from compliance.navigation import NavEntry
from compliance.plugins import register_app

from . import demo
from .reports import PLAYER_PROTECTION

# The staff player page and what it shows (docs/players.md).
PLAYER_VIEWS = [
    "players.view_player", "players.view_person", "players.view_gameaccount", "players.view_ledgerentry",
    "players.view_pendingpayout", "players.view_playerlimit", "players.view_operatorlimit",
    "players.view_playsession", "players.view_sessionreminder", "players.view_selfexclusion",
    "players.view_channel",
]

GRANTS = {
    roles.OPERATOR: [*PLAYER_VIEWS, "players.release_payout", "players.search_identifier"],
    roles.COMPLIANCE_OFFICER: [
        *PLAYER_VIEWS, "players.verify_person", "players.reveal_identifier", "players.search_identifier",
        # Money out needs a second person: a recorded bank payout, a channel's prize above its limit.
        "players.release_payout", "players.approve_channel_prize",
    ],
    # What a sales channel does for its players over the API.
    roles.SALES_CHANNEL: [
        "players.add_player", "players.view_player", "players.view_ledgerentry", "players.verify_person",
        "players.transact", "players.manage_protection",
    ],
}

NAVIGATION = [NavEntry("players:search", _("Players"), "players.view_player")]


def register() -> None:
    register_app("players", grants=GRANTS, navigation=NAVIGATION, report_kinds=(PLAYER_PROTECTION,), demo=demo.seed)
