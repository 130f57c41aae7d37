"""What the casino registers with compliance from CasinoConfig.ready(): what each role gets of its
permissions, its pages and its demo data (docs/architecture.md, "Dependencies and the app registries").

The Auditor's read-only grants (every `view_` permission) and the Administrator's (every casino
permission) are computed by `compliance.roles` and need no line here.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from compliance import roles
from compliance.navigation import NavEntry
from compliance.plugins import register_app
from compliance.words import register_words

from . import complaint_work, demo, dispute_words, jackpots, work
from .jackpot_reports import JACKPOT_LIABILITY
from .messages import detail_words
from .venue_reports import REPORT_KINDS

RULES_READ = ["casino.view_casinoruleversion"]
CHECKS_READ = ["casino.view_roundcheck"]
CHECK = ["casino.check_round"]

# Casino operations (issue 19): venues and tables, recorded rounds, discrepancies.
VENUES_READ = ["casino.view_venue", "casino.view_table", "casino.view_tableversion"]
ROUNDS_READ = ["casino.view_recordedround", "casino.view_roundbatch", "casino.view_discrepancy"]
# Disputes and complaints (issue 19 item 4): the inspector records, the manager handles complaints.
DISPUTES_READ = ["casino.view_dispute", "casino.view_complaint"]
# Jackpots (issue 19 item 3): their terms, ledgers, postings and accruals.
JACKPOTS_READ = ["casino.view_jackpot", "casino.view_jackpotversion", "casino.view_jackpotentry",
                 "casino.view_jackpotday", "casino.view_jackpotaccrual"]

GRANTS = {
    roles.OPERATOR: [*RULES_READ, *CHECK],
    roles.DRAW_SUPERVISOR: [*RULES_READ, *CHECK],
    # Also the second person of a large jackpot win (as of the lottery's large wins).
    roles.COMPLIANCE_OFFICER: [*RULES_READ, *CHECKS_READ, *VENUES_READ, *ROUNDS_READ, "casino.resolve_discrepancy",
                               *DISPUTES_READ, *JACKPOTS_READ, "casino.approve_jackpot_win"],
    # Venues, tables, rule versions and jackpots; approves (resolves discrepancies as the second person);
    # handles complaints.
    roles.CASINO_MANAGER: [*RULES_READ, *CHECK, "casino.publish_rules", "casino.manage_venues", *VENUES_READ,
                           *ROUNDS_READ, "casino.resolve_discrepancy", *DISPUTES_READ, "casino.record_complaint",
                           "casino.handle_complaint", *JACKPOTS_READ, "casino.manage_jackpots"],
    # Records rounds, disputes and complaints; resolves nothing alone.
    roles.CASINO_INSPECTOR: [*RULES_READ, *CHECK, *VENUES_READ, *ROUNDS_READ, "casino.record_round",
                             *DISPUTES_READ, "casino.record_dispute", "casino.record_complaint", *JACKPOTS_READ],
    # A table system posts and reads the rounds of the tables assigned to it (API only).
    roles.SALES_CHANNEL: ["casino.record_round"],
}

NAVIGATION = [
    NavEntry("casino:venues", _("Venues and tables"), "casino.view_venue"),
    NavEntry("casino:rounds", _("Casino rounds"), "casino.view_recordedround"),
    NavEntry("casino:discrepancies", _("Discrepancies"), "casino.view_discrepancy"),
    NavEntry("casino:disputes", _("Disputes"), "casino.view_dispute"),
    NavEntry("casino:complaints", _("Complaints"), "casino.view_complaint"),
    NavEntry("casino:jackpots", _("Jackpots"), "casino.view_jackpot"),
    NavEntry("casino:round-check", _("Round check"), "casino.check_round"),
    NavEntry("casino:rules", _("Casino rules"), "casino.view_casinoruleversion"),
]


# The words of the casino's audit actions, objects and payload keys (compliance.words, issue 18).
WORDS = {
    "casino.round_checked": _("Round checked"),
    "casino.rule_version_published": _("Casino rule version published"),
    "casino.venue_created": _("Venue created"),
    "casino.table_created": _("Table created"),
    "casino.table_version_created": _("Table version added"),
    "casino.table_system_assigned": _("Table system assigned"),
    "casino.table_system_removed": _("Table system removed"),
    "casino.rounds_recorded": _("Rounds recorded"),
    "casino.discrepancy_found": _("Discrepancy found"),
    "casino.discrepancy_resolved": _("Discrepancy resolved"),
    "casino.jackpot_created": _("Jackpot created"),
    "casino.jackpot_version_created": _("Jackpot terms changed"),
    "casino.jackpot_removed": _("Jackpot removed from play"),
    "casino.jackpot_day_posted": _("Jackpot gaming day posted"),
    "casino.jackpot_win_approved": _("Large jackpot win approved"),
}

OBJECT_TYPES = {
    "casino.casinoruleversion": _("Casino rule version"),
    "casino.venue": _("Venue"),
    "casino.table": _("Table"),
    "casino.tableversion": _("Table version"),
    "casino.roundbatch": _("Batch of rounds"),
    "casino.recordedround": _("Round"),
    "casino.discrepancy": _("Discrepancy"),
    "casino.jackpot": _("Jackpot"),
    "casino.jackpotaccrual": _("Jackpot accrual"),
}

KEYS = {
    "answer_sha256": _("Fingerprint of the answer"),
    "bet": _("Bet"),
    "code": _("Code"),
    "corrections": _("Corrections"),
    "currency": _("Currency"),
    "day": _("Day"),
    "detail": _("Detail"),
    "difference": _("Difference"),
    "effective_from": _("Effective from"),
    "file_name": _("File name"),
    "file_sha256": _("Fingerprint of the file"),
    "first_round": _("First round"),
    "last_round": _("Last round"),
    "max_stake": _("Maximum initial stake"),
    "min_age": _("Minimum age"),
    "min_stake": _("Minimum stake"),
    "name": _("Name"),
    "opening_hours": _("Opening hours"),
    "payout_sign": _("Version and payout sign"),
    "records": _("Table records"),
    "round": _("Round"),
    "round_at": _("Time of the round"),
    "rounds": _("Rounds"),
    "rule_version": _("Rule version"),
    "rulebook": _("Rulebook"),
    "rules_sha256": _("Fingerprint of the rule data"),
    "side_games": _("Side games"),
    "source": _("Source"),
    "total_return": _("Total return"),
    "variant": _("Variant"),
    "venue": _("Venue"),
    "win_cap": _("Win cap"),
    "zero_rule": _("Zero rule in use"),
    # jackpots
    "accruals": _("Accruals"),
    "bet_type": _("Participation bet"),
    "closing": _("Closing balance"),
    "contribution_rate": _("Contribution rate"),
    "contributions": _("Contributions"),
    "destination": _("Destination"),
    "funded": _("Seed and resets"),
    "instructions": _("Instructions shown at the table"),
    "max": _("Maximum"),
    "max_win": _("Maximum permitted win"),
    "mismatches": _("Pot mismatches"),
    "opening": _("Opening balance"),
    "overflow": _("Above the maximum"),
    "overflow_to": _("Next pot"),
    "participation_fee": _("Participation fee"),
    "recorded_by": _("Recorded by"),
    "removal_to": _("Jackpot that takes the balance"),
    "reset": _("Reset amount"),
    "seed": _("Seed"),
    "tables": _("Tables"),
    "threshold": _("Large-win threshold"),
    "transfers": _("Transfers"),
    "wins": _("Wins"),
}


def _round_name(pk: str) -> str:
    from .models import RecordedRound

    return RecordedRound.objects.filter(pk=int(pk)).values_list("ref", flat=True).first() or ""


def _venue_name(pk: str) -> str:
    from .models import Venue

    return Venue.objects.filter(pk=int(pk)).values_list("name", flat=True).first() or ""


def _rule_version_name(pk: str) -> str:
    from .models import CasinoRuleVersion

    version = CasinoRuleVersion.objects.filter(pk=int(pk)).first()
    return str(version) if version is not None else ""


def _discrepancy_name(pk: str) -> str:
    """"Paid differs from what was due · R-1042" in the reader's language (the stored name is a dump)."""
    from .models import Discrepancy

    row = Discrepancy.objects.filter(pk=int(pk)).values_list("kind", "round__ref").first()
    return f"{Discrepancy.Kind(row[0]).label} · {row[1]}" if row else ""


