"""Shared checks for draw results and line picks (digest §3, §10-§20).

Every failure names the game, the element and what is wrong: out of range, duplicated,
wrong count. Results raise :class:`InvalidResult`, lines :class:`InvalidPicks`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import RulesError


def whole_number(value: object, what: str, error: type[RulesError]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what}: {value!r} is not a whole number")
    return value


def distinct_numbers(
    values: Iterable[object], *, count: int | None, low: int, high: int, what: str, error: type[RulesError]
) -> frozenset[int]:
    """``count`` distinct whole numbers in ``low..high`` (any count if None)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise error(f"{what}: expected a list of numbers")
    items = [whole_number(v, what, error) for v in values]
    seen: set[int] = set()
    for n in items:
        if n < low or n > high:
            raise error(f"{what}: number {n} is out of range {low}..{high}")
        if n in seen:
            raise error(f"{what}: number {n} is duplicated")
        seen.add(n)
    if count is not None and len(items) != count:
        raise error(f"{what}: expected {count} numbers, got {len(items)}")
    return frozenset(items)


def number_in_range(value: object, *, low: int, high: int, what: str, error: type[RulesError]) -> int:
    n = whole_number(value, what, error)
    if n < low or n > high:
        raise error(f"{what}: {n} is out of range {low}..{high}")
    return n
