"""Tournament prize pools, payouts, finishing order, ties and disqualification: the JSON kinds
``tournament_payout`` and ``disqualification`` (docs/poker/tournaments.md).

Money (001 §3.5, 003 §3.4, 000-casino §2.4):

* collected = entries x price + re-entries x price + rebuys x price + add-ons x price, where a price
  is prize part + house fee + bounty part; each price is checked against the venue's entry-fee cap;
* gross prize pool G = the prize parts (A-23 ``full``: every re-entry adds its prize part; ``basis``:
  the pool counts N_basis entries, the rest of the re-entry money is reported as withheld);
* a guarantee tops G up; the operator pays the overlay = max(0, guarantee - G) (003 §3.4 step 4);
* distributable = pool - the announced reserve - special prizes (001 R-17.15, R-17.18);
* N_basis = entries + the announced re-entry adjustment (A-23, default none; the source's example is
  +1 per 2 re-entries) selects the row of the published payout table;
* each place's amount from its percentage, rounded by the rulebook's reading (001 §3.5: half up, the
  residual on 1st; 003 §3.0: largest remainder), so the places add up to the distributable pool.

Finishing order (001 R-17.16, A-22; 003 Rules 41, 43): eliminations in the order they happened; in one
hand the players busted at one table are ranked by their start-of-hand stacks; 001: equal stacks, or
busts at different tables in the same (hand-for-hand) hand, share their places' prizes equally;
003: stacks decide across tables too, equal stacks by the recorded random draw. Disqualified players
(001 R-17.31) lose their placing and prize; those below move up one place per disqualified player
above them; the money stays in the pool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..base import EngineError, require
from ..jsonio import KINDS
from . import bounty as bounty_engine
from ._prizes import (
    HALF_UP_RESIDUAL_FIRST,
    LARGEST_REMAINDER,
    ROUNDINGS,
    cents,
    check_keys,
    chips,
    count,
    listed,
    money,
    name,
    percent,
    place_amounts,
    split_equal,
)

#: 000-casino §2.4 (and Appendix B): the highest tournament entry fee by venue kind, in cents.
ENTRY_FEE_CAPS: dict[str, tuple[int | None, str]] = {
    "casino": (2_000_000, "000-casino §2.4, C-4 (L2499): poker between players in the casino, at most 20 000 €"),
    "game_hall": (20_000, "000-casino §2.4 (L2487): poker tournament in a game hall, at most 200 €"),
    "casino_electronic_table": (400_000, "000-casino Appendix B (L585): automated electronic poker table, "
                                         "at most 4 000 €"),
    "online": (None, "003 gives no entry-fee cap for the online room: give `entry_fee_cap` if one applies"),
}
RULEBOOKS = ("001", "003")
DEFAULT_ROUNDING = {"001": HALF_UP_RESIDUAL_FIRST, "003": LARGEST_REMAINDER}
INPUT_KEYS = {
    "kind", "rulebook", "venue", "entry_fee_cap", "entry", "entries", "re_entries", "re_entry", "rebuys", "rebuy",
    "add_ons", "add_on", "re_entry_basis", "re_entry_pool", "reserve", "special_prizes", "guarantee",
    "payout_table", "rounding", "eliminations", "remaining", "disqualified", "bounty", "show_all_places",
}


@dataclass(frozen=True)
class Price:
    prize: int
    fee: int
    bounty: int

    @property
    def total(self) -> int:
        return self.prize + self.fee + self.bounty


def read_price(raw: Any, field: str, cap: int | None, cap_rule: str) -> Price:
    check_keys(raw, {"prize", "fee", "bounty"}, "price", field)
    price = Price(
        prize=cents(require(raw, "prize", field), f"{field}.prize"),
        fee=cents(raw.get("fee", "0.00"), f"{field}.fee"),
        bounty=cents(raw.get("bounty", "0.00"), f"{field}.bounty"),
    )
    if price.total == 0:
        raise EngineError(field, "a price of zero: a freeroll has no entries to count here (use the guarantee)")
    if cap is not None and price.total > cap:
        raise EngineError(field, f"{money(price.total)} is above the entry-fee cap {money(cap)} ({cap_rule})")
    return price


# ------------------------------------------------------------------------------------ finishing order


@dataclass
class Finisher:
    player: str
    stack: int | None  # start-of-hand stack (or final chips for the players still in)
    listed: int  # position in the input, for a stable order
    where: str


@dataclass
class Group:
    """Players who share the prizes of the places they occupy (one player: a place of his own)."""

    members: list[Finisher]
    rule: str


def read_finish(doc: Mapping[str, Any], rulebook: str) -> tuple[list[Group], list[tuple[str, list[str], str]]]:
    """The finishing order best first (groups), and the knockouts in the order they happened."""
    knockouts: list[tuple[str, list[str], str]] = []
    events: list[list[Group]] = []
    raw_events = listed(doc, "eliminations", "", low=0, high=1_000_000)
    for i, event in enumerate(raw_events):
        where = f"eliminations[{i}]"
        check_keys(event, {"hand", "players", "draw"}, "elimination", where)
        players = require(event, "players", where)
        if not isinstance(players, list) or not players:
            raise EngineError(f"{where}.players", "the players busted in this hand")
        busted: list[Finisher] = []
        tables = set()
        for j, p in enumerate(players):
            pw = f"{where}.players[{j}]"
            check_keys(p, {"player", "table", "start_stack", "eliminated_by"}, "busted player", pw)
            who = name(require(p, "player", pw), f"{pw}.player")
            stack = None
            if len(players) > 1:
                stack = chips(require(p, "start_stack", pw), f"{pw}.start_stack")
                if rulebook == "001":
                    tables.add(str(require(p, "table", pw)))
            busted.append(Finisher(who, stack, j, pw))
            if "eliminated_by" in p:
                by = p["eliminated_by"]
                if not isinstance(by, list) or not by:
                    raise EngineError(f"{pw}.eliminated_by", "the winner(s) of the highest pot he contested (A-30)")
                knockouts.append((who, [name(w, f"{pw}.eliminated_by[{k}]") for k, w in enumerate(by)],
                                  f"{pw}.eliminated_by"))
        if len({b.player for b in busted}) != len(busted):
            raise EngineError(f"{where}.players", "a player is listed twice in one hand")
        events.append(_rank_event(busted, tables, rulebook, event, where))
    groups: list[Group] = []
    remaining = listed(doc, "remaining", "", high=100_000)
    last: list[Finisher] = []
    for i, item in enumerate(remaining):
        where = f"remaining[{i}]"
        if isinstance(item, str):
            item = {"player": item}
        check_keys(item, {"player", "chips"}, "remaining player", where)
        who = name(require(item, "player", where), f"{where}.player")
        stack = chips(require(item, "chips", where), f"{where}.chips") if len(remaining) > 1 else None
        last.append(Finisher(who, stack, i, where))
    if len({f.player for f in last}) != len(last):
        raise EngineError("remaining", "a player is listed twice")
    if len(last) == 1:
        groups.append(Group(last, "the last player left wins (1st place)"))
    else:
        groups.extend(_by_stack(last, "the players still in when play ended are ranked by their chips "
                                      "(002 PP-12: the most chips wins); equal chips share"))
    for event in reversed(events):
        groups.extend(event)
    return groups, knockouts


def _by_stack(finishers: list[Finisher], rule: str) -> list[Group]:
    ordered = sorted(finishers, key=lambda f: (-(f.stack or 0), f.listed))
    groups: list[Group] = []
    for f in ordered:
        if groups and groups[-1].members[0].stack == f.stack:
            groups[-1].members.append(f)
        else:
            groups.append(Group([f], rule))
    return groups


def _rank_event(busted: list[Finisher], tables: set[str], rulebook: str, event: Mapping[str, Any],
                where: str) -> list[Group]:
    if len(busted) == 1:
        return [Group(busted, "eliminations in different hands: the later one finishes higher")]
    if rulebook == "001":
        if len(tables) > 1:
            return [Group(busted, "001 R-17.16, A-22: busted in the same hand at different tables, the players "
                                  "share their places' prizes equally whatever their stacks")]
        groups = _by_stack(busted, "001 R-17.16: busted in the same hand at one table, the larger start-of-hand "
                                   "stack finishes higher")
        for g in groups:
            if len(g.members) > 1:
                g.rule = "001 R-17.16: busted in the same hand at one table with equal start-of-hand stacks: " \
                         "they share their places' prizes equally"
        return groups
    # 003 Rules 41, 43: stacks decide (across tables in hand-for-hand); exact ties by the recorded draw.
    groups = _by_stack(busted, "003 Rules 41, 43: busted in the same (synchronized) hand, the larger "
                               "start-of-hand stack finishes higher")
    out: list[Group] = []
    for g in groups:
        if len(g.members) == 1:
            out.append(g)
            continue
        draw = event.get("draw")
        tied = {f.player for f in g.members}
        if not isinstance(draw, list) or not tied <= set(draw):
            raise EngineError(f"{where}.draw", "is required: the recorded random draw ordering the players who "
                                               f"started the hand with equal stacks ({', '.join(sorted(tied))}), "
                                               "best place first (003 Rule 41)")
        for f in sorted(g.members, key=lambda f: draw.index(f.player)):
            out.append(Group([f], "003 Rule 41: equal start-of-hand stacks, placed by the recorded random draw"))
    return out


# ---------------------------------------------------------------------------------------- placing


def assign(groups: Sequence[Group], amounts: Sequence[int], disqualified: set[str]
           ) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Places and money from the finishing order (best first) after removing disqualified players
    (001 R-17.31: the others move up, the money stays in the pool). Amounts beyond the table are 0."""
    rows: list[dict[str, Any]] = []
    prize: dict[str, int] = {}
    place = 1
    for g in groups:
        members = [f for f in g.members if f.player not in disqualified]
        if not members:
            continue
        places = list(range(place, place + len(members)))
        pot = sum(amounts[p - 1] for p in places if p <= len(amounts))
        # Odd cents of a shared prize: the larger start-of-hand stack first, then the listed order.
        order = sorted(range(len(members)), key=lambda k: (-(members[k].stack or 0), members[k].listed))
        shares = split_equal(pot, len(members))
        for rank, k in enumerate(order):
            f = members[k]
            amount = shares[rank]
            prize[f.player] = prize.get(f.player, 0) + amount
            row: dict[str, Any] = {"place": places[0] if len(members) == 1 else f"{places[0]}-{places[-1]}",
                                   "player": f.player, "amount": money(amount), "rule": g.rule}
            if len(members) > 1:
                row["shared"] = {"places": places, "prize_money": money(pot), "odd_cents": pot % len(members),
                                 "odd_cent_rule": "equal whole-cent parts; odd cents one each to the larger "
                                                  "start-of-hand stack first, then the listed order"}
            rows.append(row)
        place += len(members)
    return rows, prize


