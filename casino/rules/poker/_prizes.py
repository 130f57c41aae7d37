"""Shared by the tournament engines (tournament, bounty, icm, cancellation, hexapro, chip_race, ofc):
input readers that name the field, integer-cent money and the explicit rounding rules.

Money inside is whole **cents** (int) and exact ``Fraction``s; it is a decimal string at the edges
("25.00"). Every rounding here says what happens to the cent it leaves over: nothing is lost.
Not auto-imported (leading underscore): the kinds live in the family modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ..base import EngineError, parse_money, require

#: 001 §3.5 (INTERPRETATION): each place's amount rounded half up, the residual cent(s) on 1st place.
HALF_UP_RESIDUAL_FIRST = "half_up_residual_first"
#: 003 §3.0 (INTERPRETATION): floor each to the cent, leftover cents by largest remainder.
LARGEST_REMAINDER = "largest_remainder"
ROUNDINGS = (HALF_UP_RESIDUAL_FIRST, LARGEST_REMAINDER)


# ------------------------------------------------------------------------------------------ reading


def at(where: str, key: str) -> str:
    """The dotted path of `key` under `where` ("" is the document itself)."""
    return f"{where}.{key}" if where else key


def check_keys(doc: Mapping[str, Any], allowed: Iterable[str], what: str, where: str = "") -> None:
    if not isinstance(doc, Mapping):
        raise EngineError(where or "$", "must be a JSON object")
    allowed = set(allowed)
    unknown = sorted(set(doc) - allowed)
    if unknown:
        path = f"{where}.{unknown[0]}" if where else unknown[0]
        raise EngineError(path, f"is not a {what} field ({', '.join(sorted(allowed))})")


def cents(value: Any, field: str, *, allow_zero: bool = True) -> int:
    """A decimal string of euros (parse_money's rules) as whole cents."""
    return int(parse_money(value, field, allow_zero=allow_zero) * 100)


def count(value: Any, field: str, low: int = 0, high: int = 10_000_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(field, f"a whole number from {low} to {high}")
    return value


def chips(value: Any, field: str, *, allow_zero: bool = False) -> int:
    """A chip count (tournament chips are points: whole numbers, no money value)."""
    return count(value, field, 0 if allow_zero else 1, 10**15)


def percent(value: Any, field: str) -> Fraction:
    """A percentage as a decimal string ("7.5"): the exact fraction of one (0.075)."""
    if isinstance(value, bool) or isinstance(value, float) or not isinstance(value, (str, int)):
        raise EngineError(field, "a percentage as a decimal string such as \"7.5\" (not a float)")
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation:
        raise EngineError(field, f"{value!r} is not a percentage such as \"7.5\"") from None
    if not d.is_finite() or d < 0 or d > 100:
        raise EngineError(field, "a percentage from 0 to 100")
    return Fraction(d) / 100


def ratio_of_one(value: Any, field: str) -> Fraction:
    """A share of one ("0.5" or "1/2"), from 0 to 1 inclusive."""
    if isinstance(value, bool) or isinstance(value, float) or not isinstance(value, (str, int)):
        raise EngineError(field, "a share such as \"0.5\" or \"1/2\" (not a float)")
    try:
        f = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise EngineError(field, f"{value!r} is not a share such as \"0.5\" or \"1/2\"") from None
    if not 0 <= f <= 1:
        raise EngineError(field, "a share from 0 to 1")
    return f


def name(value: Any, field: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise EngineError(field, "a player reference of 1-64 characters")
    return value


def listed(doc: Mapping[str, Any], key: str, where: str, *, low: int = 1, high: int = 100_000) -> list:
    value = require(doc, key, where)
    path = f"{where}.{key}" if where else key
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise EngineError(path, f"a list of {low}-{high} items")
    return value


def option(doc: Mapping[str, Any], key: str, allowed: Sequence[str], default: str) -> str:
    value = doc.get(key, default)
    if value not in allowed:
        raise EngineError(key, f"{value!r} is not one of: {', '.join(allowed)}")
    return value


# ---------------------------------------------------------------------------------------- formatting


def money(c: int) -> str:
    sign = "-" if c < 0 else ""
    return f"{sign}{abs(c) // 100}.{abs(c) % 100:02d}"


def exact(f: Fraction, places: int = 6) -> str:
    """An exact amount shown to `places` decimals (half up) for reading; the cents come from rounding rules."""
    scaled = f * 10**places
    q = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    sign = "-" if q < 0 else ""
    q = abs(q)
    return f"{sign}{q // 10**places}.{q % 10**places:0{places}d}"


def frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


# ----------------------------------------------------------------------------------------- rounding


def floor_cents(f: Fraction) -> int:
    return f.numerator // f.denominator


def half_up_cents(f: Fraction) -> int:
    return (f.numerator * 2 + f.denominator) // (2 * f.denominator)


def largest_remainder(total: int, shares: Sequence[Fraction], tie_key: Callable[[int], Any] | None = None
                      ) -> list[int]:
    """Whole cents summing to `total` for exact `shares` (in cents) that sum to `total`: each share
    floored, the leftover cents one each to the largest fractional parts; equal fractions by
    ``tie_key(index)`` ascending (default: the listed order)."""
    if sum(shares) != total:
        raise ValueError("shares must add up to the total")
    floors = [floor_cents(s) for s in shares]
    left = total - sum(floors)
    key = tie_key or (lambda i: i)
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - floors[i]), key(i)))
    for i in order[:left]:
        floors[i] += 1
    return floors


def place_amounts(pool: int, fractions: Sequence[Fraction], rounding: str) -> tuple[list[int], str]:
    """The money of each paid place from its fraction of `pool` (the fractions add up to one);
    the amounts always add up to `pool` exactly. Returns the amounts and the rounding's clause."""
    shares = [pool * f for f in fractions]
    if rounding == HALF_UP_RESIDUAL_FIRST:
        amounts = [half_up_cents(s) for s in shares]
        amounts[0] += pool - sum(amounts)
        return amounts, "001 §3.5: each place rounded half up to the cent, the residual cent(s) on 1st place"
    amounts = largest_remainder(pool, shares)  # equal remainders: the better place first
    return amounts, "003 §3.0: floored to the cent, leftover cents by largest remainder (better place first)"


def split_equal(total: int, n: int) -> list[int]:
    """`total` cents in `n` equal whole-cent parts; the odd cents one each to the first parts."""
    base, odd = divmod(total, n)
    return [base + (1 if i < odd else 0) for i in range(n)]
