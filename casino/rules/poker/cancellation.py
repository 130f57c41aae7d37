"""Compensation when the online room cancels a tournament (003 Rules 52-55, §3.6): the JSON kind
``cancellation`` (docs/poker/tournaments.md).

Which rule applies follows from what the tournament reached, never from a label the caller picks:

* not started: **52** (also Rule 37): every registration refunded in full by its method (a ticket
  comes back as the same ticket);
* HexaPro: **55**: each remaining player gets his buy-in back and 10 % of the pool; what is left after
  prizes already won goes by ICM on the unpaid places (A-20);
* started, remaining players more than the paid places: **53**: refunds, then the pot collected from
  players (net of the refunded prize parts, A-15) half equally, half by chips; a freeroll distributes
  its added prize pool instead;
* in the money (remaining <= paid places, A-17), more than one table: **54**: refunds, each player the
  lowest remaining prize, the rest by chips; at the final table (one table left): **54** by ICM on the
  unpaid ladder scaled to what is distributed.

Chips are the stacks at the start of the interrupted hand (A-19). Cents per 003 §3.0: floor, leftover
cents by largest remainder, equal remainders to the larger stack, then the listed order. A bounty
event pays each remaining player his own bounty on top (A-21), kept out of the split; so a refund
covers the prize part and the fee of his entry, rebuys and add-ons, not the bounty part (his bounty,
which includes it, is paid whole).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..base import EngineError, require
from ..jsonio import KINDS
from . import hexapro as hx
from . import icm as icm_engine
from ._prizes import cents, check_keys, chips, count, largest_remainder, listed, money, name

REFUND_BASES = ("full_price_net_of_pool", "fee_only")
INPUT_KEYS = {
    "kind", "format", "started", "registrations", "entry", "entries", "rebuy", "add_on", "rebuys", "add_ons",
    "freeroll_added", "payouts", "tables_remaining", "players", "refund_basis", "buy_in", "multiplier",
    "eliminated",
}
FORMATS = ("mtt", "sit_and_go", "hexapro")


def cancellation(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "cancellation")
    fmt = doc.get("format", "mtt")
    if fmt not in FORMATS:
        raise EngineError("format", f"{fmt!r} is not one of: {', '.join(FORMATS)}")
    started = require(doc, "started", "")
    if not isinstance(started, bool):
        raise EngineError("started", "true once the tournament has started")
    if not started:
        return _before_start(doc)
    if fmt == "hexapro":
        return _hexapro(doc)
    return _started(doc)


# ------------------------------------------------------------------------------------------- Rule 52


def _before_start(doc: Mapping[str, Any]) -> dict[str, Any]:
    refunds = []
    total = 0
    for i, reg in enumerate(listed(doc, "registrations", "", high=100_000)):
        where = f"registrations[{i}]"
        check_keys(reg, {"player", "paid", "ticket"}, "registration", where)
        who = name(require(reg, "player", where), f"{where}.player")
        if ("paid" in reg) == ("ticket" in reg):
            raise EngineError(where, "either `paid` (the amount paid in money) or `ticket` (the ticket used)")
        if "ticket" in reg:
            ticket = reg["ticket"]
            if not isinstance(ticket, str) or not ticket:
                raise EngineError(f"{where}.ticket", "the reference of the ticket used")
            refunds.append({"player": who, "ticket": ticket, "rule": "003 Rule 52: the same ticket is returned"})
        else:
            paid = cents(reg["paid"], f"{where}.paid", allow_zero=False)
            total += paid
            refunds.append({"player": who, "refund": money(paid),
                            "rule": "003 Rule 52: the buy-in and fee refunded in full, by the same method"})
    per_player: dict[str, dict[str, Any]] = {}
    for r in refunds:
        item = per_player.setdefault(r["player"], {"player": r["player"], "money": 0, "tickets": []})
        if "refund" in r:
            item["money"] += cents(r["refund"], "refund")
        else:
            item["tickets"].append(r["ticket"])
    return {
        "rule_applied": "52",
        "state": "cancelled before the start",
        "refunds": refunds,
        "players": [{**p, "money": money(p["money"])} for p in per_player.values()],
        "refunded_money": money(total),
        "rule": "003 Rule 52 (and Rule 37): every registration, multiple registrations included, refunded in "
                "full; no prize is paid; a guarantee lapses",
    }


# ---------------------------------------------------------------------------------------- Rules 53-54


def _price(raw: Any, field: str) -> tuple[int, int, int]:
    check_keys(raw, {"prize", "fee", "bounty"}, "price", field)
    return (cents(require(raw, "prize", field), f"{field}.prize"), cents(raw.get("fee", "0.00"), f"{field}.fee"),
            cents(raw.get("bounty", "0.00"), f"{field}.bounty"))


def _players(doc: Mapping[str, Any], extra: set[str]) -> list[dict[str, Any]]:
    out = []
    seen = set()
    for i, p in enumerate(listed(doc, "players", "", high=100_000)):
        where = f"players[{i}]"
        check_keys(p, {"player", "chips", *extra}, "remaining player", where)
        who = name(require(p, "player", where), f"{where}.player")
        if who in seen:
            raise EngineError(f"{where}.player", f"{who!r} is listed twice")
        seen.add(who)
        item = {"player": who, "chips": chips(require(p, "chips", where), f"{where}.chips"), "where": where}
        for key in extra & {"rebuys", "add_ons"}:
            item[key] = count(p.get(key, 0), f"{where}.{key}", 0, 1000)
        if "bounty" in extra:
            item["bounty"] = cents(p["bounty"], f"{where}.bounty") if "bounty" in p else None
        out.append(item)
    return out


def _ladder(doc: Mapping[str, Any]) -> tuple[list[int], list[str]]:
    ladder, notes = [], []
    for i, item in enumerate(listed(doc, "payouts", "", high=100_000)):
        where = f"payouts[{i}]"
        if isinstance(item, Mapping):
            check_keys(item, {"face_value", "prize"}, "non-money prize", where)
            value = cents(require(item, "face_value", where), f"{where}.face_value")
            notes.append(f"place {i + 1}: {item.get('prize', 'a non-money prize')} converted at its face value "
                         f"{money(value)} (003 Rule 54, A-22)")
            ladder.append(value)
        else:
            ladder.append(cents(item, where))
    if any(a < b for a, b in zip(ladder, ladder[1:])):
        raise EngineError("payouts", "a payout ladder does not grow from one place to the next (1st place first)")
    return ladder, notes


def _started(doc: Mapping[str, Any]) -> dict[str, Any]:
    basis = doc.get("refund_basis", REFUND_BASES[0])
    if basis not in REFUND_BASES:
        raise EngineError("refund_basis", f"{basis!r} is not one of: {', '.join(REFUND_BASES)}")
    freeroll = doc.get("freeroll_added") is not None
    if freeroll and "entry" in doc:
        raise EngineError("entry", "a freeroll has no buy-in (003 §2.12): give `freeroll_added` only")
    entry = (0, 0, 0) if freeroll else _price(require(doc, "entry", ""), "entry")
    entries = count(require(doc, "entries", ""), "entries", 1)
    buys = {}
    for key, price_key in (("rebuys", "rebuy"), ("add_ons", "add_on")):
        n = count(doc.get(key, 0), key)
        if n and price_key not in doc:
            raise EngineError(price_key, f"is required with {key}: its prize part and fee")
        buys[key] = (n, _price(doc[price_key], price_key) if price_key in doc else (0, 0, 0))
    players = _players(doc, {"rebuys", "add_ons", "bounty"})
    n = len(players)
    if n > entries + buys["rebuys"][0]:
        raise EngineError("players", f"{n} remaining players for {entries} entries")
    for p in players:
        for key in ("rebuys", "add_ons"):
            if p[key] and not buys[key][0]:
                raise EngineError(f"{p['where']}.{key}", f"the tournament records no {key}")
    collected = entries * entry[0] + sum(k * price[0] for k, price in buys.values())
    rules: list[str] = []

    # Refunds (003 Rules 53, 54; A-15): the current entry + his rebuys and add-ons.
    for p in players:
        parts = [entry, *([buys["rebuys"][1]] * p["rebuys"]), *([buys["add_ons"][1]] * p["add_ons"])]
        p["refund_prize"] = sum(x[0] for x in parts) if basis == REFUND_BASES[0] else 0
        p["refund"] = p["refund_prize"] + sum(x[1] for x in parts)
    refunded_prize = sum(p["refund_prize"] for p in players)
    rules.append("003 Rules 53, 54, A-15 (default reading): each remaining player's buy-in refunded in full "
                 "(prize part + fee of his entry, rebuys and add-ons), funded from the pool"
                 if basis == REFUND_BASES[0] else
                 "003 §5 item 15, alternative reading `fee_only`: the fees refunded, the whole pool split")
    bounty_event = entry[2] > 0
    if bounty_event:
        for p in players:
            if p["bounty"] is None:
                raise EngineError(f"{p['where']}.bounty", "is required in a bounty event: the bounty on his own "
                                                          "head now (003 A-21)")
        rules.append("003 cancellation policy, A-21: each remaining player also receives his own bounty, kept out "
                     "of the split")

    ladder, notes = (_ladder(doc) if "payouts" in doc else ([], []))
    stacks = [p["chips"] for p in players]
    total_chips = sum(stacks)
    status = "computed"
    in_money = bool(ladder) and n <= len(ladder)
    if not in_money:
        applied = "53"
        if freeroll:
            pot = cents(doc["freeroll_added"], "freeroll_added", allow_zero=False)
            for p in players:
                p["refund"] = p["refund_prize"] = 0
            rules.append("003 Rule 53 exception: a freeroll distributes its added prize pool (no refunds)")
        else:
            pot = collected - refunded_prize
            rules.append(f"003 Rule 53, §3.6: the pot collected from players {money(collected)} less the refunded "
                         f"prize parts {money(refunded_prize)} = {money(pot)}; a guarantee's overlay is not "
                         "included (A-16)")
        half = Fraction(pot, 2)
        shares = [half / n + half * s / total_chips for s in stacks]
        rules.append("003 Rule 53: half divided equally, half in proportion to the chips (at the start of the "
                     "interrupted hand, A-19)")
    else:
        unpaid = sum(ladder[:n])
        pot = unpaid - refunded_prize
        tables = count(require(doc, "tables_remaining", ""), "tables_remaining", 1, 10_000)
        rules.append(f"003 Rule 54, §3.6: the unpaid prizes (places 1-{n}) {money(unpaid)} less the refunded "
                     f"prize parts {money(refunded_prize)} = {money(pot)}")
        if tables == 1:
            applied = "54-final-table"
            raw = icm_engine.equities(stacks, ladder[:n])
            shares = [e * pot / unpaid for e in raw]
            rules.append("003 Rule 54, A-17, A-18: at the final table, by ICM (Malmuth-Harville) on the unpaid "
                         "ladder, scaled to the amount distributed")
        else:
            applied = "54"
            lowest = ladder[n - 1]
            if pot < n * lowest:
                status = "manual_decision"
                shares = [Fraction(0)] * n
                rules.append(f"003 §3.6 guard: {money(pot)} is less than {n} x the lowest remaining prize "
                             f"{money(lowest)}: management decides (the policy's final clause)")
            else:
                shares = [lowest + Fraction((pot - n * lowest) * s, total_chips) for s in stacks]
                rules.append(f"003 Rule 54: each player the lowest remaining prize {money(lowest)} (place {n}), "
                             "the rest in proportion to the chips")
    rules.extend(notes)
    amounts = (largest_remainder(pot, shares, lambda i: (-stacks[i], i)) if status == "computed" else [0] * n)
    rules.append("003 §3.0: floored to the cent, leftover cents by largest remainder, equal remainders to the "
                 "larger stack, then the listed order")
    out = []
    for p, a in zip(players, amounts):
        item = {"player": p["player"], "chips": p["chips"], "refund": money(p["refund"]), "distribution": money(a)}
        own = (p["bounty"] or 0) if bounty_event else 0
        if bounty_event:
            item["own_bounty"] = money(own)
        item["total"] = money(p["refund"] + a + own)
        out.append(item)
    return {
        "rule_applied": applied,
        "status": status,
        "remaining_players": n,
        "distributed": money(pot if status == "computed" else 0),
        "refunds": money(sum(p["refund"] for p in players)),
        "players": out,
        "total_paid": money(sum(p["refund"] for p in players) + sum(amounts)
                            + (sum(p["bounty"] or 0 for p in players) if bounty_event else 0)),
        "rules": rules,
    }


# ------------------------------------------------------------------------------------------- Rule 55


def _hexapro(doc: Mapping[str, Any]) -> dict[str, Any]:
    buy_in, multiplier, pool = hx.read_game(doc)
    players = _players(doc, set())
    ladder = [int(pool * f) for f in hx.ladder_fractions(multiplier)]  # exact: published pools
    won = {}
    for i, e in enumerate(doc.get("eliminated") or []):
        where = f"eliminated[{i}]"
        check_keys(e, {"player", "place"}, "eliminated player", where)
        who = name(require(e, "player", where), f"{where}.player")
        won[who] = count(require(e, "place", where), f"{where}.place", 2, 3)
    n = len(players)
    if n + len(won) != 3 or sorted(won.values()) != list(range(n + 1, 4)):
        raise EngineError("eliminated", "HexaPro is three-handed: the remaining players plus those already out "
                                        "(places 3, then 2) make three")
    if {p["player"] for p in players} & set(won):
        raise EngineError("eliminated", "a player is both remaining and eliminated")
    paid_so_far = sum(ladder[place - 1] for place in won.values())
    tenth = pool // 10
    remainder = pool - paid_so_far - n * tenth
    stacks = [p["chips"] for p in players]
    unpaid = ladder[:n]
    shares = [e * remainder / sum(unpaid) for e in icm_engine.equities(stacks, unpaid)]
    amounts = largest_remainder(remainder, shares, lambda i: (-stacks[i], i))
    rows = []
    for p, a in zip(players, amounts):
        rows.append({"player": p["player"], "chips": p["chips"], "refund": money(buy_in), "ten_percent": money(tenth),
                     "distribution": money(a), "total": money(buy_in + tenth + a)})
    for who, place in sorted(won.items(), key=lambda x: x[1]):
        rows.append({"player": who, "place": place, "prize": money(ladder[place - 1]),
                     "total": money(ladder[place - 1]),
                     "rule": "003 A-20: a prize already won is paid and deducted before the split"})
    return {
        "rule_applied": "55",
        "status": "computed",
        "prize_pool": money(pool),
        "distributed": money(remainder),
        "players": rows,
        "total_paid": money(n * (buy_in + tenth) + remainder + paid_so_far),
        "rules": [
            "003 Rule 55, A-20: the buy-in refunded to every remaining player (HexaPro has no separate fee)",
            f"003 Rule 55, A-20: each remaining player receives 10 % of the prize pool ({money(tenth)})",
            f"003 Rule 55, A-20: the rest {money(pool)} - {money(paid_so_far)} already won - {n} x {money(tenth)} "
            f"= {money(remainder)} by ICM on the unpaid places, scaled",
            "003 §3.0: floored to the cent, leftover cents by largest remainder, equal remainders to the larger stack",
        ],
    }


KINDS["cancellation"] = cancellation