def unawarded_places(groups: Sequence[Group], amounts: Sequence[int], disqualified: set[str]) -> int:
    """The money of the paid places no eligible player reaches: with fewer players left after the
    disqualifications than places paid, the last places have nobody to move up into them."""
    eligible = sum(1 for g in groups for f in g.members if f.player not in disqualified)
    return sum(amounts[eligible:])


# ------------------------------------------------------------------------------------ payout table


def read_table(raw: Any, basis: int, field: str = "payout_table") -> tuple[list[Fraction], str]:
    """Percentages for the paid places: a list, or rows {"from", "to", "percent"} by payout basis."""
    if not isinstance(raw, list) or not raw:
        raise EngineError(field, "the published payout table: a list of percentages (1st place first), or "
                                 "rows {\"from\", \"to\", \"percent\"} by payout-basis count")
    if all(isinstance(r, Mapping) for r in raw):
        for i, row in enumerate(raw):
            where = f"{field}[{i}]"
            check_keys(row, {"from", "to", "percent"}, "payout table row", where)
            low = count(require(row, "from", where), f"{where}.from", 1)
            high = count(require(row, "to", where), f"{where}.to", low)
            if low <= basis <= high:
                return _percents(require(row, "percent", where), f"{where}.percent"), f"row {low}-{high}"
        raise EngineError(field, f"no row covers a payout basis of {basis} players")
    return _percents(raw, field), "the table"


