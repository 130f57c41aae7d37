"""Lottery writes. Each takes `actor=` and records its audit event in the same transaction.

Split by subject: rule versions, draws and results, retail sales imports, settlement.
"""

from .draws import (
    close_due_draws,
    correction_confirm,
    correction_reject,
    correction_request,
    draw_cancel,
    draw_close_sales,
    draw_open_sales,
    draw_schedule,
    draw_set_central_inputs,
    draw_set_jackpot,
    games_sync,
    result_confirm,
    result_enter,
    result_reject,
    result_withdraw,
)
from .errors import DrawError, DrawInputError, DrawStateError, FourEyesError
from .payouts import pay_draw, pay_refunds, payout_approve_large, payouts_retry, settlement_approve
from .rulesets import (
    RuleSetConflict,
    RuleSetRefused,
    load_default_rulesets,
    params_fingerprint,
    ruleset_check_tables,
    ruleset_publish,
)
from .wagers import wager_place

__all__ = [
    "DrawError",
    "DrawInputError",
    "DrawStateError",
    "FourEyesError",
    "RuleSetConflict",
    "RuleSetRefused",
    "close_due_draws",
    "correction_confirm",
    "correction_reject",
    "correction_request",
    "draw_cancel",
    "draw_close_sales",
    "draw_open_sales",
    "draw_schedule",
    "draw_set_central_inputs",
    "draw_set_jackpot",
    "games_sync",
    "load_default_rulesets",
    "params_fingerprint",
    "pay_draw",
    "pay_refunds",
    "payout_approve_large",
    "payouts_retry",
    "result_confirm",
    "result_enter",
    "result_reject",
    "result_withdraw",
    "ruleset_check_tables",
    "ruleset_publish",
    "settlement_approve",
    "wager_place",
]