def _jackpot_name(pk: str) -> str:
    from .models import Jackpot

    j = Jackpot.objects.select_related("venue").filter(pk=int(pk)).first()
    return jackpots.jackpot_name(j) if j is not None else ""


def _discrepancy_page(pk: str) -> str:
    from .models import Discrepancy

    round_id = Discrepancy.objects.filter(pk=int(pk)).values_list("round_id", flat=True).first()
    return reverse("casino:round", args=[round_id]) if round_id else ""


def register() -> None:
    register_words(actions=WORDS, object_types=OBJECT_TYPES, keys=KEYS, render={"detail": detail_words},
                   refs={"round": "casino.recordedround", "venue": "casino.venue",
                         "rule_version": "casino.casinoruleversion",
                         "removal_to": "casino.jackpot", "overflow_to": "casino.jackpot"},
                   names={"casino.recordedround": _round_name, "casino.venue": _venue_name,
                          "casino.casinoruleversion": _rule_version_name, "casino.discrepancy": _discrepancy_name,
                          "casino.jackpot": _jackpot_name},
                   links={
        "casino.casinoruleversion": lambda pk: reverse("casino:rule-version", args=[int(pk)]),
        "casino.venue": lambda pk: reverse("casino:venue", args=[int(pk)]),
        "casino.table": lambda pk: reverse("casino:table", args=[int(pk)]),
        "casino.recordedround": lambda pk: reverse("casino:round", args=[int(pk)]),
        "casino.discrepancy": _discrepancy_page,
        "casino.jackpot": lambda pk: reverse("casino:jackpot", args=[int(pk)])})
    dispute_words.register()
    # The demo rule versions are published by the demo staff, who exist before any seeder runs.
    register_app("casino", grants=GRANTS, navigation=NAVIGATION, demo=demo.seed_all, demo_after=("players",),
                 queues=[*work.QUEUES, *complaint_work.QUEUES], report_kinds=(*REPORT_KINDS, JACKPOT_LIABILITY),
                 approval_phrases={jackpots.WIN_KIND: jackpots.win_phrases})
