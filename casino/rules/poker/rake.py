"""Cash-game rake: the JSON kind ``rake`` (docs/poker.md), and the rake step of the ``pots`` kind.

* **001 (Casino Helsinki)**, §2.5 R-5.1-R-5.6, §3.2: €1 for each full €20 of the pots added together
  (10 % variant: each full €10), charged to the pot in which that block *starts* (pots laid end to
  end in formation order, half-open intervals, A-4); an optional per-hand cap; a hand that does not
  progress beyond the initial deal pays a flat €1 from the main pot (never more than the pot, A-1);
  time charge: no per-hand rake. A pot smaller than the €1 charged to it (a few cents of folded
  chips) pays what it holds and the next pot the rest (interpretation: the rule never takes more than
  a pot holds).
* **003 (online room)**, §2.9, §3.1: a percentage of the total pot with a cap by game and stake;
  rounded to the nearest cent (half up, ambiguity 3), at least one cent, then the cap; no flop, no
  drop; the rake is split over the pots in proportion to their gross size by largest remainder, ties
  to the main pot (ambiguity 2).
* **000 / 002 (casino C-4, RAY PP-10)**: the announced method (percentage, fixed sum, percentage plus
  fixed sum, or a time charge), each with an optional per-hand maximum; the amounts are announced in
  the gaming room, so they are required fields. Interpretation (not in the sources): the rake is
  rounded down to the cent and charged to the pots in formation order (main pot first), as 001 does.

Returned uncalled bets are never part of a pot, so never raked (001 §3.1 step 1, 003 §3.1 step 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..base import EngineError
from ..jsonio import KINDS
from ._cash import cents, check_keys, eur, flag, percent, rulebook

#: 003 §2.9 (seed lines 725-742), verbatim: game -> stake -> (percent, cap in cents).
ONLINE_TABLE: dict[str, dict[str, tuple[str, int]]] = {
    "holdem": {"NL4": ("1", 100), "NL10": ("3", 200), "NL25": ("5", 300), "NL50": ("5.5", 300),
               "NL100": ("6", 300), "NL200": ("6", 300), "NL400": ("6", 300)},
    "omaha": {"PL4": ("1", 100), "PL10": ("3", 200), "PL25": ("3", 300), "PL50": ("3.5", 300),
              "PL100": ("6", 300), "PL200": ("6", 300), "PL400": ("6", 300)},
    "banzai_holdem": {"NL1": ("1", 300), "NL5": ("1", 300), "NL20": ("1", 300)},
}

LIVE_KEYS = {"mode", "rate", "cap", "flat"}
ONLINE_KEYS = {"game", "stake", "percent", "cap", "allocation", "rounding"}
CASINO_KEYS = {"method", "percent", "fixed", "cap", "allocation"}


@dataclass(frozen=True)
class Rake:
    """The rake of one hand: per pot (formation order), and the clause."""

    per_pot: list[int]
    rule: str
    detail: dict[str, Any]

    @property
    def total(self) -> int:
        return sum(self.per_pot)


# -------------------------------------------------------------------------------------------- 001


def live_blocks(pots: Sequence[int], unit: int, count: int) -> list[int]:
    """001 §3.2 step 3: `count` charges of one each at positions 0, unit, 2*unit, ... laid over the pots
    end to end; a position on a boundary belongs to the next pot (half-open intervals, A-4)."""
    per_pot = [0] * len(pots)
    start = 0
    for j, amount in enumerate(pots):
        end = start + amount
        # positions t*unit with start <= t*unit < end, t < count
        first = -(-start // unit)
        last = min(count, -(-end // unit))
        per_pot[j] = max(0, last - first)
        start = end
    return per_pot


def rake_001(cfg: Mapping[str, Any], pots: Sequence[int], beyond_initial_deal: bool) -> Rake:
    check_keys(cfg, LIVE_KEYS, "a 001 rake", "rake")
    mode = cfg.get("mode", "percent")
    if mode not in ("percent", "time"):
        raise EngineError("rake.mode", "\"percent\" (the 5 % or 10 % rake) or \"time\" (an hourly charge)")
    if mode == "time":
        return Rake([0] * len(pots), "001 §2.5 R-5.6, §3.2 step 1: time charge, no per-hand rake", {"mode": mode})
    rate = str(cfg.get("rate", "5"))
    if rate not in ("5", "10"):
        raise EngineError("rake.rate", "\"5\" (€1 per full €20, R-5.1) or \"10\" (€1 per full €10, R-5.3)")
    cap = cents(cfg["cap"], "rake.cap") if cfg.get("cap") is not None else None
    if not beyond_initial_deal:
        flat = cents(cfg.get("flat", "1.00"), "rake.flat")
        take = min(flat, pots[0]) if pots else 0
        if cap is not None:
            take = min(take, cap)
        return Rake([take] + [0] * (len(pots) - 1),
                    "001 §2.5 R-5.5, §3.2 step 2: the hand did not progress beyond the initial deal: flat "
                    f"€{eur(flat)} from the main pot (never more than the pot, A-1)",
                    {"mode": "flat", "flat": eur(flat)})
    block = 2000 if rate == "5" else 1000
    total = sum(pots)
    count = total // block
    capped = False
    if cap is not None and count * 100 > cap:
        count, capped = cap // 100, True
    per_pot = [n * 100 for n in live_blocks(pots, block, count)]
    for j in range(len(pots) - 1):  # a pot smaller than its €1 pays what it has, the next pot the rest
        over = per_pot[j] - pots[j]
        if over > 0:
            per_pot[j] -= over
            per_pot[j + 1] += over
    rule = (f"001 §2.5 R-5.2{'/R-5.3' if rate == '10' else ''}, §3.2 step 3: €1 for each full €{block // 100} of "
            f"€{eur(total)}, charged to the pot where the block starts (A-4)")
    if capped:
        rule += f"; per-hand cap €{eur(cap)} (R-5.1)"
    return Rake(per_pot, rule, {"rate": rate, "blocks": count, "cap": eur(cap) if cap is not None else None,
                                "capped": capped})


# -------------------------------------------------------------------------------------------- 003


def round_cents(exact: Fraction, rounding: str) -> int:
    """Exact cents to whole cents: half up (ambiguity 3) or half to even (the alternative)."""
    floor = exact.numerator // exact.denominator
    rest = exact - floor
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and (rounding == "half_up" or floor % 2 == 1)):
        return floor + 1
    return floor


def largest_remainder(total: int, weights: Sequence[int]) -> list[int]:
    """Split `total` cents over the weights: floors, then the leftover cents one each to the largest
    remainders, equal remainders to the earlier (main) pot first (003 ambiguity 2)."""
    whole = sum(weights)
    if whole == 0:
        return [total] + [0] * (len(weights) - 1)
    exact = [Fraction(total * w, whole) for w in weights]
    shares = [e.numerator // e.denominator for e in exact]
    left = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda j: (-(exact[j] - shares[j]), j))
    for j in order[:left]:
        shares[j] += 1
    return shares


def main_first(total: int, pots: Sequence[int]) -> list[int]:
    """Charge `total` to the pots in formation order, each at most its amount."""
    out = []
    for amount in pots:
        take = min(total, amount)
        out.append(take)
        total -= take
    return out


def rake_003(cfg: Mapping[str, Any], pots: Sequence[int], flop_dealt: bool) -> Rake:
    check_keys(cfg, ONLINE_KEYS, "a 003 rake", "rake")
    game, stake = cfg.get("game"), cfg.get("stake")
    pct = cap = None
    source = "003 §2.9"
    if game is not None or stake is not None:
        if game not in ONLINE_TABLE:
            raise EngineError("rake.game", f"one of {', '.join(ONLINE_TABLE)} (003 §2.9; Banzai Omaha has no "
                                           "published rate, ambiguity 5)")
        if stake not in ONLINE_TABLE[game]:
            raise EngineError("rake.stake", f"one of {', '.join(ONLINE_TABLE[game])} for {game}")
        pct_text, cap = ONLINE_TABLE[game][stake]
        pct = percent(pct_text, "rake.percent")
        source = f"003 §2.9 {game} {stake}: {pct_text} %, cap €{eur(cap)}"
    if "percent" in cfg:
        pct = percent(cfg["percent"], "rake.percent")
        source = "003 §2.9 (the published table given with the hand)"
    if "cap" in cfg:
        cap = cents(cfg["cap"], "rake.cap")
    if pct is None or cap is None:
        raise EngineError("rake.stake", "give the table's game and stake (003 §2.9), or its percent and cap")
    allocation = cfg.get("allocation", "proportional")
    if allocation not in ("proportional", "main_first"):
        raise EngineError("rake.allocation", "\"proportional\" (ambiguity 2, the default) or \"main_first\"")
    rounding = cfg.get("rounding", "half_up")
    if rounding not in ("half_up", "half_even"):
        raise EngineError("rake.rounding", "\"half_up\" (ambiguity 3, the default) or \"half_even\"")
    total = sum(pots)
    if not flop_dealt:
        return Rake([0] * len(pots), "003 §2.9, §3.1 step 1: no flop, no drop", {"percent": _pct(pct), "flop_dealt": False})
    exact = Fraction(total) * pct / 100
    rake = round_cents(exact, rounding)
    minimum = rake < 1
    rake = max(rake, 1)
    capped = rake > cap
    rake = min(rake, cap)
    rake = min(rake, total)
    per_pot = largest_remainder(rake, pots) if allocation == "proportional" else main_first(rake, pots)
    rule = (f"{source}; §3.1: €{eur(total)} × {_pct(pct)} % = €{_exact(exact)} rounded to the nearest cent "
            f"({rounding.replace('_', ' ')})")
    if minimum:
        rule += ", raised to the 1-cent minimum"
    if capped:
        rule += f", capped at €{eur(cap)}"
    rule += ("; split over the pots in proportion to their size, largest remainder (ambiguity 2)"
             if allocation == "proportional" and len(pots) > 1 else "")
    return Rake(per_pot, rule, {"percent": _pct(pct), "cap": eur(cap), "exact": _exact(exact), "capped": capped,
                                "minimum_applied": minimum})


def _pct(p: Fraction) -> str:
    return format((Decimal(p.numerator) / Decimal(p.denominator)).normalize(), "f")


def _exact(cents_exact: Fraction) -> str:
    """Exact cents as euros with as many places as needed (e.g. 0.682, 4.84)."""
    value = cents_exact / 100
    text = f"{value.numerator // value.denominator}"
    rest = value - value.numerator // value.denominator
    digits = ""
    for _ in range(8):
        if rest == 0:
            break
        rest *= 10
        digit = rest.numerator // rest.denominator
        digits += str(digit)
        rest -= digit
    return f"{text}.{digits.ljust(2, '0')}"


# ---------------------------------------------------------------------------------------- 000/002


def rake_casino(book: str, cfg: Mapping[str, Any], pots: Sequence[int]) -> Rake:
    check_keys(cfg, CASINO_KEYS, f"a {book} rake", "rake")
    methods = ("percent", "fixed", "percent_plus_fixed", "time") if book == "000" else ("percent", "time")
    method = cfg.get("method")
    if method not in methods:
        where = "000-casino C-4 (A-D)" if book == "000" else "002 PP-10 (A, B)"
        raise EngineError("rake.method", f"the announced method, one of {', '.join(methods)} ({where})")
    clause = "000-casino C-4" if book == "000" else "002 §5.3 PP-10"
    if method == "time":
        return Rake([0] * len(pots), f"{clause}: time charge per customer, no per-hand rake", {"method": method})
    total = sum(pots)
    exact = Fraction(0)
    if method in ("percent", "percent_plus_fixed"):
        if "percent" not in cfg:
            raise EngineError("rake.percent", "is required: the percentage announced in the gaming room")
        exact += Fraction(total) * percent(cfg["percent"], "rake.percent") / 100
    if method in ("fixed", "percent_plus_fixed"):
        if "fixed" not in cfg:
            raise EngineError("rake.fixed", "is required: the fixed sum announced in the gaming room")
        exact += cents(cfg["fixed"], "rake.fixed")
    rake = exact.numerator // exact.denominator
    capped = False
    if cfg.get("cap") is not None:
        cap = cents(cfg["cap"], "rake.cap")
        capped = rake > cap
        rake = min(rake, cap)
    rake = min(rake, total)
    allocation = cfg.get("allocation", "main_first")
    if allocation not in ("proportional", "main_first"):
        raise EngineError("rake.allocation", "\"main_first\" (the default) or \"proportional\"")
    per_pot = main_first(rake, pots) if allocation == "main_first" else largest_remainder(rake, pots)
    rule = f"{clause}: {method.replace('_', ' ')} rake on €{eur(total)}, rounded down to the cent"
    if capped:
        rule += ", at the announced per-hand maximum"
    return Rake(per_pot, rule, {"method": method, "capped": capped})


def compute_rake(book: str, cfg: Any, pots: Sequence[int], beyond_initial_deal: bool) -> Rake:
    if not isinstance(cfg, Mapping):
        raise EngineError("rake", "the table's rake settings: a JSON object")
    if book == "001":
        return rake_001(cfg, pots, beyond_initial_deal)
    if book == "003":
        return rake_003(cfg, pots, beyond_initial_deal)
    return rake_casino(book, cfg, pots)


# -------------------------------------------------------------------------------------------- kind


def rake_kind(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``rake``: the seats' contributions and folds in, the pots and each pot's rake out."""
    # pots imports this module at its top (every pot is raked); read here, for the rake kind alone.
    from .pots import build_pots, parse_hand_money

    check_keys(doc, {"kind", "rulebook", "seats", "dead_money", "rake", "beyond_initial_deal"}, "a rake")
    book = rulebook(doc)
    seats, dead = parse_hand_money(doc)
    built = build_pots(seats, dead)
    beyond = flag(doc, "beyond_initial_deal", "")
    gross = [p.amount for p in built.pots]
    rake = compute_rake(book, doc.get("rake") if "rake" in doc else _missing(), gross, beyond)
    return {
        "returned": [{"player": s.player, "amount": eur(a), "rule": built.return_rule} for s, a in built.returned],
        "pots": [{"pot": p.name, "amount": eur(p.amount), "eligible": [s.player for s in p.eligible],
                  "rake": eur(r), "net": eur(p.amount - r)} for p, r in zip(built.pots, rake.per_pot)],
        "rake": eur(rake.total),
        "rule": rake.rule,
        "detail": rake.detail,
    }


def _missing():
    raise EngineError("rake", "is required: the table's rake settings")


KINDS["rake"] = rake_kind
