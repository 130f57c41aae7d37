"""Jokeri: draw format (§18), positional matching and Tuplaus (§35; digest §5.8).

Draw: 7 winning digits 0-9, in order (e.g. "1234567"); digits may repeat. A line is 7 digits.

Matching (A14, open question): "N digits correct in the correct position".
``any_positions`` (default, the literal reading) counts every position where the digits are
equal. ``run_from_either_end`` (the traditional Jokeri rule) counts the longer unbroken run of
equal digits starting from the first or from the last digit. Selected by ``params.matcher``.

Tuplaus: a winning line in Tuplaus is paid double "if the correct Tuplaus number is contained,
in its correct position, in the drawn number sequence". The source does not say how the
number and position are chosen; here a Tuplaus line carries a (position 1..7, digit) pair.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidParams, InvalidPicks, InvalidResult, RulesError
from .common import LineClass, params_for

GAME = "jokeri"
MATCHERS = ("any_positions", "run_from_either_end")


@dataclass(frozen=True)
class Tuplaus:
    position: int  # 1-based
    digit: int


@dataclass(frozen=True)
class JokeriLine:
    digits: str
    tuplaus: Tuplaus | None = None


def _digits(value: object, length: int, what: str, error: type[RulesError]) -> str:
    if not isinstance(value, str):
        raise error(f"{what}: expected a string of {length} digits, got {value!r}")
    if len(value) != length:
        raise error(f"{what}: expected {length} digits, got {len(value)}")
    bad = [ch for ch in value if ch not in "0123456789"]
    if bad:
        raise error(f"{what}: {bad[0]!r} is not a digit 0-9")
    return value


def validate_result(digits: str, params: Mapping[str, Any] | None = None) -> str:
    length = params_for(GAME, params).sub("format").integer("digits")
    return _digits(digits, length, "Jokeri result", InvalidResult)


def validate_line(
    digits: str, tuplaus: tuple[int, int] | None = None, params: Mapping[str, Any] | None = None
) -> JokeriLine:
    length = params_for(GAME, params).sub("format").integer("digits")
    line = _digits(digits, length, "Jokeri line", InvalidPicks)
    tp = None
    if tuplaus is not None:
        position, digit = tuplaus
        if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= length:
            raise InvalidPicks(f"Jokeri Tuplaus position {position!r} is out of range 1..{length}")
        if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= 9:
            raise InvalidPicks(f"Jokeri Tuplaus digit {digit!r} is out of range 0..9")
        tp = Tuplaus(position, digit)
    return JokeriLine(line, tp)


def correct_digits(line: str, result: str, matcher: str = "any_positions") -> int:
    """Digits "correct in the correct position" under the chosen matcher (A14)."""
    if matcher == "any_positions":
        return sum(a == b for a, b in zip(line, result))
    if matcher == "run_from_either_end":

        def run(a: str, b: str) -> int:
            n = 0
            for x, y in zip(a, b):
                if x != y:
                    break
                n += 1
            return n

        return max(run(line, result), run(line[::-1], result[::-1]))
    raise InvalidParams("params.matcher", f"must be one of {', '.join(MATCHERS)}; got {matcher!r}")


def classify(line: JokeriLine, result: str, params: Mapping[str, Any] | None = None) -> LineClass:
    p = params_for(GAME, params)
    matcher = p.choice("matcher", MATCHERS)
    n = correct_digits(line.digits, result, matcher)
    cls = None
    for c in p.items("classes"):
        if c.integer("digits") == n:
            cls = c.text("class")
    doubled = bool(
        cls is not None
        and line.tuplaus is not None
        and result[line.tuplaus.position - 1] == str(line.tuplaus.digit)
    )
    return LineClass(cls, hits=n, doubled=doubled)
