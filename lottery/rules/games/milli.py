"""Milli: draw format (§14) and line classification (§31; digest §5.4).

Draw: 6 numbers and 1 additional number from 1..40. A line has 6 numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPicks, InvalidResult
from ..validation import distinct_numbers, number_in_range
from .common import LineClass, params_for

GAME = "milli"


@dataclass(frozen=True)
class MilliResult:
    numbers: frozenset[int]
    additional: int


def validate_result(
    numbers: Iterable[int], additional: int, params: Mapping[str, Any] | None = None
) -> MilliResult:
    fmt = params_for(GAME, params).sub("format")
    high = fmt.integer("max")
    main = distinct_numbers(
        numbers,
        count=fmt.integer("numbers"),
        low=1,
        high=high,
        what="Milli result numbers",
        error=InvalidResult,
    )
    extra = number_in_range(additional, low=1, high=high, what="Milli additional number", error=InvalidResult)
    if extra in main:
        raise InvalidResult(
            f"Milli additional number {extra} is duplicated: it is already one of the main numbers"
        )
    return MilliResult(main, extra)


def validate_line(numbers: Iterable[int], params: Mapping[str, Any] | None = None) -> frozenset[int]:
    fmt = params_for(GAME, params).sub("format")
    return distinct_numbers(
        numbers,
        count=fmt.integer("numbers"),
        low=1,
        high=fmt.integer("max"),
        what="Milli line",
        error=InvalidPicks,
    )


def classify(line: frozenset[int], result: MilliResult) -> LineClass:
    """§31 table; the additional number matters only for 5 correct (class 2 vs 3)."""
    m = len(line & result.numbers)
    if m == 6:
        return LineClass("1", hits=m)
    if m == 5:
        return LineClass("2" if result.additional in line else "3", hits=m)
    return LineClass({4: "4", 3: "5", 2: "6"}.get(m), hits=m)
