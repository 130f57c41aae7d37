"""Kaikki tai ei mitään ("All or nothing") with Onnenapila: format (§16), classification and
class cap (§33; digest §5.6).

Draw: 12 numbers from 1..24, and an Onnenapila lucky number from 1..4. A line picks 12
numbers (interpretation: the source does not say so); an Onnenapila line also a lucky number.
Prize = stake x multiplier; the Onnenapila column applies only when the line was played with
Onnenapila and its lucky number is correct.

Cap: the prizes of each class (table row, A12 -- 12 and 0 correct are separate classes;
``class_scope = symmetric_pair`` caps h and 12-h together) at most 3,000,000 € per draw,
Onnenapila wins included, divided **in proportion to the prizes** (W14).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..errors import InvalidPicks, InvalidResult, RoundInputError
from ..inputs import Bucket
from ..multiplier import CapRule, ClassInfo
from ..params import Params
from ..validation import distinct_numbers, number_in_range
from .common import LineClass, bucket_count, bucket_stake, flag, params_for, whole

GAME = "kaikki_tai_ei_mitaan"


@dataclass(frozen=True)
class KtemResult:
    numbers: frozenset[int]
    lucky: int


@dataclass(frozen=True)
class KtemLine:
    numbers: frozenset[int]
    lucky: int | None = None  # set when played with Onnenapila


def validate_result(
    numbers: Iterable[int], lucky: int, params: Mapping[str, Any] | None = None
) -> KtemResult:
    fmt = params_for(GAME, params).sub("format")
    drawn = distinct_numbers(
        numbers,
        count=fmt.integer("drawn"),
        low=1,
        high=fmt.integer("max"),
        what="Kaikki tai ei mitään result numbers",
        error=InvalidResult,
    )
    lucky_n = number_in_range(
        lucky, low=1, high=fmt.integer("lucky_max"), what="Onnenapila lucky number", error=InvalidResult
    )
    return KtemResult(drawn, lucky_n)


def validate_line(
    numbers: Iterable[int], lucky: int | None = None, params: Mapping[str, Any] | None = None
) -> KtemLine:
    fmt = params_for(GAME, params).sub("format")
    picks = distinct_numbers(
        numbers,
        count=fmt.integer("numbers"),
        low=1,
        high=fmt.integer("max"),
        what="Kaikki tai ei mitään line",
        error=InvalidPicks,
    )
    lucky_n = None
    if lucky is not None:
        lucky_n = number_in_range(
            lucky,
            low=1,
            high=fmt.integer("lucky_max"),
            what="Onnenapila line lucky number",
            error=InvalidPicks,
        )
    return KtemLine(picks, lucky_n)


def cell(hits: int, clover: bool, params: Params) -> LineClass:
    row = params.mapping("multipliers").get(str(hits))
    if not row:
        return LineClass(None, hits=hits)
    if clover and row.get("clover") is not None:
        return LineClass(str(hits), hits=hits, column="clover", multiplier=Decimal(row["clover"]))
    if row.get("base") is not None:
        return LineClass(str(hits), hits=hits, column="base", multiplier=Decimal(row["base"]))
    return LineClass(None, hits=hits)


def classify(line: KtemLine, result: KtemResult, params: Mapping[str, Any] | None = None) -> LineClass:
    p = params_for(GAME, params)
    hits = len(line.numbers & result.numbers)
    return cell(hits, line.lucky is not None and line.lucky == result.lucky, p)


def classes(params: Params) -> list[ClassInfo]:
    return [
        ClassInfo(h, f"{h} correct") for h in sorted(params.mapping("multipliers"), key=int, reverse=True)
    ]


def cap_group(class_key: str, params: Params) -> str:
    if params.choice("class_scope", ("row", "symmetric_pair")) == "row":
        return class_key
    total = params.sub("format").integer("numbers")
    h = int(class_key)
    return f"{max(h, total - h)}|{min(h, total - h)}"


def cap_rule(params: Params) -> CapRule:
    caps = params.sub("caps")
    amount = caps.dec("class")
    return CapRule(
        caps={cap_group(c.key, params): amount for c in classes(params)},
        split=caps.choice("split", ("stake", "prize")),
        overall=caps.opt_dec("overall"),
    )


def result_from_json(d: Mapping[str, Any], params: Params) -> KtemResult:
    return validate_result(d.get("numbers", []), d.get("lucky"), params=params.data)  # type: ignore[arg-type]


def bucket_from_json(d: Mapping[str, Any], index: int, params: Params, result: KtemResult | None) -> Bucket:
    field = f"lines[{index}]"
    stake = bucket_stake(d, field, params.choice("stake_basis", ("base", "with_addon_fee")))
    count = bucket_count(d, field)
    if "picks" in d:
        if result is None:
            raise RoundInputError("result", "lines given as picks need the draw result")
        try:
            line = validate_line(d["picks"], d.get("lucky"), params=params.data)
        except InvalidPicks as exc:
            raise RoundInputError(f"{field}.picks", str(exc)) from None
        lc = classify(line, result, params.data)
    else:
        total = params.sub("format").integer("numbers")
        lc = cell(whole(d, "hits", field, 0, total), flag(d, "clover", field), params)
    group = cap_group(lc.class_key, params) if lc.class_key else None
    return Bucket(
        index=index,
        count=count,
        stake=stake,
        class_key=lc.class_key,
        multiplier=lc.multiplier or Decimal(0),
        cap_group=group,
    )
