"""Nettiarvat, online instant tickets (digest §9, NA §1-§15): void-and-refund netting and the draw
at purchase from a depleting ticket pool.

Kind ``nettiarvat_refund`` (NA §6, §13-§15)::

    {"kind": "nettiarvat_refund", "reason": "ticket_error", "fee": "5.00", "prize_kept": "2.00"}

* ``contract_not_formed`` (NA §6): no contract, so no prize; the whole fee is refunded.
  ``prize_kept`` must be absent or zero.
* ``ticket_error`` (NA §13) and ``contradictory_information`` (NA §14): the ticket is voided and the
  fee refunded; a prize the player may keep **counts as part of the refund** (NA §15):
  ``refund = max(0, fee - prize_kept)``. ``prize_kept`` is required (``"0.00"`` when there was no
  prize or it is not kept).

Kind ``nettiarvat_draw`` (NA §3-§4, §8-§9): the pool (*arpakanta*) is one or more batches, each a
list of prize classes with the number of tickets left. Every ticket left is equally likely; the
drawn ticket leaves its batch (depleting batches). The random choice is either a recorded whole
number ``random_value`` in ``[0, tickets left)`` or a recorded ``seed`` with a ``draw_ref``
(lottery.rules.drbg: HMAC_DRBG), so the draw can be re-run. Tickets are numbered in the order the
pool state lists them (batches in order, classes in order); that order is part of the recorded
state::

    {"kind": "nettiarvat_draw", "draw_ref": "sale-0001", "seed": "<64 hex digits>", "tickets": 1,
     "pool": [{"batch": "B1", "classes": [{"class": "none", "prize": "0.00", "left": 9000},
                                          {"class": "5e", "prize": "5.00", "left": 1000}]}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from . import jsonfields as jf
from .drbg import METHOD, drbg_for, parse_seed, weighted_pick
from .errors import RoundInputError

REASONS = {
    "contract_not_formed": "NA §6",
    "ticket_error": "NA §13, §15",
    "contradictory_information": "NA §14, §15",
}
REFUND_KEYS = {"kind", "reason", "fee", "prize_kept", "ticket"}


def refund(fee: Fraction, prize_kept: Fraction) -> Fraction:
    """NA §15: the prize kept counts towards the refund; never below zero, never above the fee."""
    return max(Fraction(0), fee - prize_kept)


def nettiarvat_refund(doc: Mapping[str, Any]) -> dict[str, Any]:
    jf.only(doc, REFUND_KEYS)
    reason = jf.choice(jf.need(doc, "reason"), REASONS, "reason")
    fee = jf.amount(jf.need(doc, "fee"), "fee", positive=True)
    if reason == "contract_not_formed":
        kept = jf.amount(doc["prize_kept"], "prize_kept") if doc.get("prize_kept") is not None else Fraction(0)
        if kept:
            raise RoundInputError("prize_kept", "no contract came into force (NA §5-§6), so there is no prize to keep")
        amount = fee
        note = "the contract did not come into force: the stake is refunded (NA §6)"
    else:
        kept = jf.amount(jf.need(doc, "prize_kept"), "prize_kept")
        amount = refund(fee, kept)
        note = "the prize kept counts as part of the refund; only the difference is paid (NA §15)"
    answer = {
        "reason": reason,
        "fee": jf.euros(fee),
        "prize_kept": jf.euros(kept),
        "prize_counted_as_refund": jf.euros(min(fee, kept)),
        "refund": jf.euros(amount),
        "rule": REASONS[reason],
        "note": note,
    }
    if "ticket" in doc:
        answer["ticket"] = jf.text(doc["ticket"], "ticket", max_len=64)
    return answer


DRAW_KEYS = {"kind", "pool", "tickets", "seed", "draw_ref", "random_value"}


def _pool(raw: Any) -> list[dict[str, Any]]:
    batches = jf.items(raw, "pool", min_len=1, max_len=1000)
    out = []
    names: set[str] = set()
    for b, batch in enumerate(batches):
        where = jf.path("pool", b)
        batch = jf.obj(batch, where)
        jf.only(batch, {"batch", "classes"}, where)
        name = jf.text(jf.need(batch, "batch", where), f"{where}.batch", max_len=64)
        if name in names:
            raise RoundInputError(f"{where}.batch", f"{name!r} is listed twice")
        names.add(name)
        classes = []
        labels: set[str] = set()
        for c, cls in enumerate(jf.items(jf.need(batch, "classes", where), f"{where}.classes", min_len=1,
                                         max_len=1000)):
            cw = jf.path(f"{where}.classes", c)
            cls = jf.obj(cls, cw)
            jf.only(cls, {"class", "prize", "left"}, cw)
            label = jf.text(jf.need(cls, "class", cw), f"{cw}.class", max_len=64)
            if label in labels:
                raise RoundInputError(f"{cw}.class", f"{label!r} is listed twice in batch {name!r}")
            labels.add(label)
            classes.append({"class": label, "prize": jf.amount(jf.need(cls, "prize", cw), f"{cw}.prize"),
                            "left": jf.count(jf.need(cls, "left", cw), f"{cw}.left")})
        out.append({"batch": name, "classes": classes})
    return out


def nettiarvat_draw(doc: Mapping[str, Any]) -> dict[str, Any]:
    jf.only(doc, DRAW_KEYS)
    pool = _pool(jf.need(doc, "pool"))
    wanted = jf.count(doc.get("tickets", 1), "tickets", low=1, high=1000)
    cells = [(b, c) for b, batch in enumerate(pool) for c, _ in enumerate(batch["classes"])]
    left = [pool[b]["classes"][c]["left"] for b, c in cells]
    total_before = sum(left)
    if total_before < wanted:
        raise RoundInputError("pool", f"only {total_before} tickets are left; {wanted} cannot be drawn")
    has_seed, has_value = doc.get("seed") is not None, doc.get("random_value") is not None
    if has_seed == has_value:
        raise RoundInputError("seed", "give exactly one of `seed` (with `draw_ref`) or `random_value`")
    if has_value:
        if wanted != 1:
            raise RoundInputError("random_value", "draws one ticket; use `seed` for several")
        values = [jf.count(doc["random_value"], "random_value", low=0, high=total_before - 1)]
        method = "recorded random value"
        generator = None
    else:
        generator = drbg_for(parse_seed(doc["seed"]), jf.text(jf.need(doc, "draw_ref"), "draw_ref"))
        values = []
        method = METHOD
    drawn = []
    for i in range(wanted):
        total = sum(left)
        u = values[i] if generator is None else generator.below(total)
        cell = weighted_pick(left, u)
        # the ticket's number among those left: tickets are numbered in the pool state's order
        b, c = cells[cell]
        left[cell] -= 1
        cls = pool[b]["classes"][c]
        drawn.append({"batch": pool[b]["batch"], "class": cls["class"], "prize": jf.euros(cls["prize"]),
                      "random_value": u, "tickets_left_before": total})
    after = []
    k = 0
    for batch in pool:
        classes = []
        for cls in batch["classes"]:
            classes.append({"class": cls["class"], "prize": jf.euros(cls["prize"]), "left": left[k]})
            k += 1
        after.append({"batch": batch["batch"], "classes": classes})
    answer = {
        "drawn": drawn,
        "pool_after": after,
        "tickets_left_before": total_before,
        "tickets_left_after": sum(left),
        "method": method,
        "rule": "NA §4 (depleting batches), §8-§9 (random draw at purchase)",
    }
    if generator is not None:
        answer["seed"] = doc["seed"].lower()
        answer["draw_ref"] = doc["draw_ref"]
    return answer
