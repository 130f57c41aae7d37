"""What the lottery registers with compliance from LotteryConfig.ready(): what each role gets of its
permissions, its pages, its report kinds and its demo data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance import roles
from compliance.navigation import NavEntry
from compliance.plugins import register_app

from . import approval_words, demo, work
from .reports import DRAW_PAYOUT, LARGE_WINS

PRIZE_RULES = ["lottery.view_ruleset", "lottery.use_prize_calculator"]
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

GRANTS = {
    roles.OPERATOR: [*PRIZE_RULES, *DRAW_VIEWS, *DRAW_OPERATIONS],
    roles.DRAW_SUPERVISOR: [*PRIZE_RULES, *DRAW_VIEWS, *DRAW_OPERATIONS, *DRAW_SUPERVISION, *PAYOUT_APPROVAL],
    roles.COMPLIANCE_OFFICER: [*PRIZE_RULES, *DRAW_VIEWS, *PAYOUT_APPROVAL, "lottery.approve_large_win"],
    # The calculator changes nothing, so the read-only role may use it to check published prizes.
    roles.AUDITOR: ["lottery.use_prize_calculator"],
    # A sales channel sells wagers on open draws over the API.
    roles.SALES_CHANNEL: ["lottery.view_draw", "lottery.submit_wager", "lottery.view_wager"],
}

NAVIGATION = [
    NavEntry("lottery:draws", _("Draws"), "lottery.view_draw"),
    NavEntry("lottery:calculator", _("Prize calculator"), "lottery.use_prize_calculator"),
    NavEntry("lottery:rulesets", _("Prize rules"), "lottery.view_ruleset"),
]


def register() -> None:
    # The demo draws are settled and paid by the demo staff, who exist before any seeder runs; the
    # demo players play no lottery, so the lottery's demo needs no other app's.
    approval_words.register()
    register_app("lottery", grants=GRANTS, navigation=NAVIGATION, report_kinds=(DRAW_PAYOUT, LARGE_WINS),
                 demo=demo.seed, queues=work.QUEUES, approval_phrases=work.APPROVAL_PHRASES)
