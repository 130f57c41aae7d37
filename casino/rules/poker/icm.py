"""ICM (Independent Chip Model, Malmuth-Harville), exact in fractions: the JSON kind ``icm``, with a
deal preview (docs/poker/tournaments.md).

003 §3.7 / A-18 (the rulebook names ICM, the digest chooses Malmuth-Harville): a player finishes 1st
with probability stack / all stacks; given who is placed, the next place goes to each other player
in proportion to his stack among those left. A player's equity is the sum over places of
P(place) x prize.

Computed over **subsets**, not finishing orders: ``f(S)`` is the probability that the players of the
set S fill the top |S| places (in some order); ``f(S + j) += f(S) * s_j / (T - sum(S))``, and
``P(j takes place |S| + 1) = sum over S of f(S) * s_j / (T - sum(S))``. Only places that pay are
expanded, so a 10-player final table is 2^10 subsets x 10, not 10! orders.

Deals (001 R-17.17, A-24): the official payout is the default and the only automatic path. A
player-proposed split is shown next to the ICM and chip-chop figures; it must have the same total
and needs staff approval and an audit note before it is paid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..base import EngineError, require
from ..jsonio import KINDS
from ._prizes import cents, check_keys, chips, exact, frac, largest_remainder, listed, money, name

INPUT_KEYS = {"kind", "players", "prizes", "amount", "deal", "show_places"}


def place_probabilities(stacks: Sequence[int], places: int) -> list[list[Fraction]]:
    """``p[i][k]``: the probability that player i finishes in place k+1, for the first `places` places."""
    n = len(stacks)
    total = sum(stacks)
    probs = [[Fraction(0)] * places for _ in range(n)]
    layer: dict[int, tuple[Fraction, int]] = {0: (Fraction(1), 0)}  # mask -> (f(S), sum of S's stacks)
    for place in range(places):
        nxt: dict[int, tuple[Fraction, int]] = {}
        last = place + 1 == places
        for mask, (p, used) in layer.items():
            per_chip = p / (total - used)  # one division per subset; each candidate is a multiple of it
            for j in range(n):
                bit = 1 << j
                if mask & bit:
                    continue
                q = per_chip * stacks[j]
                probs[j][place] += q
                if not last:
                    m2 = mask | bit
                    if m2 in nxt:
                        nxt[m2] = (nxt[m2][0] + q, nxt[m2][1])
                    else:
                        nxt[m2] = (q, used + stacks[j])
        layer = nxt
    return probs


def equities(stacks: Sequence[int], prizes: Sequence[Fraction | int]) -> list[Fraction]:
    """Each player's exact ICM equity; they add up to the sum of the prizes (one per place paid)."""
    if len(prizes) > len(stacks):
        raise ValueError("more prizes than players")
    if any(s <= 0 for s in stacks):
        raise ValueError("every stack must be positive")
    paid = len(prizes)
    while paid and prizes[paid - 1] == 0:
        paid -= 1
    if paid == 0:
        return [Fraction(0)] * len(stacks)
    probs = place_probabilities(stacks, paid)
    return [sum((p * Fraction(prizes[k]) for k, p in enumerate(row)), Fraction(0)) for row in probs]


def distribute(stacks: Sequence[int], ladder: Sequence[int], amount: int) -> tuple[list[Fraction], list[int]]:
    """The ICM equities on `ladder` (cents) scaled to `amount` cents, and in whole cents (003 §3.0:
    floor, leftover cents by largest remainder; equal remainders to the larger stack, then the
    listed order). Returns (exact scaled shares, cents)."""
    raw = equities(stacks, ladder)
    total = sum(ladder)
    scaled = [e * amount / total for e in raw] if total else [Fraction(0)] * len(stacks)
    return scaled, largest_remainder(amount, scaled, lambda i: (-stacks[i], i))


def read_players(raw: Any, field: str = "players", *, high: int = 10_000) -> tuple[list[str], list[int]]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= high:
        raise EngineError(field, f"a list of 1-{high} players, each {{\"player\", \"chips\"}}")
    names, stacks = [], []
    for i, item in enumerate(raw):
        where = f"{field}[{i}]"
        check_keys(item, {"player", "chips"}, "player", where)
        who = name(require(item, "player", where), f"{where}.player")
        if who in names:
            raise EngineError(f"{where}.player", f"{who!r} is listed twice")
        names.append(who)
        stacks.append(chips(require(item, "chips", where), f"{where}.chips"))
    return names, stacks


