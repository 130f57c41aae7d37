"""Eurojackpot: draw format (§12) and line classification (§29; digest §5.2).

Draw: 5 main numbers from 1..50 and 2 star numbers from 1..12. Only the twelve
(main, star) combinations of the table win.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPicks, InvalidResult
from ..validation import distinct_numbers
from .common import LineClass, params_for

GAME = "eurojackpot"

#: §29: (main matches, star matches) -> class.
CLASS_OF = {
    (5, 2): "1",
    (5, 1): "2",
    (5, 0): "3",
    (4, 2): "4",
    (4, 1): "5",
    (3, 2): "6",
    (4, 0): "7",
    (2, 2): "8",
    (3, 1): "9",
    (3, 0): "10",
    (1, 2): "11",
    (2, 1): "12",
}


@dataclass(frozen=True)
class EurojackpotDraw:
    numbers: frozenset[int]
    stars: frozenset[int]


def _validate(
    numbers: Iterable[int],
    stars: Iterable[int],
    params: Mapping[str, Any] | None,
    what: str,
    error: type[InvalidPicks] | type[InvalidResult],
) -> EurojackpotDraw:
    fmt = params_for(GAME, params).sub("format")
    main = distinct_numbers(
        numbers,
        count=fmt.integer("numbers"),
        low=1,
        high=fmt.integer("max"),
        what=f"Eurojackpot {what} main numbers",
        error=error,
    )
    star = distinct_numbers(
        stars,
        count=fmt.integer("stars"),
        low=1,
        high=fmt.integer("star_max"),
        what=f"Eurojackpot {what} star numbers",
        error=error,
    )
    return EurojackpotDraw(main, star)


def validate_result(
    numbers: Iterable[int], stars: Iterable[int], params: Mapping[str, Any] | None = None
) -> EurojackpotDraw:
    return _validate(numbers, stars, params, "result", InvalidResult)


def validate_line(
    numbers: Iterable[int], stars: Iterable[int], params: Mapping[str, Any] | None = None
) -> EurojackpotDraw:
    return _validate(numbers, stars, params, "line", InvalidPicks)


def classify(line: EurojackpotDraw, result: EurojackpotDraw) -> LineClass:
    main = len(line.numbers & result.numbers)
    stars = len(line.stars & result.stars)
    return LineClass(CLASS_OF.get((main, stars)), hits=main)
