"""The partial-payout additional game (000-lottery RA I, §10, W19, A18), kind ``partial_payout``.

When a machine cannot pay the whole prize or credits, the unpaid part stays on its display and an
additional game can be played whose prize is the **smallest amount the payout mechanism can pay**,
won with probability ``P = remaining / smallest_payable`` (so its expected value is the amount
owed). Only the part below one payable unit is played for (digest A18): the whole units stay owed
and are paid by other means. **Never in the casino** (RA I: "not applied to slot machines in the
casino"). Input::

    {"kind": "partial_payout", "venue": "arcade", "remaining": "0.70", "smallest_payable": "1.00",
     "outcome": "won"}

``outcome`` (optional) is what the machine's additional game produced: the answer then says what
the player is paid by it and that nothing of the played part stays owed.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..base import EngineError, money_str, to_cents_down
from ..jsonio import KINDS
from ._common import fields, money, need, venue

RULE = "000-lottery RA I (§10): partial payout and the additional game"


def partial_payout(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, {"kind", "venue", "remaining", "smallest_payable", "outcome"})
    venue_type = venue(need(doc, "venue"))
    remaining = money(need(doc, "remaining"), "remaining", allow_zero=False)
    smallest = money(need(doc, "smallest_payable"), "smallest_payable", allow_zero=False)
    outcome = doc.get("outcome")
    if outcome is not None and outcome not in ("won", "lost"):
        raise EngineError("outcome", "\"won\" or \"lost\" (what the additional game produced)")
    if venue_type == "casino":
        answer: dict[str, Any] = {
            "applicable": False, "remaining": money_str(remaining), "paid_by_other_means": money_str(remaining),
            "rule": f"{RULE}: not applied to slot machines in the casino",
        }
        if outcome is not None:
            answer["violations"] = ["outcome: an additional game was played on a casino machine (RA I forbids it)"]
        return answer
    game_amount = remaining % smallest  # the part below one payable unit (A18)
    other_means = remaining - game_amount
    answer = {
        "applicable": game_amount > 0,
        "remaining": money_str(remaining),
        "paid_by_other_means": money_str(other_means),
        "game_amount": money_str(game_amount),
        "rule": RULE + "; digest A18: only the part below the smallest payable amount",
    }
    if game_amount > 0:
        p = Fraction(game_amount) / Fraction(smallest)
        answer.update({
            "prize": money_str(smallest),
            "probability": f"{p.numerator}/{p.denominator}",
            "probability_percent": money_str(to_cents_down(p * 100)),  # shown rounded down
            "expected_value": money_str(game_amount),
        })
        if outcome is not None:
            answer["paid_by_game"] = money_str(smallest if outcome == "won" else Decimal(0))
            answer["still_owed"] = money_str(other_means)
    elif outcome is not None:
        answer["violations"] = ["outcome: no additional game is due (nothing below one payable unit is owed)"]
    return answer


KINDS["partial_payout"] = partial_payout
