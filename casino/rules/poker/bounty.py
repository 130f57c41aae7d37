"""Bounties and progressive bounties: the JSON kind ``bounty`` (docs/poker/tournaments.md); the
tournament kind settles its knockouts through :func:`settle`.

001 R-17.13/R-17.14, §3.7, A-29, A-30:

* Every entry (re-entries too) carries the bounty ``b``. The player who eliminates X receives X's
  bounty; the eliminator is the winner (or the winners) of the highest pot X contested (A-30).
* A split pot splits the bounty **in whole bounty chips**, never broken up; odd chips go one each to
  the sharers in order from the first seat after the button (R-17.13, §3.3), which is the order the
  input lists them in. A part smaller than one chip goes with the first odd chip.
* Progressive: of what he receives the eliminator keeps a part as cash and adds the rest to his own
  bounty; the structure gives the retained part as a share kappa (default 1/2, A-29) or a fixed
  amount. The retained part is rounded down to the cent (the cash part takes the odd cent).
* The tournament winner (every player still in when it ends) is paid his own remaining bounty (A-30,
  NOT IN SOURCE: the digest's reading), so the bounties paid add up to the bounty pool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..base import EngineError, require
from ..jsonio import KINDS
from ._prizes import at, cents, check_keys, listed, money, name, ratio_of_one

STANDARD, PROGRESSIVE = "standard", "progressive"
INPUT_KEYS = {"kind", "bounty", "type", "retained", "chip", "knockouts", "remaining", "finished"}


@dataclass(frozen=True)
class Rules:
    bounty: int  # cents per entry
    progressive: bool = False
    share: Fraction | None = Fraction(1, 2)  # kappa: the retained share (progressive)
    fixed: int | None = None  # or a fixed retained amount in cents
    chip: int = 0  # the value of one bounty chip in cents (0: the entry's bounty, or 1 cent if progressive)

    @property
    def chip_value(self) -> int:
        return self.chip or (1 if self.progressive else self.bounty)


@dataclass
class Result:
    cash: dict[str, int] = field(default_factory=dict)
    knockouts: dict[str, int] = field(default_factory=dict)
    final_bounty: dict[str, int] = field(default_factory=dict)  # still on a head when it ended (paid or not)
    entries: int = 0
    re_entries: int = 0
    lines: list[dict[str, Any]] = field(default_factory=list)
    pool: int = 0


def read_rules(doc: Mapping[str, Any], bounty: int, where: str = "") -> Rules:
    kind = doc.get("type", STANDARD)
    if kind not in (STANDARD, PROGRESSIVE):
        raise EngineError(at(where, "type"), f"{kind!r} is not one of: {STANDARD}, {PROGRESSIVE}")
    share, fixed = Fraction(1, 2), None
    if "retained" in doc:
        if kind != PROGRESSIVE:
            raise EngineError(at(where, "retained"), "only a progressive bounty keeps a part in play (R-17.14)")
        retained = doc["retained"]
        check_keys(retained, {"share", "amount"}, "retained", at(where, "retained"))
        if len(retained) != 1:
            raise EngineError(at(where, "retained"), "either {\"share\": \"0.5\"} or {\"amount\": \"100.00\"} (A-29)")
        if "share" in retained:
            share = ratio_of_one(retained["share"], at(where, "retained.share"))
        else:
            share, fixed = None, cents(retained["amount"], at(where, "retained.amount"))
    chip = cents(doc["chip"], at(where, "chip"), allow_zero=False) if doc.get("chip") is not None else 0
    if chip and bounty % chip:
        raise EngineError(at(where, "chip"), f"the entry's bounty {money(bounty)} is not a whole number of chips of {money(chip)}")
    return Rules(bounty=bounty, progressive=kind == PROGRESSIVE, share=share, fixed=fixed, chip=chip)


def settle(rules: Rules, knockouts: Sequence[tuple[str, Sequence[str], str]], remaining: Sequence[str],
           finished: bool = True, lines: bool = True) -> Result:
    """`knockouts`: (eliminated, winners of the highest pot he contested in order from the seat after
    the button, field for errors), in the order they happened. A player who appears again after his
    elimination has re-entered (a new entry with a new bounty)."""
    res = Result()
    alive: dict[str, int] = {}
    busted: set[str] = set()

    def enter(player: str) -> None:
        if player not in alive:
            if player in busted:
                res.re_entries += 1
            alive[player] = rules.bounty
            res.entries += 1
            res.cash.setdefault(player, 0)
            res.knockouts.setdefault(player, 0)

    chip = rules.chip_value
    for eliminated, winners, where in knockouts:
        if not winners:
            raise EngineError(where, "who won the highest pot the player contested (A-30)")
        if eliminated in winners:
            raise EngineError(where, f"{eliminated!r} cannot eliminate himself")
        if len(set(winners)) != len(winners):
            raise EngineError(where, "a winner is listed twice")
        enter(eliminated)
        for w in winners:
            enter(w)
        value = alive.pop(eliminated)
        busted.add(eliminated)
        n, odd_part = divmod(value, chip)
        each, odd_chips = divmod(n, len(winners))
        to = []
        for i, w in enumerate(winners):
            share = (each + (1 if i < odd_chips else 0)) * chip + (odd_part if i == 0 else 0)
            if rules.progressive:
                if rules.fixed is not None:
                    kept = min(share, rules.fixed * share // value) if value else 0
                else:
                    kept = share * rules.share.numerator // rules.share.denominator
            else:
                kept = 0
            cash = share - kept
            alive[w] += kept
            res.cash[w] += cash
            res.knockouts[w] += 1
            to.append({"player": w, "share": money(share), "cash": money(cash),
                       **({"added_to_bounty": money(kept), "bounty_now": money(alive[w])}
                          if rules.progressive else {})})
        if lines:
            rule = "001 R-17.13, §3.7, A-30: the bounty goes to the winner of the highest pot the player contested"
            if len(winners) > 1:
                rule += "; a split pot splits it in whole bounty chips, odd chips from the seat after the button"
            if rules.progressive:
                rule += ("; R-17.14, A-29: part kept in play on the eliminator's own bounty ("
                         + (f"share {rules.share}" if rules.fixed is None else f"fixed {money(rules.fixed)}") + ")")
            res.lines.append({"eliminated": eliminated, "bounty": money(value), "to": to, "rule": rule})
    for player in remaining:
        enter(player)
    for player, value in alive.items():
        res.final_bounty[player] = value
        if finished:
            res.cash[player] += value
    res.pool = rules.bounty * res.entries
    return res


def bounty(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "bounty")
    rules = read_rules(doc, cents(require(doc, "bounty", ""), "bounty", allow_zero=False))
    knockouts = []
    for i, item in enumerate(listed(doc, "knockouts", "", low=0, high=200_000)):
        where = f"knockouts[{i}]"
        check_keys(item, {"eliminated", "by"}, "knockout", where)
        who = name(require(item, "eliminated", where), f"{where}.eliminated")
        by = require(item, "by", where)
        if not isinstance(by, list) or not by:
            raise EngineError(f"{where}.by", "the winner(s) of the highest pot the player contested, from the seat "
                                             "after the button (A-30)")
        knockouts.append((who, [name(w, f"{where}.by[{j}]") for j, w in enumerate(by)], f"{where}.by"))
    remaining = [name(p, f"remaining[{i}]") for i, p in enumerate(listed(doc, "remaining", "", high=100_000))]
    if len(set(remaining)) != len(remaining):
        raise EngineError("remaining", "a player is listed twice")
    finished = doc.get("finished", True)
    if not isinstance(finished, bool):
        raise EngineError("finished", "true when the tournament has ended (the remaining players keep their own bounty)")
    res = settle(rules, knockouts, remaining, finished)
    paid = sum(res.cash.values())
    outstanding = 0 if finished else sum(res.final_bounty.values())
    return {
        "type": PROGRESSIVE if rules.progressive else STANDARD,
        "entries": res.entries,
        "re_entries": res.re_entries,
        "bounty_pool": money(res.pool),
        "players": [
            {"player": p, "knockouts": res.knockouts[p], "cash": money(res.cash[p]),
             **({"bounty_on_head": money(res.final_bounty[p])} if p in res.final_bounty else {})}
            for p in res.cash
        ],
        "knockouts": res.lines,
        "paid": money(paid),
        "outstanding": money(outstanding),
        "balanced": paid + outstanding == res.pool,
        "rule": ("001 §3.7: bounty pool = bounty cash paid + the bounties still in play"
                 + ("; A-30: the players still in at the end are paid their own bounty" if finished else "")),
    }


KINDS["bounty"] = bounty
