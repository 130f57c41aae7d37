"""Rahapika pre-printed instant tickets: the second-chance (additional) draw, digest §8, RP §8-§18.

Kind ``rahapika_eligibility`` (RP §9, §10, §13, §18): may these tickets be registered for the
additional draws? A ticket is eligible when

* it did **not** contain a prize (RP §9);
* it is registered **within one year** of the end of the sales period printed on it: registration
  day <= that end + 1 calendar year (RP §9; a 29 February end gives 28 February);
* it has **not been registered before**, nor twice in this request (RP §13: "each ticket can take
  part only once"; RP §12: the one registration enters it in every draw it is entitled to);
* it is registered at a gaming point, an arcade or a casino (RP §10);
* it falls under these rules: sold from 1 July 2027 (RP §18). A ticket whose sale day is not known
  falls under them when its sales period ends on or after that day.

Kind ``rahapika_draw`` (RP §14-§17): the prizes fixed in advance are drawn among the eligible
tickets, each draw **proportional to the ticket price** among the tickets not yet drawn, at most
one prize per ticket (digest A24, W21). Weights are prices in cents, so the draw is exact integer
arithmetic; the random numbers come from the recorded seed (lottery.rules.drbg). Tickets are
drawn in the order of their identifiers (the input's order does not matter)::

    {"kind": "rahapika_draw", "draw_ref": "RP-2028-01", "seed": "<64 hex digits>",
     "prizes": ["1000.00", "100.00"],
     "tickets": [{"ticket": "T1", "price": "1.00"}, {"ticket": "T2", "price": "2.00"}]}
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dateutil.relativedelta import relativedelta

from . import jsonfields as jf
from .drbg import METHOD, drbg_for, entries_digest, parse_seed, weighted_draw
from .errors import RoundInputError

RULES_FROM = dt.date(2027, 7, 1)  # RP §18
CHANNELS = ("gaming_point", "arcade", "casino")  # RP §10
ELIGIBILITY_KEYS = {"kind", "registered_on", "channel", "tickets"}
TICKET_KEYS = {"ticket", "sales_period_end", "contained_prize", "already_registered", "sold_on", "price"}


def registration_deadline(sales_period_end: dt.date) -> dt.date:
    """The last day a ticket may be registered: one calendar year after its sales period ends."""
    return sales_period_end + relativedelta(years=1)


def ticket_reasons(
    *,
    registered_on: dt.date,
    channel: str,
    sales_period_end: dt.date,
    contained_prize: bool,
    already_registered: bool,
    sold_on: dt.date | None,
) -> list[str]:
    """Why a ticket may not take part (empty: it may)."""
    reasons = []
    if contained_prize:
        reasons.append("RP §9: the ticket contained a prize; only tickets without a prize take part")
    deadline = registration_deadline(sales_period_end)
    if registered_on > deadline:
        reasons.append(f"RP §9: registered after {deadline.isoformat()}, one year after the sales period ended")
    if already_registered:
        reasons.append("RP §13: the ticket has already been registered; each ticket takes part only once")
    if channel not in CHANNELS:
        reasons.append(f"RP §10: registration is at a gaming point, an arcade or a casino, not {channel!r}")
    sold = sold_on if sold_on is not None else sales_period_end
    if sold < RULES_FROM:
        reasons.append("RP §18: the rules apply to tickets sold from 2027-07-01")
    return reasons


def rahapika_eligibility(doc: Mapping[str, Any]) -> dict[str, Any]:
    jf.only(doc, ELIGIBILITY_KEYS)
    registered_on = jf.date(jf.need(doc, "registered_on"), "registered_on")
    channel = jf.text(jf.need(doc, "channel"), "channel", max_len=32)
    raw = jf.items(jf.need(doc, "tickets"), "tickets", min_len=1, max_len=100_000)
    seen: set[str] = set()
    out = []
    for i, item in enumerate(raw):
        where = jf.path("tickets", i)
        item = jf.obj(item, where)
        jf.only(item, TICKET_KEYS, where)
        ref = jf.text(jf.need(item, "ticket", where), f"{where}.ticket", max_len=64)
        end = jf.date(jf.need(item, "sales_period_end", where), f"{where}.sales_period_end")
        sold_on = jf.date(item["sold_on"], f"{where}.sold_on") if item.get("sold_on") is not None else None
        if sold_on is not None and sold_on > end:
            raise RoundInputError(f"{where}.sold_on", "is after the end of the ticket's sales period")
        if sold_on is not None and sold_on > registered_on:
            raise RoundInputError(f"{where}.sold_on", "is after the registration day")
        reasons = ticket_reasons(
            registered_on=registered_on,
            channel=channel,
            sales_period_end=end,
            contained_prize=jf.flag(jf.need(item, "contained_prize", where), f"{where}.contained_prize"),
            already_registered=jf.flag(jf.need(item, "already_registered", where), f"{where}.already_registered"),
            sold_on=sold_on,
        )
        if ref in seen:
            reasons.append("RP §13: the ticket is listed twice in this registration; it takes part once")
        seen.add(ref)
        row: dict[str, Any] = {"ticket": ref, "eligible": not reasons, "reasons": reasons,
                               "register_by": registration_deadline(end).isoformat()}
        if "price" in item:
            row["price"] = jf.euros(jf.amount(item["price"], f"{where}.price", positive=True))
        out.append(row)
    return {"registered_on": registered_on.isoformat(), "channel": channel, "tickets": out,
            "eligible": sum(1 for r in out if r["eligible"])}


def prize_list(raw: Any, field: str = "prizes") -> list[Fraction]:
    prizes = jf.items(raw, field, min_len=1, max_len=100_000)
    return [jf.amount(p, jf.path(field, i), positive=True) for i, p in enumerate(prizes)]


def draw_answer(
    *, entries: list[tuple[str, int]], chosen: list[int], prizes: list[Fraction], seed: str, draw_ref: str,
    rule: str, extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    winners = [{"order": k + 1, "entry": entries[i][0], "weight": entries[i][1], "prize": jf.euros(prizes[k])}
               for k, i in enumerate(chosen)]
    answer = {
        "winners": winners,
        "unawarded": [jf.euros(p) for p in prizes[len(chosen):]],
        "entries": len(entries),
        "total_weight": sum(w for _, w in entries),
        "entries_sha256": entries_digest(entries),
        "seed": seed.lower(),
        "draw_ref": draw_ref,
        "method": METHOD,
        "rule": rule,
    }
    if extra:
        answer.update(extra)
    return answer


DRAW_KEYS = {"kind", "draw_ref", "seed", "prizes", "tickets"}


def rahapika_draw(doc: Mapping[str, Any]) -> dict[str, Any]:
    jf.only(doc, DRAW_KEYS)
    seed = parse_seed(jf.need(doc, "seed"))
    draw_ref = jf.text(jf.need(doc, "draw_ref"), "draw_ref")
    prizes = prize_list(jf.need(doc, "prizes"))
    raw = jf.items(jf.need(doc, "tickets"), "tickets", min_len=1, max_len=1_000_000)
    tickets: dict[str, int] = {}
    for i, item in enumerate(raw):
        where = jf.path("tickets", i)
        item = jf.obj(item, where)
        jf.only(item, {"ticket", "price"}, where)
        ref = jf.text(jf.need(item, "ticket", where), f"{where}.ticket", max_len=64)
        if ref in tickets:
            raise RoundInputError(f"{where}.ticket", f"{ref!r} is listed twice (RP §13: a ticket takes part once)")
        price = jf.amount(jf.need(item, "price", where), f"{where}.price", positive=True)
        tickets[ref] = int(price * 100)  # RP §15: the weight is the price (in cents)
    entries = sorted(tickets.items())
    chosen = weighted_draw([w for _, w in entries], len(prizes), drbg_for(seed, draw_ref))
    return draw_answer(entries=entries, chosen=chosen, prizes=prizes, seed=doc["seed"], draw_ref=draw_ref,
                       rule="RP §15-§17: each draw proportional to the ticket price, one prize per ticket")
