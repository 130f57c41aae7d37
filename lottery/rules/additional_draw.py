"""Veikkaus additional draws (lisäarvonta), digest §7, rules §40-§43.

The rules leave the participation conditions (§41), the winning conditions and the number and
value of the prizes (§43) to the game instructions, and the funding to the operator's choice
between the game's turnover and unpaid gaming funds (§40). So every one of them is an input, none
has a default:

* ``conditions`` (§41): the instructions' participation conditions, each optional; an entry takes
  part when it meets every condition given: ``games`` (list), ``draws`` (list of draw references),
  ``channels`` (list), ``min_stake`` (euros), ``purchased_from`` / ``purchased_to`` (dates,
  inclusive).
* ``weighting``: ``"entry"`` (one chance per entry) or ``"stake"`` (chances in proportion to the
  stake, in cents).
* ``one_prize_per_entry``: true (a drawn entry leaves the draw) or false (it stays in).
* ``prizes`` (§43): the prize amounts in the order they are drawn.
* ``funding`` (§40): ``"turnover"`` or ``"unpaid_funds"``; recorded with the result.

The draw (§42, "a random-based draw system built for the purpose") is lottery.rules.drbg:
HMAC_DRBG from the recorded ``seed`` personalised with ``draw_ref``; entries are taken in the order
of their identifiers, so the input's order does not matter, and ``entries_sha256`` fingerprints
what was drawn from::

    {"kind": "additional_draw", "draw_ref": "LOTTO-2028-18-LA", "seed": "<64 hex digits>",
     "conditions": {"games": ["lotto"], "min_stake": "2.00"}, "weighting": "entry",
     "one_prize_per_entry": true, "prizes": ["1000.00"], "funding": "unpaid_funds",
     "entries": [{"entry": "W1", "game": "lotto", "stake": "2.00"}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import jsonfields as jf
from .drbg import drbg_for, parse_seed, weighted_draw
from .errors import RoundInputError
from .rahapika import draw_answer, prize_list

KEYS = {"kind", "draw_ref", "seed", "conditions", "weighting", "one_prize_per_entry", "prizes", "funding",
        "entries"}
CONDITION_KEYS = {"games", "draws", "channels", "min_stake", "purchased_from", "purchased_to"}
ENTRY_KEYS = {"entry", "game", "draw", "channel", "stake", "purchased_on"}


def _names(value: Any, field: str) -> set[str]:
    return {jf.text(v, jf.path(field, i), max_len=64) for i, v in enumerate(jf.items(value, field, min_len=1))}


def _conditions(raw: Any) -> dict[str, Any]:
    data = jf.obj(raw, "conditions")
    jf.only(data, CONDITION_KEYS, "conditions")
    out: dict[str, Any] = {}
    for key in ("games", "draws", "channels"):
        if data.get(key) is not None:
            out[key] = _names(data[key], f"conditions.{key}")
    if data.get("min_stake") is not None:
        out["min_stake"] = jf.amount(data["min_stake"], "conditions.min_stake")
    for key in ("purchased_from", "purchased_to"):
        if data.get(key) is not None:
            out[key] = jf.date(data[key], f"conditions.{key}")
    return out


def _reasons(entry: Mapping[str, Any], cond: Mapping[str, Any], where: str) -> list[str]:
    """The §41 conditions the entry does not meet; a condition needs the entry's field."""
    reasons = []
    for key, field in (("games", "game"), ("draws", "draw"), ("channels", "channel")):
        if key in cond:
            value = jf.text(jf.need(entry, field, where), f"{where}.{field}", max_len=64)
            if value not in cond[key]:
                reasons.append(f"{field} {value!r} is not one of the conditions' {key}")
    if "min_stake" in cond:
        stake = jf.amount(jf.need(entry, "stake", where), f"{where}.stake")
        if stake < cond["min_stake"]:
            reasons.append(f"stake {jf.euros(stake)} is below the minimum {jf.euros(cond['min_stake'])}")
    if "purchased_from" in cond or "purchased_to" in cond:
        day = jf.date(jf.need(entry, "purchased_on", where), f"{where}.purchased_on")
        if "purchased_from" in cond and day < cond["purchased_from"]:
            reasons.append(f"purchased on {day.isoformat()}, before {cond['purchased_from'].isoformat()}")
        if "purchased_to" in cond and day > cond["purchased_to"]:
            reasons.append(f"purchased on {day.isoformat()}, after {cond['purchased_to'].isoformat()}")
    return reasons


def additional_draw(doc: Mapping[str, Any]) -> dict[str, Any]:
    jf.only(doc, KEYS)
    seed = parse_seed(jf.need(doc, "seed"))
    draw_ref = jf.text(jf.need(doc, "draw_ref"), "draw_ref")
    cond = _conditions(jf.need(doc, "conditions"))
    weighting = jf.choice(jf.need(doc, "weighting"), ("entry", "stake"), "weighting")
    one_each = jf.flag(jf.need(doc, "one_prize_per_entry"), "one_prize_per_entry")
    prizes = prize_list(jf.need(doc, "prizes"))
    funding = jf.choice(jf.need(doc, "funding"), ("turnover", "unpaid_funds"), "funding")
    raw = jf.items(jf.need(doc, "entries"), "entries", min_len=1, max_len=1_000_000)
    eligible: dict[str, int] = {}
    refused = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = jf.path("entries", i)
        item = jf.obj(item, where)
        jf.only(item, ENTRY_KEYS, where)
        ref = jf.text(jf.need(item, "entry", where), f"{where}.entry", max_len=64)
        if ref in seen:
            raise RoundInputError(f"{where}.entry", f"{ref!r} is listed twice")
        seen.add(ref)
        reasons = _reasons(item, cond, where)
        if reasons:
            refused.append({"entry": ref, "reasons": reasons})
            continue
        if weighting == "stake":
            weight = int(jf.amount(jf.need(item, "stake", where), f"{where}.stake", positive=True) * 100)
        else:
            weight = 1
        eligible[ref] = weight
    entries = sorted(eligible.items())
    chosen = weighted_draw([w for _, w in entries], len(prizes), drbg_for(seed, draw_ref), replace=not one_each)
    return draw_answer(
        entries=entries, chosen=chosen, prizes=prizes, seed=doc["seed"], draw_ref=draw_ref,
        rule="000-lottery §40-§43: conditions, prizes and funding per the game instructions",
        extra={"not_eligible": refused, "weighting": weighting, "one_prize_per_entry": one_each,
               "funding": funding},
    )
