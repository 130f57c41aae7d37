"""Exact money arithmetic (DESIGN §2, digest §0.4).

Amounts enter and leave the engine as :class:`~decimal.Decimal` (or decimal strings in the
JSON interface). Inside, every intermediate value -- percentages, cap ratios, scaling
factors, pool / winners -- is an exact :class:`~fractions.Fraction`, so nothing is rounded
before the one rounding the rules allow: the amount paid to one winner or line, by the
game's rounding rule (default: down to the cent). No float ever touches money.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .errors import RoundInputError

CENT = Fraction(1, 100)
ZERO = Fraction(0)

#: Rounding modes a rule set may name (``params.rounding.mode``).
ROUNDING_MODES = ("down", "half_up", "half_even")


def to_fraction(value: Decimal | int | str | Fraction) -> Fraction:
    """Exact conversion; strings are parsed as decimals (never via float)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):  # bool is an int: refuse it explicitly
        raise TypeError("a boolean is not an amount")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, str):
        return Fraction(Decimal(value.strip()))
    raise TypeError(f"not an exact amount: {value!r}")


# No amount of a round reaches this (a thousand billion euros). It keeps every amount, with its
# decimals, well inside Decimal's 28-digit precision, so quantizing it cannot fail.
MAX_AMOUNT = Decimal(10) ** 12


def parse_amount(
    value: object, field: str, *, max_places: int | None = 2, allow_negative: bool = False
) -> Fraction:
    """Parse a JSON amount (decimal string or int) into a Fraction, or raise RoundInputError.

    Floats are refused: a money amount must be written as a decimal string (DESIGN §2).
    """
    if isinstance(value, bool) or value is None:
        raise RoundInputError(field, f"expected a decimal string in euros, got {value!r}")
    if isinstance(value, float):
        raise RoundInputError(field, f"amounts must be decimal strings, not floats (got {value!r})")
    if isinstance(value, int):
        dec = Decimal(value)
    elif isinstance(value, str):
        try:
            dec = Decimal(value.strip())
        except InvalidOperation:
            raise RoundInputError(field, f"{value!r} is not a decimal amount") from None
    elif isinstance(value, Decimal):
        dec = value
    else:
        raise RoundInputError(field, f"expected a decimal string in euros, got {type(value).__name__}")
    if not dec.is_finite():
        raise RoundInputError(field, f"{value!r} is not a finite amount")
    if abs(dec) >= MAX_AMOUNT:
        raise RoundInputError(field, f"{value} is too large (at most {MAX_AMOUNT - 1:f} euros)")
    if dec < 0 and not allow_negative:
        raise RoundInputError(field, f"must not be negative (got {value})")
    if max_places is not None and dec != dec.quantize(Decimal(1).scaleb(-max_places)):
        raise RoundInputError(field, f"{value} has more than {max_places} decimal places")
    return Fraction(dec)


def round_to_step(amount: Fraction, step: Fraction, mode: str = "down") -> Fraction:
    """Round ``amount`` to a multiple of ``step`` (e.g. 0.01 or 0.10 euro).

    ``down`` truncates (the default of §0.4 and of DESIGN §2); ``half_up`` and
    ``half_even`` round to the nearest step. Only ``down`` guarantees that the sum paid never
    exceeds a pool or cap; with the others breakage can be negative (the operator pays it).
    """
    if step <= 0:
        raise ValueError("rounding step must be positive")
    units = amount / step
    if mode == "down":
        return math.floor(units) * step
    if mode == "half_up":
        return math.floor(units + Fraction(1, 2)) * step
    if mode == "half_even":
        return round(units) * step
    raise ValueError(f"unknown rounding mode {mode!r}")


def floor_cents(amount: Fraction) -> Fraction:
    """Truncate to whole cents (used to book a pool or share as a euro amount)."""
    return Fraction(math.floor(amount * 100), 100)


def is_cents(amount: Fraction) -> bool:
    return (amount * 100).denominator == 1


def to_decimal(amount: Fraction) -> Decimal:
    """Exact Decimal of a whole-cent amount, with two decimals.

    Raises ValueError if the amount is not a whole number of cents: every amount the engine
    reports is booked in cents, so a sub-cent value here is a bug, never silently rounded.
    """
    cents = amount * 100
    if cents.denominator != 1:
        raise ValueError(f"internal error: {amount} is not a whole number of cents")
    return (Decimal(cents.numerator) / 100).quantize(Decimal("0.01"))


def fmt(amount: Fraction) -> str:
    """Two-decimal string of a whole-cent amount ("1234.50")."""
    return f"{to_decimal(amount):.2f}"


def fmt_exact(amount: Fraction, places: int = 6) -> str:
    """Human-readable exact value for ``explain`` lines: '292.307692…' or '6300'."""
    if amount.denominator == 1:
        return f"{amount.numerator:,}".replace(",", " ")
    scaled = amount * 10**places
    if scaled.denominator == 1:
        text = f"{Decimal(scaled.numerator).scaleb(-places):f}".rstrip("0").rstrip(".")
    else:
        text = f"{Decimal(math.floor(scaled)).scaleb(-places):f}" + "…"
    whole, _, frac = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    grouped = f"{int(whole):,}".replace(",", " ")
    return f"{sign}{grouped}.{frac}" if frac else f"{sign}{grouped}"


def allocate_cents(parts: Sequence[Fraction], total: Fraction) -> list[Fraction]:
    """Book exact ``parts`` (which sum to ``total``, a whole-cent amount) as whole cents.

    Largest-remainder method: every part is floored to the cent and the cents left over go,
    one each, to the parts with the largest sub-cent remainders (ties: the earlier part).
    Used to state a per-class breakage when several classes share one pool (merge rule) or
    one scaling factor (Keno overall cap), so that per-class amounts add up to the total.
    """
    if sum(parts, ZERO) != total:
        raise ValueError("internal error: parts do not add up to the total")
    if not is_cents(total):
        raise ValueError("internal error: the total to allocate is not whole cents")
    floors = [floor_cents(p) for p in parts]
    left = int((total - sum(floors, ZERO)) * 100)
    order = sorted(range(len(parts)), key=lambda i: (-(parts[i] - floors[i]), i))
    for i in order[:left]:
        floors[i] += CENT
    return floors


def show(amount: Fraction) -> str:
    """Amount for an ``explain`` line: '389 500.00' when whole cents, else the exact value."""
    if not is_cents(amount):
        return fmt_exact(amount)
    text = fmt(amount)
    whole, _, frac = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    return f"{sign}{int(whole.lstrip('-')):,}".replace(",", " ") + "." + frac


def show_pct(ratio: Fraction) -> str:
    """'3.80 %' for 0.038."""
    pct = ratio * 100
    if (pct * 100).denominator == 1:
        return f"{Decimal(pct.numerator) / Decimal(pct.denominator):.2f} %"
    return fmt_exact(pct) + " %"
