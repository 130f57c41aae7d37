"""Tähdenlento ("Shooting star") with the bonus draw: format (§20), classification and caps
(§37; digest §5.10).

Draw: 14 numbers from 1..49, and a bonus draw of one token out of two (number, symbol or
other; ``params.format.bonus_tokens``, null = any). The game type is the number of numbers the
player picks, 3..8. "+bonus" needs the bonus fee paid **and** the player's token equal to
the drawn one. Prize = stake x multiplier (base stake, A9).

Caps: the lines entitled to 8+bonus at most 1,200,000 €, every other prize at most 600,000 €,
split by stake. A "prize" is a cell, game type x result (A16, ``cap_scope = cell``);
``cap_scope = row`` caps one result row across game types (W16c shows why that is perverse).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..errors import InvalidPicks, InvalidResult, RoundInputError, RulesError
from ..inputs import Bucket
from ..multiplier import CapRule, ClassInfo
from ..params import Params
from ..validation import distinct_numbers
from .common import LineClass, bucket_count, bucket_stake, flag, params_for, whole

GAME = "tahdenlento"
Token = str | int


@dataclass(frozen=True)
class StarResult:
    numbers: frozenset[int]
    bonus: Token


@dataclass(frozen=True)
class StarLine:
    numbers: frozenset[int]
    bonus: Token | None = None  # set when the bonus-draw fee was paid

    @property
    def game_type(self) -> int:
        return len(self.numbers)


def _token(value: object, params: Params, what: str, error: type[RulesError]) -> Token:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise error(f"Tähdenlento {what} bonus token must be a number or a symbol, got {value!r}")
    tokens = params.sub("format").raw("bonus_tokens", None)
    if tokens is not None and value not in tokens:
        raise error(f"Tähdenlento {what} bonus token {value!r} is not one of {tokens}")
    return value


def validate_result(
    numbers: Iterable[int], bonus: Token, params: Mapping[str, Any] | None = None
) -> StarResult:
    p = params_for(GAME, params)
    fmt = p.sub("format")
    drawn = distinct_numbers(
        numbers,
        count=fmt.integer("drawn"),
        low=1,
        high=fmt.integer("max"),
        what="Tähdenlento result numbers",
        error=InvalidResult,
    )
    return StarResult(drawn, _token(bonus, p, "result", InvalidResult))


def validate_line(
    numbers: Iterable[int], bonus: Token | None = None, params: Mapping[str, Any] | None = None
) -> StarLine:
    p = params_for(GAME, params)
    fmt = p.sub("format")
    low, high = fmt.int_range("types")
    picks = distinct_numbers(
        numbers, count=None, low=1, high=fmt.integer("max"), what="Tähdenlento line", error=InvalidPicks
    )
    if not low <= len(picks) <= high:
        raise InvalidPicks(
            f"Tähdenlento line: a line picks {low}..{high} numbers (its game type), got {len(picks)}"
        )
    token = None if bonus is None else _token(bonus, p, "line", InvalidPicks)
    return StarLine(picks, token)


def result_label(hits: int, bonus: bool) -> str:
    return f"{hits}+bonus" if bonus else str(hits)


def cell(numbers: int, hits: int, bonus: bool, params: Params) -> LineClass:
    row = params.mapping("multipliers").get(str(numbers), {}).get(str(hits))
    if not row:
        return LineClass(None, hits=hits)
    if bonus and row.get("bonus") is not None:
        return LineClass(
            f"{numbers}-{hits}+bonus", hits=hits, column="bonus", multiplier=Decimal(row["bonus"])
        )
    if row.get("base") is not None:
        return LineClass(f"{numbers}-{hits}", hits=hits, column="base", multiplier=Decimal(row["base"]))
    return LineClass(None, hits=hits)


def classify(line: StarLine, result: StarResult, params: Mapping[str, Any] | None = None) -> LineClass:
    p = params_for(GAME, params)
    hits = len(line.numbers & result.numbers)
    return cell(line.game_type, hits, line.bonus is not None and line.bonus == result.bonus, p)


def classes(params: Params) -> list[ClassInfo]:
    out: list[ClassInfo] = []
    table = params.mapping("multipliers")
    for numbers in sorted(table, key=int, reverse=True):
        for hits in sorted(table[numbers], key=int, reverse=True):
            row = table[numbers][hits]
            if row.get("bonus") is not None:
                out.append(ClassInfo(f"{numbers}-{hits}+bonus", f"{numbers} numbers: {hits}+bonus"))
            if row.get("base") is not None:
                out.append(ClassInfo(f"{numbers}-{hits}", f"{numbers} numbers: {hits}"))
    return out


def cap_group(class_key: str, params: Params) -> str:
    """Cell scope: the class itself; row scope: the result label shared by all game types."""
    if params.choice("cap_scope", ("cell", "row")) == "cell":
        return class_key
    return "row " + class_key.split("-", 1)[1]


def cap_rule(params: Params) -> CapRule:
    caps = params.sub("caps")
    default = caps.dec("default")
    results = caps.mapping("results")
    amounts = {}
    for c in classes(params):
        label = c.key.split("-", 1)[1]
        amount = caps.sub("results").dec(label) if label in results else default
        amounts[cap_group(c.key, params)] = amount
    return CapRule(
        caps=amounts, split=caps.choice("split", ("stake", "prize")), overall=caps.opt_dec("overall")
    )


def result_from_json(d: Mapping[str, Any], params: Params) -> StarResult:
    return validate_result(d.get("numbers", []), d.get("bonus"), params=params.data)  # type: ignore[arg-type]


def bucket_from_json(d: Mapping[str, Any], index: int, params: Params, result: StarResult | None) -> Bucket:
    field = f"lines[{index}]"
    stake = bucket_stake(d, field, params.choice("stake_basis", ("base", "with_addon_fee")))
    count = bucket_count(d, field)
    if "picks" in d:
        if result is None:
            raise RoundInputError("result", "lines given as picks need the draw result")
        try:
            line = validate_line(d["picks"], d.get("bonus_token"), params=params.data)
        except InvalidPicks as exc:
            raise RoundInputError(f"{field}.picks", str(exc)) from None
        lc = classify(line, result, params.data)
    else:
        low, high = params.sub("format").int_range("types")
        numbers = whole(d, "numbers", field, low, high)
        lc = cell(numbers, whole(d, "hits", field, 0, numbers), flag(d, "bonus", field), params)
    group = cap_group(lc.class_key, params) if lc.class_key else None
    return Bucket(
        index=index,
        count=count,
        stake=stake,
        class_key=lc.class_key,
        multiplier=lc.multiplier or Decimal(0),
        cap_group=group,
    )
