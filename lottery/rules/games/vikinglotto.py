"""Vikinglotto: draw format (§13), line classification and Plussa flags (§30; digest §5.3).

Draw: 6 main numbers from 1..48 and 1 Viking number from 1..5; in Finland also a plus number
from 1..30. A line has 6 numbers and a Viking number; a Plussa line also a plus number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPicks, InvalidResult
from ..validation import distinct_numbers, number_in_range
from .common import LineClass, params_for

GAME = "vikinglotto"

#: §30: (main matches, Viking number correct) -> class.
CLASS_OF = {
    (6, True): "1",
    (6, False): "2",
    (5, True): "3",
    (5, False): "4",
    (4, True): "5",
    (4, False): "6",
    (3, True): "7",
    (3, False): "8",
}


@dataclass(frozen=True)
class VikinglottoDraw:
    numbers: frozenset[int]
    viking: int
    plus: int | None = None


def _validate(
    numbers: Iterable[int],
    viking: int,
    plus: int | None,
    params: Mapping[str, Any] | None,
    what: str,
    error: type[InvalidPicks] | type[InvalidResult],
) -> VikinglottoDraw:
    fmt = params_for(GAME, params).sub("format")
    main = distinct_numbers(
        numbers,
        count=fmt.integer("numbers"),
        low=1,
        high=fmt.integer("max"),
        what=f"Vikinglotto {what} numbers",
        error=error,
    )
    vik = number_in_range(
        viking, low=1, high=fmt.integer("viking_max"), what=f"Vikinglotto {what} Viking number", error=error
    )
    plus_number = None
    if plus is not None:
        plus_number = number_in_range(
            plus, low=1, high=fmt.integer("plus_max"), what=f"Vikinglotto {what} plus number", error=error
        )
    return VikinglottoDraw(main, vik, plus_number)


def validate_result(
    numbers: Iterable[int], viking: int, plus: int | None = None, params: Mapping[str, Any] | None = None
) -> VikinglottoDraw:
    return _validate(numbers, viking, plus, params, "result", InvalidResult)


def validate_line(
    numbers: Iterable[int], viking: int, plus: int | None = None, params: Mapping[str, Any] | None = None
) -> VikinglottoDraw:
    return _validate(numbers, viking, plus, params, "line", InvalidPicks)


def classify(
    line: VikinglottoDraw, result: VikinglottoDraw, params: Mapping[str, Any] | None = None
) -> LineClass:
    """One result per line (§22); Plussa boosts classes 2-8, class 9 only without other prize."""
    p = params_for(GAME, params)
    matches = len(line.numbers & result.numbers)
    cls = CLASS_OF.get((matches, line.viking == result.viking))
    plus_ok = line.plus is not None and result.plus is not None and line.plus == result.plus
    plussa = p.opt_sub("plussa")
    boosted_classes = plussa.str_list("classes") if plussa else []
    if cls is None:
        return LineClass("9" if plus_ok and plussa else None, hits=matches)
    return LineClass(cls, hits=matches, boosted=plus_ok and cls in boosted_classes)
