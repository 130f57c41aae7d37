"""Reading a variant's rule data (the round's ``rules`` or the engine's own): ratios, required values.

Shared by every game family. Every error names the field as
``rules.<path>``: the data may come from a published rule version given with the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..base import EngineError


def need(data: Mapping[str, Any], key: str, where: str = "rules") -> Any:
    """A value the variant must have; a value lost in the rulebook's extraction is null in the
    engine's own data, so a round must bring it in a published rule version (``rules``)."""
    if not isinstance(data, Mapping):
        raise EngineError(where, "must be a JSON object")
    value = data.get(key)
    if value is None:
        raise EngineError(f"{where}.{key}", "is required in the variant's rule data (not given by the rulebook: "
                                            "pass the published value in the round's `rules`)")
    return value


def present(data: Mapping[str, Any], key: str, where: str = "rules") -> Any:
    """A value the variant's data must name, where null is a meaning of its own ("none posted")."""
    if not isinstance(data, Mapping):
        raise EngineError(where, "must be a JSON object")
    if key not in data:
        raise EngineError(f"{where}.{key}", "is required in the variant's rule data (the engine invents no default: "
                                            "pass the published value in the round's `rules`)")
    return data[key]


def ratio(value: Any, where: str) -> Fraction:
    """Odds N:1 as a string "35" or "3/2" (an int is accepted); never a float."""
    if isinstance(value, bool) or isinstance(value, float):
        raise EngineError(where, "odds are a string such as \"35\" or \"3/2\"")
    result = _fraction(value) if isinstance(value, (int, str)) else None
    if result is None or result < 0:
        raise EngineError(where, f"{value!r} is not odds such as \"35\" or \"3/2\"")
    return result


@lru_cache(maxsize=4096)
def _fraction(value: int | str) -> Fraction | None:
    """A paytable's odds parsed once per process (a settlement reads the whole table for every bet)."""
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        return None


def whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(where, f"a whole number from {low} to {high}")
    return value


def fmt_ratio(r: Fraction) -> str:
    return f"{r.numerator}:{r.denominator}" if r.denominator != 1 else f"{r.numerator}:1"