def icm(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "icm")
    names, stacks = read_players(require(doc, "players", ""), high=60)
    prizes = [cents(p, f"prizes[{i}]") for i, p in enumerate(listed(doc, "prizes", ""))]
    if len(prizes) > len(names):
        raise EngineError("prizes", f"{len(prizes)} prizes for {len(names)} players: one prize per place still "
                                    "to be decided, at most one per player")
    if any(a < b for a, b in zip(prizes, prizes[1:])):
        raise EngineError("prizes", "a payout ladder does not grow from one place to the next (1st place first)")
    paid = sum(1 for p in prizes if p)
    if len(names) > 20 and paid > 9:
        raise EngineError("prizes", "exact ICM over more than 20 players is limited to 9 paid places")
    ladder_total = sum(prizes)
    amount = cents(doc["amount"], "amount") if "amount" in doc else ladder_total
    if ladder_total == 0:
        raise EngineError("prizes", "at least one prize must be above zero")
    scaled, amounts = distribute(stacks, prizes, amount)
    total_chips = sum(stacks)
    out_players = []
    for i, who in enumerate(names):
        item: dict[str, Any] = {
            "player": who,
            "chips": stacks[i],
            "equity_exact": frac(scaled[i] / 100),
            "equity": exact(scaled[i] / 100, 6),
            "amount": money(amounts[i]),
        }
        out_players.append(item)
    if doc.get("show_places"):
        probs = place_probabilities(stacks, max(1, paid))
        for i, item in enumerate(out_players):
            item["place_probabilities"] = [exact(p, 6) for p in probs[i]]
    answer: dict[str, Any] = {
        "prizes": [money(p) for p in prizes],
        "amount": money(amount),
        "players": out_players,
        "total": money(sum(amounts)),
        "rule": "003 §3.7, A-18: Malmuth-Harville ICM, exact over subsets"
                + (f"; scaled by {money(amount)} / {money(ladder_total)}" if amount != ladder_total else "")
                + "; cents per 003 §3.0 (floor, largest remainder, equal remainders to the larger stack)",
    }
    if "deal" in doc:
        answer["deal"] = _deal_preview(doc["deal"], names, stacks, prizes, amount, amounts, total_chips)
    return answer


def _deal_preview(raw: Any, names: list[str], stacks: list[int], prizes: list[int], amount: int,
                  icm_cents: list[int], total_chips: int) -> dict[str, Any]:
    """A proposed split beside the ICM and chip-chop figures (001 R-17.17, A-24)."""
    if not isinstance(raw, Mapping) or set(raw) != set(names):
        raise EngineError("deal", "an object: every player -> the amount the deal gives him")
    proposed = {who: cents(raw[who], f"deal.{who}") for who in names}
    if sum(proposed.values()) != amount:
        raise EngineError("deal", f"the deal pays {money(sum(proposed.values()))}, not the {money(amount)} "
                                  "being distributed (A-24: a deal has the same total)")
    # Chip chop: everyone is sure of the lowest remaining prize; the rest goes by chips.
    floor_prize = prizes[len(names) - 1] * amount // sum(prizes) if len(prizes) == len(names) else 0
    rest = amount - floor_prize * len(names)
    chop = largest_remainder(rest, [Fraction(rest * s, total_chips) for s in stacks],
                             lambda i: (-stacks[i], i))
    rows = []
    for i, who in enumerate(names):
        rows.append({
            "player": who,
            "proposed": money(proposed[who]),
            "icm": money(icm_cents[i]),
            "proposed_minus_icm": money(proposed[who] - icm_cents[i]),
            "chip_chop": money(floor_prize + chop[i]),
        })
    return {
        "players": rows,
        "status": "needs_staff_approval",
        "rule": "001 R-17.17, A-24: the official payout is the default; a deal with the same total is paid "
                "only with staff approval and an audit note (the Representative may pay the original payout)",
    }


KINDS["icm"] = icm
