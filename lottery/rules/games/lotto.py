"""Lotto: draw format (§11), line classification and Plussa flags (§28; digest §5.1).

Draw: 7 numbers and 1 additional number from 1..40, and a plus number from 1..30 (separate
drum). A line has 7 numbers; a Plussa line also has a plus number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPicks, InvalidResult
from ..validation import distinct_numbers, number_in_range
from .common import LineClass, params_for

GAME = "lotto"


@dataclass(frozen=True)
class LottoResult:
    numbers: frozenset[int]
    additional: int
    plus: int | None = None


@dataclass(frozen=True)
class LottoLine:
    numbers: frozenset[int]
    plus: int | None = None  # set on a line that takes part in Plussa

    @property
    def plussa(self) -> bool:
        return self.plus is not None


def validate_result(
    numbers: Iterable[int], additional: int, plus: int | None = None, params: Mapping[str, Any] | None = None
) -> LottoResult:
    fmt = params_for(GAME, params).sub("format")
    count, high = fmt.integer("numbers"), fmt.integer("max")
    main = distinct_numbers(
        numbers, count=count, low=1, high=high, what="Lotto result numbers", error=InvalidResult
    )
    extra = number_in_range(additional, low=1, high=high, what="Lotto additional number", error=InvalidResult)
    if extra in main:
        raise InvalidResult(
            f"Lotto additional number {extra} is duplicated: it is already one of the main numbers"
        )
    plus_number = None
    if plus is not None:
        plus_number = number_in_range(
            plus, low=1, high=fmt.integer("plus_max"), what="Lotto plus number", error=InvalidResult
        )
    return LottoResult(main, extra, plus_number)


def validate_line(
    numbers: Iterable[int], plus: int | None = None, params: Mapping[str, Any] | None = None
) -> LottoLine:
    fmt = params_for(GAME, params).sub("format")
    picks = distinct_numbers(
        numbers,
        count=fmt.integer("numbers"),
        low=1,
        high=fmt.integer("max"),
        what="Lotto line",
        error=InvalidPicks,
    )
    plus_number = None
    if plus is not None:
        plus_number = number_in_range(
            plus, low=1, high=fmt.integer("plus_max"), what="Lotto line plus number", error=InvalidPicks
        )
    return LottoLine(picks, plus_number)


def main_class(matches: int, additional: bool) -> str | None:
    """§28 table, classes 1-6: the highest class the line reaches (§22)."""
    if matches == 7:
        return "1"
    if matches == 6:
        return "2" if additional else "3"
    if matches == 5:
        return "4"
    if matches == 4:
        return "5"
    if matches == 3 and additional:
        return "6"
    return None


def classify(line: LottoLine, result: LottoResult, params: Mapping[str, Any] | None = None) -> LineClass:
    """One result per line (§22). Plussa: classes 2-6 boosted when the plus number is correct;
    class 7 (plus number correct) only for a Plussa line with no prize in classes 1-6."""
    p = params_for(GAME, params)
    matches = len(line.numbers & result.numbers)
    cls = main_class(matches, result.additional in line.numbers)
    plus_ok = line.plus is not None and result.plus is not None and line.plus == result.plus
    plussa = p.opt_sub("plussa")
    boosted_classes = plussa.str_list("classes") if plussa else []
    if cls is None:
        return LineClass("7" if plus_ok and plussa else None, hits=matches)
    return LineClass(cls, hits=matches, boosted=plus_ok and cls in boosted_classes)
