"""Reading the JSON input of the ``lottery_compute`` kinds: every error names the field (a dotted
path into the input) and nothing is computed from bad input (RoundInputError, exit 2)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from .errors import RoundInputError
from .money import fmt, parse_amount

MAX_COUNT = 10**12


def path(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RoundInputError(where or "$", "must be a JSON object")
    return value


def only(data: Mapping[str, Any], allowed: Iterable[str], where: str = "") -> None:
    allowed = set(allowed)
    for key in data:
        if key not in allowed:
            raise RoundInputError(path(where, str(key)), f"unknown field (allowed: {', '.join(sorted(allowed))})")


def need(data: Mapping[str, Any], key: str, where: str = "") -> Any:
    if key not in data or data[key] is None:
        raise RoundInputError(path(where, key), "is required")
    return data[key]


def amount(value: Any, field: str, *, positive: bool = False) -> Fraction:
    """Euros as a decimal string (or int), at most two places, never negative; exact Fraction."""
    result = parse_amount(value, field)
    if positive and result <= 0:
        raise RoundInputError(field, "must be more than zero")
    return result


def count(value: Any, field: str, *, low: int = 0, high: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RoundInputError(field, f"must be a whole number from {low} to {high}, got {value!r}")
    return value


def flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise RoundInputError(field, "must be true or false")
    return value


def text(value: Any, field: str, *, max_len: int = 200) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= max_len:
        raise RoundInputError(field, f"must be a non-empty string of at most {max_len} characters")
    return value


def choice(value: Any, allowed: Iterable[str], field: str) -> str:
    allowed = list(allowed)
    if value not in allowed:
        raise RoundInputError(field, f"{value!r} is not one of: {', '.join(allowed)}")
    return value


def date(value: Any, field: str) -> dt.date:
    if not isinstance(value, str):
        raise RoundInputError(field, "must be a date as YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise RoundInputError(field, f"{value!r} is not a date as YYYY-MM-DD") from None


def items(value: Any, field: str, *, min_len: int = 0, max_len: int = 100_000) -> list[Any]:
    if not isinstance(value, list) or not min_len <= len(value) <= max_len:
        raise RoundInputError(field, f"must be a list of {min_len} to {max_len} items")
    return value


def euros(value: Fraction) -> str:
    """A whole-cent amount as "12.34"."""
    return fmt(value)


def exact(value: Fraction) -> str:
    """An exact value as a fraction string ("29/36", "3/2", "7")."""
    return str(value)
