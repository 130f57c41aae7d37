"""The shapes of results and lines in the draw pipeline (below `lottery.games`).

`LineFormat`: a number game's format under a rule version (its codec's ``line_format``);
`ParsedResult` / `ParsedLine`: a validated result or line as stored (masks, canonical JSON); the
readers of whole numbers in results. Number n is bit n-1 of a mask. Each game's own parsing is its
codec's (`lottery.games.<game>`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from compliance.bounds import parse_int
from compliance.games import UnknownGame

from .rules.errors import InvalidResult

#: Not a game the draw pipeline sells and settles (no spec is registered for it).
UnsupportedGame = UnknownGame
#: The columns of the number-line retail sales file (docs/draws.md, "Retail sales file").
NUMBER_HEADER = ("ticket", "sold_at", "terminal", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "s1", "s2", "plus",
                 "stake_cents", "plus_cents")


@dataclass(frozen=True)
class LineFormat:
    game: str
    main_count: int
    main_max: int
    secondary_count: int = 0  # Eurojackpot stars, Vikinglotto Viking number
    secondary_max: int = 0
    secondary_label: str = ""
    additional: bool = False  # an additional number is drawn from the main drum (Lotto, Milli)
    plus_max: int | None = None  # Plussa offered (Lotto, Vikinglotto)


@dataclass(frozen=True)
class ParsedResult:
    numbers: dict[str, Any]  # canonical JSON of the result
    main_mask: int
    additional_mask: int = 0
    secondary_mask: int = 0
    plus: int | None = None


def result_ints(value: Any, what: str) -> list[int]:
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise InvalidResult(f"{what}: {value!r} is not a list of whole numbers", code="not_numbers", what=what,
                                value=repr(value)) from None
    if isinstance(value, Sequence):
        return list(value)
    raise InvalidResult(f"{what}: expected a list of numbers", code="expected_list", what=what)


def result_int(value: Any, what: str) -> int:
    if isinstance(value, str):
        number = parse_int(value.strip(), maximum=10**12 - 1, signed=True)
        if number is None:
            raise InvalidResult(f"{what}: {value!r} is not a whole number", code="not_whole", what=what,
                                value=repr(value))
        return number
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidResult(f"{what}: {value!r} is not a whole number", code="not_whole", what=what, value=repr(value))
    return value


@dataclass(frozen=True)
class ParsedLine:
    main_mask: int
    extra_mask: int
    plus: int | None