def _percents(raw: Any, field: str) -> list[Fraction]:
    if not isinstance(raw, list) or not raw:
        raise EngineError(field, "a list of percentages, 1st place first")
    values = [percent(v, f"{field}[{i}]") for i, v in enumerate(raw)]
    if sum(values) != 1:
        total = sum(values) * 100
        raise EngineError(field, f"the percentages add up to {float(total):g} %, not 100 %")
    if any(a < b for a, b in zip(values, values[1:])):
        raise EngineError(field, "a lower place is paid more than a higher one")
    return values


# --------------------------------------------------------------------------------------- the kind


def tournament_payout(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "tournament_payout")
    rulebook = require(doc, "rulebook", "")
    if rulebook not in RULEBOOKS:
        raise EngineError("rulebook", f"{rulebook!r} is not one of: {', '.join(RULEBOOKS)}")
    venue = require(doc, "venue", "")
    if venue not in ENTRY_FEE_CAPS:
        raise EngineError("venue", f"{venue!r} is not one of: {', '.join(ENTRY_FEE_CAPS)}")
    cap, cap_rule = ENTRY_FEE_CAPS[venue]
    if doc.get("entry_fee_cap") is not None:
        own = cents(doc["entry_fee_cap"], "entry_fee_cap", allow_zero=False)
        if cap is not None and own > cap:
            raise EngineError("entry_fee_cap", f"{money(own)} is above the legal cap {money(cap)} ({cap_rule})")
        cap, cap_rule = own, f"the announced entry-fee cap {money(own)}" + (f" (within {cap_rule})" if cap else "")
    rules: list[str] = []
    entry = read_price(require(doc, "entry", ""), "entry", cap, cap_rule)
    entries = count(require(doc, "entries", ""), "entries", 1)
    re_entries = count(doc.get("re_entries", 0), "re_entries")
    re_entry = read_price(doc["re_entry"], "re_entry", cap, cap_rule) if "re_entry" in doc else entry
    buys: dict[str, tuple[int, Price | None]] = {}
    for key, price_key in (("rebuys", "rebuy"), ("add_ons", "add_on")):
        n = count(doc.get(key, 0), key)
        price = None
        if n:
            if price_key not in doc:
                raise EngineError(price_key, f"is required with {key}: its prize part and fee (R-17.9, R-17.10)")
            price = read_price(doc[price_key], price_key, cap, cap_rule)
        buys[key] = (n, price)
    if cap is not None:
        rules.append(f"{cap_rule}: every price checked")

    # Payout basis: the announced adjustment for re-entries.
    adjustment = doc.get("re_entry_basis")
    if adjustment is None:
        basis = entries
        basis_rule = "A-23: no re-entry adjustment announced, the payout basis is the entries"
    else:
        check_keys(adjustment, {"add", "per"}, "re-entry adjustment", "re_entry_basis")
        add = count(require(adjustment, "add", "re_entry_basis"), "re_entry_basis.add", 0, 1000)
        per = count(require(adjustment, "per", "re_entry_basis"), "re_entry_basis.per", 1, 1000)
        basis = entries + add * (re_entries // per)
        basis_rule = (f"R-17.8, A-23: the announced adjustment, +{add} per {per} re-entries "
                      f"(floor): {entries} + {add} x floor({re_entries}/{per}) = {basis}")
    pool_reading = doc.get("re_entry_pool", "full")
    if pool_reading not in ("full", "basis"):
        raise EngineError("re_entry_pool", f"{pool_reading!r} is not one of: full, basis")

    # Money (001 §3.5, 003 §3.4).
    n_rebuys, rebuy = buys["rebuys"]
    n_addons, addon = buys["add_ons"]
    priced = [(entries, entry), (re_entries, re_entry), (n_rebuys, rebuy), (n_addons, addon)]
    collected = sum(n * p.total for n, p in priced if p)
    fees = sum(n * p.fee for n, p in priced if p)
    bounty_pool = sum(n * p.bounty for n, p in priced if p)
    entry_prizes = entries * entry.prize + re_entries * re_entry.prize
    withheld = 0
    if pool_reading == "basis":
        counted = entry.prize * basis if re_entry.prize == entry.prize else entries * entry.prize + \
            (basis - entries) * re_entry.prize
        withheld = entry_prizes - counted
        entry_prizes = counted
        rules.append(f"A-23 `basis`: the pool counts {basis} entries; {money(withheld)} of re-entry money is "
                     "withheld from it, to be used as announced")
    gross = entry_prizes + sum(n * p.prize for n, p in ((n_rebuys, rebuy), (n_addons, addon)) if p)
    guarantee = cents(doc["guarantee"], "guarantee", allow_zero=False) if doc.get("guarantee") is not None else 0
    pool = max(gross, guarantee)
    overlay = pool - gross
    if guarantee:
        rules.append(f"003 §3.4 step 4: guaranteed {money(guarantee)}; prize pool = max(guarantee, collected "
                     f"{money(gross)}); the operator's overlay is {money(overlay)}")
    reserve = 0
    if doc.get("reserve") is not None:
        raw = doc["reserve"]
        check_keys(raw, {"percent", "amount"}, "reserve", "reserve")
        if len(raw) != 1:
            raise EngineError("reserve", "either {\"percent\": \"10\"} or {\"amount\": \"625.00\"}")
        reserve = (cents(raw["amount"], "reserve.amount") if "amount" in raw
                   else int(pool * percent(raw["percent"], "reserve.percent")))
        rules.append(f"001 R-17.15: {money(reserve)} set aside as announced (for a later tournament)")
    specials: list[dict[str, Any]] = []
    special_paid: dict[str, int] = {}
    for i, sp in enumerate(doc.get("special_prizes") or []):
        where = f"special_prizes[{i}]"
        check_keys(sp, {"name", "amount", "percent", "player"}, "special prize", where)
        label = require(sp, "name", where)
        if "amount" in sp:
            amount = cents(sp["amount"], f"{where}.amount")
        else:
            amount = int(pool * percent(require(sp, "percent", where), f"{where}.percent"))
        who = name(require(sp, "player", where), f"{where}.player")
        special_paid[who] = special_paid.get(who, 0) + amount
        specials.append({"name": str(label), "player": who, "amount": money(amount),
                         "rule": "001 R-17.18: a special prize from its announced share of the pool"})
    distributable = pool - reserve - sum(special_paid.values())
    if distributable < 0:
        raise EngineError("special_prizes", "the reserve and special prizes are more than the prize pool")

    fractions, row = read_table(require(doc, "payout_table", ""), basis)
    rounding = doc.get("rounding", DEFAULT_ROUNDING[rulebook])
    if rounding not in ROUNDINGS:
        raise EngineError("rounding", f"{rounding!r} is not one of: {', '.join(ROUNDINGS)}")
    amounts, rounding_rule = place_amounts(distributable, fractions, rounding)

    groups, knockouts = read_finish(doc, rulebook)
    finishers = sum(len(g.members) for g in groups)
    if finishers != entries + re_entries:
        raise EngineError("eliminations", f"{finishers} entries finish (eliminations + remaining), not the "
                                          f"{entries} entries + {re_entries} re-entries")
    if len(fractions) > finishers:
        raise EngineError("payout_table", f"{len(fractions)} paid places for {finishers} entries")
    dq = set()
    for i, p in enumerate(doc.get("disqualified") or []):
        who = name(p, f"disqualified[{i}]")
        if not any(f.player == who for g in groups for f in g.members):
            raise EngineError(f"disqualified[{i}]", f"{who!r} did not play in this tournament")
        dq.add(who)
    places, prize = assign(groups, amounts, dq)
    if dq:
        rules.append("001 R-17.31, §3.5: a disqualified player has no placing and no prize; those below move up "
                     "one place per disqualified player above them; the money stays in the pool")
    unawarded = unawarded_places(groups, amounts, dq)
    if unawarded:
        rules.append("001 §3.5 gives no rule for paid places left without a player after a disqualification: "
                     "their money stays in the prize pool unpaid (`money.unawarded`); the operator decides")

    bounty_cash: dict[str, int] = {}
    bounty_summary: dict[str, Any] | None = None
    if bounty_pool:
        raw = doc.get("bounty") or {}
        if entry.bounty == 0:
            raise EngineError("entry.bounty", "a bounty event: each entry carries the bounty part")
        brules = bounty_engine.read_rules(raw, entry.bounty, "bounty")
        check_keys(raw, {"type", "retained", "chip"}, "bounty", "bounty")
        still_in = [f.player for f in _remaining(groups, doc)]
        res = bounty_engine.settle(brules, knockouts, still_in, True, lines=False)
        if len(knockouts) != finishers - len(still_in):
            raise EngineError("eliminations", "in a bounty event every busted player names `eliminated_by` (A-30)")
        # Bounty cash a disqualified player collected is reported with him, not redistributed: the
        # rulebook keeps his prize money in the pool but says nothing of bounties already won.
        bounty_cash = res.cash
        bounty_summary = {
            "type": bounty_engine.PROGRESSIVE if brules.progressive else bounty_engine.STANDARD,
            "pool": money(bounty_pool),
            "paid": money(sum(res.cash.values())),
            "rule": "001 R-17.13/R-17.14, §3.7, A-29, A-30 (the winner keeps his own bounty)",
        }
        if res.pool != bounty_pool:
            raise EngineError("eliminations", f"the knockouts account for {res.entries} entries' bounties, not "
                                              f"{entries + re_entries}")

    people = {f.player for g in groups for f in g.members}
    players = []
    show_all = bool(doc.get("show_all_places"))
    # highest total first, equal totals by name: a set's order changes with the process's string hashing
    for p in sorted(people, key=lambda p: (-(prize.get(p, 0) + bounty_cash.get(p, 0) + special_paid.get(p, 0)), p)):
        total = prize.get(p, 0) + bounty_cash.get(p, 0) + special_paid.get(p, 0)
        if not total and p not in dq and not show_all:
            continue
        item: dict[str, Any] = {"player": p, "prize": money(prize.get(p, 0))}
        if bounty_pool:
            item["bounty"] = money(bounty_cash.get(p, 0))
        if p in special_paid:
            item["special"] = money(special_paid[p])
        item["total"] = money(total)
        if p in dq:
            item["disqualified"] = True
            item["note"] = "001 R-17.31: no right to prize money; it stays in the pool"
        players.append(item)
    paid_prizes = sum(prize.values())
    rules[:0] = [
        "001 §3.5, 003 §3.4: collected = prize parts + house fees + bounty parts",
        basis_rule,
        f"payout table {row} for a basis of {basis}: {len(fractions)} places paid",
        rounding_rule,
    ]
    shown = places if show_all else [r for r in places if r["amount"] != "0.00" or r["player"] in dq]
    return {
        "money": {
            "collected": money(collected),
            "prize_pool_collected": money(gross),
            "house_fees": money(fees),
            "bounty_pool": money(bounty_pool),
            "re_entry_withheld": money(withheld),
            "guarantee": money(guarantee),
            "overlay": money(overlay),
            "prize_pool": money(pool),
            "reserve": money(reserve),
            "special_prizes": money(sum(special_paid.values())),
            "distributable": money(distributable),
            "unawarded": money(unawarded),
        },
        "payout_basis": basis,
        "paid_places": len(fractions),
        "place_amounts": [money(a) for a in amounts],
        "places": shown,
        "special_prizes": specials,
        "players": players,
        **({"bounties": bounty_summary} if bounty_summary else {}),
        "checks": {
            "collected_adds_up": collected == gross + withheld + fees + bounty_pool,
            "places_add_up": sum(amounts) == distributable,
            "paid_equals_distributable": paid_prizes + unawarded == distributable,
            "pool_accounted": distributable + reserve + sum(special_paid.values()) == gross + overlay,
        },
        "rules": rules,
    }


def _remaining(groups: Sequence[Group], doc: Mapping[str, Any]) -> list[Finisher]:
    n = len(doc["remaining"])
    out: list[Finisher] = []
    for g in groups:
        if len(out) >= n:
            break
        out.extend(g.members)
    return out[:n]


# --------------------------------------------------------------------------- the disqualification kind

DQ_KEYS = {"kind", "finishing_order", "payouts", "disqualified", "already_paid"}


def disqualification(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Re-rank a finished tournament after disqualifications (001 R-17.31, §3.5, A-25)."""
    check_keys(doc, DQ_KEYS, "disqualification")
    order = listed(doc, "finishing_order", "", high=1_000_000)
    groups: list[Group] = []
    seen: set[str] = set()
    for i, item in enumerate(order):
        where = f"finishing_order[{i}]"
        members = item if isinstance(item, list) else [item]
        if not members:
            raise EngineError(where, "a player, or a list of players who shared their places")
        fs = []
        for j, who in enumerate(members):
            who = name(who, f"{where}[{j}]" if isinstance(item, list) else where)
            if who in seen:
                raise EngineError(where, f"{who!r} is listed twice")
            seen.add(who)
            fs.append(Finisher(who, None, j, where))
        groups.append(Group(fs, "the official finishing order" if len(fs) == 1 else
                            "the official finishing order: these players shared their places' prizes"))
    amounts = [cents(a, f"payouts[{i}]") for i, a in enumerate(listed(doc, "payouts", "", high=100_000))]
    if len(amounts) > len(seen):
        raise EngineError("payouts", f"{len(amounts)} paid places for {len(seen)} players")
    dq = set()
    for i, who in enumerate(listed(doc, "disqualified", "", high=1000)):
        who = name(who, f"disqualified[{i}]")
        if who not in seen:
            raise EngineError(f"disqualified[{i}]", f"{who!r} is not in the finishing order")
        dq.add(who)
    already_paid = doc.get("already_paid", False)
    if not isinstance(already_paid, bool):
        raise EngineError("already_paid", "true when the original prizes have been paid (A-25)")
    before_rows, before = assign(groups, amounts, set())
    after_rows, after = assign(groups, amounts, dq)
    place_before = {r["player"]: r["place"] for r in before_rows}
    for r in after_rows:
        if place_before[r["player"]] != r["place"]:
            r["moved_from"] = place_before[r["player"]]
            r["rule"] = "001 R-17.31: moved up one place per disqualified player above"
    position = {f.player: i for i, g in enumerate(groups) for f in g.members}
    changes = []
    for who in sorted(seen, key=position.__getitem__):
        b, a = before.get(who, 0), after.get(who, 0)
        if a == b and who not in dq:
            continue
        change: dict[str, Any] = {"player": who, "before": money(b), "after": money(a), "difference": money(a - b)}
        if already_paid:
            if who in dq and b:
                change["action"] = "recover"
                change["rule"] = "A-25: a receivable against the disqualified player; flag for compliance"
            elif a > b:
                change["action"] = "pay_difference"
                change["rule"] = "A-25: the others are paid per the re-ranking once funds allow"
        if who in dq:
            change["disqualified"] = True
        changes.append(change)
    return {
        "places": [r for r in after_rows if r["amount"] != "0.00"],
        "changes": changes,
        "total_before": money(sum(before.values())),
        "total_after": money(sum(after.values())),
        "unawarded": money(unawarded_places(groups, amounts, dq)),
        "rule": "001 R-17.31, §3.5: the cheater has no placing and no prize; players below move up one place "
                "per disqualified player; the total paid is unchanged (the money stays in the pool)",
    }


KINDS["tournament_payout"] = tournament_payout
KINDS["disqualification"] = disqualification
