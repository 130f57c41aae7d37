"""Synttärit ("Birthday"): format (§17), classification and class cap (§34; digest §5.7).

Draw: one date and one letter from the playable sets (game instructions:
``params.format.years`` = [first, last] and ``params.format.letters``; null = any valid
date / any single letter). A line is a (date, letter) pair. Compare day D, month M, year Y
and letter L; the table lists exact match sets (A13: an unlisted component must be wrong),
every winning set includes the month. Prize = stake x multiplier.

Cap: each class at most 3,000,000 € per draw, divided in proportion to stakes (W15).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..errors import InvalidPicks, InvalidResult, RoundInputError, RulesError
from ..inputs import Bucket
from ..multiplier import CapRule, ClassInfo
from ..params import Params
from .common import LineClass, bucket_count, bucket_stake, params_for

GAME = "synttarit"
COMPONENTS = "DMYL"


@dataclass(frozen=True)
class DateLetter:
    date: dt.date
    letter: str


def _validate(
    date: object, letter: object, params: Mapping[str, Any] | None, what: str, error: type[RulesError]
) -> DateLetter:
    fmt = params_for(GAME, params).sub("format")
    if isinstance(date, str):
        try:
            date = dt.date.fromisoformat(date)
        except ValueError:
            raise error(f"Synttärit {what} date {date!r} is not a valid date (YYYY-MM-DD)") from None
    if not isinstance(date, dt.date):
        raise error(f"Synttärit {what} date must be a date, got {date!r}")
    if fmt.raw("years", None) is not None:
        first, last = fmt.int_range("years")
        if not first <= date.year <= last:
            raise error(f"Synttärit {what} year {date.year} is out of range {first}..{last}")
    if not isinstance(letter, str) or len(letter.strip()) != 1 or not letter.strip().isalpha():
        raise error(f"Synttärit {what} letter must be a single letter, got {letter!r}")
    norm = letter.strip().upper()
    letters = fmt.raw("letters", None)
    if letters is not None and norm not in {x.upper() for x in letters}:
        raise error(f"Synttärit {what} letter {norm!r} is not a playable letter")
    return DateLetter(date, norm)


def validate_result(date: dt.date | str, letter: str, params: Mapping[str, Any] | None = None) -> DateLetter:
    return _validate(date, letter, params, "result", InvalidResult)


def validate_line(date: dt.date | str, letter: str, params: Mapping[str, Any] | None = None) -> DateLetter:
    return _validate(date, letter, params, "line", InvalidPicks)


def match_set(line: DateLetter, result: DateLetter) -> str:
    """Correct components in canonical order, e.g. 'DMY'."""
    flags = (
        line.date.day == result.date.day,
        line.date.month == result.date.month,
        line.date.year == result.date.year,
        line.letter == result.letter,
    )
    return "".join(ch for ch, ok in zip(COMPONENTS, flags) if ok)


def cell(match: str, params: Params) -> LineClass:
    for c in params.items("classes"):
        if c.text("match") == match:
            return LineClass(c.text("class"), multiplier=Decimal(c.text("multiplier")))
    return LineClass(None)


def classify(line: DateLetter, result: DateLetter, params: Mapping[str, Any] | None = None) -> LineClass:
    return cell(match_set(line, result), params_for(GAME, params))


def classes(params: Params) -> list[ClassInfo]:
    names = {"D": "day", "M": "month", "Y": "year", "L": "letter"}
    return [
        ClassInfo(c.text("class"), ", ".join(names[ch] for ch in c.text("match")) + " correct")
        for c in params.items("classes")
    ]


def cap_rule(params: Params) -> CapRule:
    caps = params.sub("caps")
    return CapRule(
        caps={c.key: caps.dec("class") for c in classes(params)},
        split=caps.choice("split", ("stake", "prize")),
        overall=caps.opt_dec("overall"),
    )


def result_from_json(d: Mapping[str, Any], params: Params) -> DateLetter:
    return validate_result(d.get("date"), d.get("letter"), params=params.data)  # type: ignore[arg-type]


def bucket_from_json(d: Mapping[str, Any], index: int, params: Params, result: DateLetter | None) -> Bucket:
    field = f"lines[{index}]"
    stake = bucket_stake(d, field, "base")
    count = bucket_count(d, field)
    if "date" in d:
        if result is None:
            raise RoundInputError("result", "lines given as picks need the draw result")
        try:
            line = validate_line(d["date"], d.get("letter"), params=params.data)  # type: ignore[arg-type]
        except InvalidPicks as exc:
            raise RoundInputError(f"{field}.date", str(exc)) from None
        lc = classify(line, result, params.data)
    else:
        match = d.get("match")
        if (
            not isinstance(match, str)
            or not match
            or any(ch not in COMPONENTS for ch in match.upper())
            or len(set(match.upper())) != len(match)
        ):
            raise RoundInputError(
                f"{field}.match",
                f"must be the correct components, letters of DMYL (e.g. 'DMY'); got {match!r}",
            )
        lc = cell("".join(ch for ch in COMPONENTS if ch in match.upper()), params)
    return Bucket(
        index=index,
        count=count,
        stake=stake,
        class_key=lc.class_key,
        multiplier=lc.multiplier or Decimal(0),
        cap_group=lc.class_key,
    )
