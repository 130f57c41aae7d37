"""Slot-machine and automated-table jackpots (000-lottery RA I, RA I-ATG): the jackpot-stake
refund and the removed jackpot's transfer to unpaid gaming funds.

Kind ``jackpot_stake_refund``: a player who placed a **separate jackpot stake** but did not take
part in the jackpot draw gets that stake back; where no separate jackpot stake was required, the
jackpot portion of the stake is never refunded::

    {"kind": "jackpot_stake_refund", "separate_jackpot_stake_required": true,
     "jackpot_stake": "0.50", "took_part_in_draw": false}

Kind ``jackpot_removal``: when the operator removes a jackpot from its offering, the contributions
accumulated in it go to the unpaid gaming-operation funds (*maksamattomat pelitoiminnan varat*).
The rule moves the accumulated **stakes** (*kertyneet panostukset*); an operator-funded start amount
(``operator_seed``, optional) is not a stake: it is reported apart, and what becomes of it is the
operator's decision (the rules are silent)::

    {"kind": "jackpot_removal", "jackpot": "MYSTERY-1",
     "levels": [{"level": "mini", "contributions": "120.35", "operator_seed": "50.00"}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..base import EngineError, money_str
from ..jsonio import KINDS
from ._common import fields, flag, money, need

RULE = "000-lottery RA I and RA I-ATG: jackpots"


def jackpot_stake_refund(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, {"kind", "separate_jackpot_stake_required", "jackpot_stake", "took_part_in_draw"})
    required = flag(need(doc, "separate_jackpot_stake_required"), "separate_jackpot_stake_required")
    took_part = flag(need(doc, "took_part_in_draw"), "took_part_in_draw")
    if required:
        stake = money(need(doc, "jackpot_stake"), "jackpot_stake", allow_zero=False)
        refund = Decimal(0) if took_part else stake
        why = ("the player took part in the jackpot draw: nothing to refund" if took_part else
               "a separate jackpot stake was placed but the player did not take part in the draw: refunded")
    else:
        stake = money(doc.get("jackpot_stake", "0"), "jackpot_stake")
        refund = Decimal(0)
        why = "no separate jackpot stake was required: the jackpot portion of the stake is not refunded"
    return {"refund": money_str(refund), "jackpot_stake": money_str(stake), "reason": why, "rule": RULE}


def jackpot_removal(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, {"kind", "jackpot", "levels"})
    jackpot = need(doc, "jackpot")
    if not isinstance(jackpot, str) or not 0 < len(jackpot) <= 64:
        raise EngineError("jackpot", "the jackpot's reference, 1-64 characters")
    raw = need(doc, "levels")
    if not isinstance(raw, list) or not 1 <= len(raw) <= 100:
        raise EngineError("levels", "a list of 1-100 levels {level, contributions, operator_seed}")
    rows, names = [], set()
    total = seeds = Decimal(0)
    for i, level in enumerate(raw):
        where = f"levels[{i}]"
        fields(level, {"level", "contributions", "operator_seed"}, where)
        name = need(level, "level", where)
        if not isinstance(name, str) or not 0 < len(name) <= 64 or name in names:
            raise EngineError(f"{where}.level", "a level name of 1-64 characters, each level once")
        names.add(name)
        contributions = money(need(level, "contributions", where), f"{where}.contributions")
        seed = money(level.get("operator_seed", "0"), f"{where}.operator_seed")
        total += contributions
        seeds += seed
        rows.append({"level": name, "to_unpaid_funds": money_str(contributions),
                     "operator_seed_not_transferred": money_str(seed)})
    return {
        "jackpot": jackpot,
        "levels": rows,
        "to_unpaid_funds": money_str(total),
        "operator_seed_not_transferred": money_str(seeds),
        "rule": f"{RULE}: a removed jackpot's accumulated contributions go to unpaid gaming-operation funds",
    }


KINDS["jackpot_stake_refund"] = jackpot_stake_refund
KINDS["jackpot_removal"] = jackpot_removal
