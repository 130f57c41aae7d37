"""Keno: draw format (§15), classification (§32; digest §5.5, A10) and cell caps (§15.4).

Draw: 20 numbers from 1..70, and a Kunkku (King) number drawn from those 20. A line of level
``n`` (2..11) picks ``n`` numbers (level = numbers picked, an interpretation of the source).
Prize = stake x multiplier; the Kunkku column applies only to a Kunkku-Keno line whose Kunkku
number is correct, i.e. (A10, ``kunkku_mode = drawn_in_picks``) the drawn Kunkku number is one
of the line's picks. ``kunkku_mode = designated`` is the alternative in which the player
designates one of the line's numbers as the king and it must equal the drawn Kunkku number.

Caps (§32): each level x result cell of the Kerroin column (ordinary lines and Kunkku-Keno
lines whose Kunkku missed) 2,500,000 €; each Kunkku cell 3,000,000 €; both split by stake;
then 15,000,000 € over all prizes of the draw, all scaled by the same factor.
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

GAME = "keno"
KUNKKU_MODES = ("drawn_in_picks", "designated")


@dataclass(frozen=True)
class KenoResult:
    numbers: frozenset[int]
    kunkku: int


@dataclass(frozen=True)
class KenoLine:
    numbers: frozenset[int]
    kunkku: bool = False  # played as Kunkku-Keno
    king_number: int | None = None  # only in kunkku_mode "designated"

    @property
    def level(self) -> int:
        return len(self.numbers)


def validate_result(
    numbers: Iterable[int], kunkku: int, params: Mapping[str, Any] | None = None
) -> KenoResult:
    fmt = params_for(GAME, params).sub("format")
    drawn = distinct_numbers(
        numbers,
        count=fmt.integer("drawn"),
        low=1,
        high=fmt.integer("max"),
        what="Keno result numbers",
        error=InvalidResult,
    )
    king = number_in_range(
        kunkku, low=1, high=fmt.integer("max"), what="Keno Kunkku number", error=InvalidResult
    )
    if king not in drawn:
        raise InvalidResult(f"Keno Kunkku number {king} is not among the {len(drawn)} drawn numbers")
    return KenoResult(drawn, king)


def validate_line(
    numbers: Iterable[int],
    kunkku: bool = False,
    king_number: int | None = None,
    params: Mapping[str, Any] | None = None,
) -> KenoLine:
    fmt = params_for(GAME, params).sub("format")
    low, high = fmt.int_range("levels")
    picks = distinct_numbers(
        numbers, count=None, low=1, high=fmt.integer("max"), what="Keno line", error=InvalidPicks
    )
    if not low <= len(picks) <= high:
        raise InvalidPicks(f"Keno line: a line picks {low}..{high} numbers (its level), got {len(picks)}")
    if king_number is not None and king_number not in picks:
        raise InvalidPicks(
            f"Keno line: designated king number {king_number} is not one of the line's numbers"
        )
    return KenoLine(picks, kunkku, king_number)


def cell(level: int, hits: int, king: bool, params: Params) -> LineClass:
    """The prize cell of a classified line: Kunkku column if ``king`` and it has a value."""
    row = params.mapping("multipliers").get(str(level), {}).get(str(hits))
    if not row:
        return LineClass(None, hits=hits)
    base, kun = row.get("base"), row.get("kunkku")
    if king and kun is not None:
        return LineClass(f"{level}-{hits}-kunkku", hits=hits, column="kunkku", multiplier=Decimal(kun))
    if base is not None:
        return LineClass(f"{level}-{hits}", hits=hits, column="base", multiplier=Decimal(base))
    return LineClass(None, hits=hits)


def classify(line: KenoLine, result: KenoResult, params: Mapping[str, Any] | None = None) -> LineClass:
    p = params_for(GAME, params)
    hits = len(line.numbers & result.numbers)
    mode = p.choice("kunkku_mode", KUNKKU_MODES)
    if mode == "drawn_in_picks":
        king = line.kunkku and result.kunkku in line.numbers
    else:
        king = line.kunkku and line.king_number == result.kunkku
    return cell(line.level, hits, king, p)


def classes(params: Params) -> list[ClassInfo]:
    out: list[ClassInfo] = []
    table = params.mapping("multipliers")
    for level in sorted(table, key=int, reverse=True):
        for hits in sorted(table[level], key=int, reverse=True):
            row = table[level][hits]
            if row.get("base") is not None:
                out.append(ClassInfo(f"{level}-{hits}", f"level {level}, {hits} correct"))
            if row.get("kunkku") is not None:
                out.append(ClassInfo(f"{level}-{hits}-kunkku", f"level {level}, {hits} correct, Kunkku"))
    return out


def cap_rule(params: Params) -> CapRule:
    caps = params.sub("caps")
    base_cap, kunkku_cap = caps.dec("base_cell"), caps.dec("kunkku_cell")
    return CapRule(
        caps={c.key: (kunkku_cap if c.key.endswith("-kunkku") else base_cap) for c in classes(params)},
        split=caps.choice("split", ("stake", "prize")),
        overall=caps.opt_dec("overall"),
    )


def result_from_json(d: Mapping[str, Any], params: Params) -> KenoResult:
    return validate_result(d.get("numbers", []), d.get("kunkku"), params=params.data)  # type: ignore[arg-type]


def bucket_from_json(d: Mapping[str, Any], index: int, params: Params, result: KenoResult | None) -> Bucket:
    field = f"lines[{index}]"
    basis = params.choice("stake_basis", ("base", "with_addon_fee"))
    stake = bucket_stake(d, field, basis)
    count = bucket_count(d, field)
    if "picks" in d:
        if result is None:
            raise RoundInputError("result", "lines given as picks need the draw result")
        try:
            line = validate_line(
                d["picks"], flag(d, "kunkku", field), d.get("king_number"), params=params.data
            )
        except InvalidPicks as exc:
            raise RoundInputError(f"{field}.picks", str(exc)) from None
        lc = classify(line, result, params.data)
    else:
        low, high = params.sub("format").int_range("levels")
        level = whole(d, "level", field, low, high)
        hits = whole(d, "hits", field, 0, level)
        king = flag(d, "king", field)
        if king and hits == 0:
            raise RoundInputError(
                f"{field}.king", "the Kunkku column needs the Kunkku number among the line's hits"
            )
        if king and "kunkku" in d and not flag(d, "kunkku", field):
            raise RoundInputError(
                f"{field}.king", "a line not played as Kunkku-Keno cannot use the Kunkku column"
            )
        lc = cell(level, hits, king, params)
    return Bucket(
        index=index,
        count=count,
        stake=stake,
        class_key=lc.class_key,
        multiplier=lc.multiplier or Decimal(0),
        cap_group=lc.class_key,
    )
