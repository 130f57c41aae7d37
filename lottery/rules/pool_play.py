"""Pool play (porukkapelit), digest §6, rules §38-§39: turnover and the split of a pool's prizes.

§39: a partly sold pool game is treated as **fully sold** both in the game's total turnover and in
its prize distribution: all its lines take part in settlement and its full price counts in turnover.
Who receives the prizes of the unsold shares is left to the game instructions (digest A22), so the
input names it (``unsold_to``: ``"operator"`` or ``"organiser"``); the engine invents no default.

The split is exact: every share is worth ``winnings / shares_total``; a holder gets
``shares x that``, rounded **down** to the rounding step (digest §0.4: one rounding, at the amount
paid to one winner; default step 0.01 €); the unsold shares' part is rounded the same way; what the
rounding leaves over is **breakage**, reported and booked by the operator, never lost::

    winnings = sum(holders' paid) + unsold paid + breakage,   0 <= breakage < (holders + 1) x step

JSON (kind ``pool_shares``, docs/instant-and-pools.md)::

    {"kind": "pool_shares", "share_price": "5.00", "shares_total": 10, "unsold_to": "operator",
     "holders": [{"holder": "A", "shares": 3}, {"holder": "B", "shares": 4}], "winnings": "100.00"}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from . import jsonfields as jf
from .errors import RoundInputError

KEYS = {"kind", "pool", "share_price", "shares_total", "holders", "winnings", "unsold_to", "rounding_step"}
STEPS = {"0.01": Fraction(1, 100), "0.10": Fraction(1, 10)}
RULE = "000-lottery §39 (digest §6)"


def _down(value: Fraction, step: Fraction) -> Fraction:
    return math.floor(value / step) * step


def pool_shares(doc: Mapping[str, Any]) -> dict[str, Any]:
    jf.only(doc, KEYS)
    share_price = jf.amount(jf.need(doc, "share_price"), "share_price", positive=True)
    total = jf.count(jf.need(doc, "shares_total"), "shares_total", low=1, high=1_000_000)
    unsold_to = jf.choice(jf.need(doc, "unsold_to"), ("operator", "organiser"), "unsold_to")
    winnings = jf.amount(jf.need(doc, "winnings"), "winnings")
    step_text = doc.get("rounding_step", "0.01")
    step = STEPS.get(step_text) if isinstance(step_text, str) else None
    if step is None:
        raise RoundInputError("rounding_step", f"one of: {', '.join(STEPS)}")
    raw = jf.items(jf.need(doc, "holders"), "holders", min_len=0, max_len=total)
    holders: list[tuple[str, int]] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = jf.path("holders", i)
        item = jf.obj(item, where)
        jf.only(item, {"holder", "shares"}, where)
        name = jf.text(jf.need(item, "holder", where), f"{where}.holder", max_len=64)
        if name in seen:
            raise RoundInputError(f"{where}.holder", f"{name!r} is listed twice")
        seen.add(name)
        holders.append((name, jf.count(jf.need(item, "shares", where), f"{where}.shares", low=1, high=total)))
    sold = sum(s for _, s in holders)
    if sold > total:
        raise RoundInputError("holders", f"{sold} shares are held but the pool has only {total}")
    unsold = total - sold
    per_share = winnings / total
    rows = []
    paid_total = Fraction(0)
    for name, shares in holders:
        exact = per_share * shares
        paid = _down(exact, step)
        paid_total += paid
        rows.append({"holder": name, "shares": shares, "exact": jf.exact(exact), "paid": jf.euros(paid)})
    unsold_exact = per_share * unsold
    unsold_paid = _down(unsold_exact, step)
    breakage = winnings - paid_total - unsold_paid
    answer: dict[str, Any] = {
        "turnover": {
            "counted": jf.euros(share_price * total),
            "sold": jf.euros(share_price * sold),
            "unsold": jf.euros(share_price * unsold),
            "rule": f"{RULE}: a partly sold pool counts as fully sold in turnover and prize distribution",
        },
        "shares_total": total,
        "shares_sold": sold,
        "shares_unsold": unsold,
        "winnings": jf.euros(winnings),
        "per_share_exact": jf.exact(per_share),
        "holders": rows,
        "unsold": {"to": unsold_to, "shares": unsold, "exact": jf.exact(unsold_exact),
                   "paid": jf.euros(unsold_paid), "rule": "digest A22: per the game instructions"},
        "breakage": jf.euros(breakage),
        "rounding": f"down to {step_text} per recipient (digest §0.4); breakage booked by the operator",
    }
    if "pool" in doc:
        answer["pool"] = jf.text(doc["pool"], "pool", max_len=64)
    return answer
