"""Tähdenlento + bonus draw in the draw pipeline (§20, §37; digest §5.10).

Line: 3..8 picks of 1..49 in `main_mask`, the game type (their count) in `flags`; a line with the
bonus fee has FLAG_ADDON, its bonus token's position in the token list (1 or 2) in `plus` and the
fee in `addon_cents`. Result: 14 numbers and the drawn bonus token.

The tokens are the rule version's ``format.bonus_tokens``; when it lists none (the default), the
two tokens of §20's "one out of two" are the numbers 1 and 2. A token is matched by its text, so
a sales file's "1" and the API's 1 are the same token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..formats import ParsedResult
from ..matching import popcount_sql
from ..rules import games
from ..rules.bitmask import mask_to_picks, picks_to_mask
from ..rules.errors import InvalidPicks, InvalidResult, RulesError
from ..rules.params import Params
from .base import (
    FLAG_ADDON,
    LEVEL_BITS,
    PATH_B_ROUNDING_MODE,
    Column,
    GameCodec,
    LineValues,
    bit_tests,
    empty,
    mapping,
    numbers,
    required,
    table_cells,
)
from .buckets import BucketSettlement
from .spec import DrawGameSpec

# Digest §5.10 (§37), written out by hand for path B: game type -> hits -> multiplier without the
# bonus; with the bonus it is twice that.
TABLE: dict[int, dict[int, int]] = {
    8: {8: 30_000, 7: 300, 6: 30, 5: 3, 4: 1, 0: 1},
    7: {7: 5_000, 6: 100, 5: 7, 4: 2, 0: 1},
    6: {6: 1_000, 5: 15, 4: 2, 3: 1, 0: 1},
    5: {5: 200, 4: 12, 3: 2},
    4: {4: 35, 3: 4, 2: 1},
    3: {3: 16, 2: 2},
}
BONUS_FACTOR = 2


def tokens(params: Mapping[str, Any]) -> list[Any]:
    configured = Params(params).sub("format").raw("bonus_tokens", None)
    return list(configured) if configured is not None else [1, 2]


def token(params: Mapping[str, Any], value: Any, what: str, error: type[RulesError]) -> tuple[Any, int]:
    """(the token as the rules list it, its position 1..n)."""
    text = str(value).strip()
    choices = tokens(params)
    for position, candidate in enumerate(choices, start=1):
        if str(candidate) == text:
            return candidate, position
    raise error(f"Tähdenlento {what} bonus token {text!r} is not one of {', '.join(str(c) for c in choices)}")


class Tahdenlento(GameCodec):
    code = "tahdenlento"
    name = "Tähdenlento"
    kind = "multiplier"
    addon_name = "bonus"
    result_fields = ("numbers", "bonus")
    line_fields = ("numbers", "bonus")
    csv_columns = (*(Column(f"n{i}") for i in range(1, 9)), Column("bonus", numeric=False))

    def parse_result(self, params, data) -> ParsedResult:
        drawn = numbers(required(data, "numbers", "numbers", self.name, InvalidResult), "Tähdenlento result numbers",
                        InvalidResult)
        bonus, position = token(params, required(data, "bonus", "bonus token", self.name, InvalidResult), "result",
                                InvalidResult)
        r = games.tahdenlento.validate_result(drawn, bonus, params)
        return ParsedResult({"numbers": sorted(r.numbers), "bonus": r.bonus}, picks_to_mask(r.numbers), plus=position)

    def result_text(self, numbers_: Mapping[str, Any]) -> str:
        return " ".join(str(n) for n in numbers_.get("numbers", [])) + f" · bonus {numbers_.get('bonus')}"

    def parse_line(self, params, data) -> LineValues:
        picks = numbers(required(data, "numbers", "numbers", self.name, InvalidPicks), "Tähdenlento line")
        bonus = position = None
        if not empty(data.get("bonus")):
            bonus, position = token(params, data["bonus"], "line", InvalidPicks)
        line = games.tahdenlento.validate_line(picks, bonus, params)
        flags = line.game_type | (FLAG_ADDON if position is not None else 0)
        return LineValues(picks_to_mask(line.numbers), 0, position, flags)

    def csv_line(self, values):
        return {"numbers": [values[f"n{i}"] for i in range(1, 9) if values.get(f"n{i}", "").strip()],
                "bonus": values.get("bonus", "")}

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None):
        out: dict[str, Any] = {"numbers": mask_to_picks(int(main_mask)), "bonus": None}
        if plus is not None:
            choices = tokens(params) if params is not None else [1, 2]
            out["bonus"] = choices[plus - 1] if 0 < plus <= len(choices) else plus
        return out

    def line_text(self, main_mask, extra_mask, plus, flags):
        text = " ".join(str(n) for n in mask_to_picks(int(main_mask)))
        return text + (f" · bonus token {plus}" if plus is not None else "")

    def drawn(self, params, numbers_):
        _, position = token(params, numbers_["bonus"], "result", InvalidResult)
        return {"mask": picks_to_mask(numbers_["numbers"]), "numbers": list(numbers_["numbers"]), "bonus": position}

    def path_a_features(self, params, drawn, vendor):
        return [("gt", f"flags & {LEVEL_BITS}"),
                ("h", popcount_sql(f"main_mask & {drawn['mask']}", vendor)),
                ("bn", f"CASE WHEN (flags & {FLAG_ADDON}) <> 0 AND plus = {drawn['bonus']} THEN 1 ELSE 0 END")]

    def bucket(self, params, f):
        return {"numbers": int(f["gt"]), "hits": int(f["h"]), "bonus": bool(f["bn"])}

    def boosted(self, params, bucket, class_key):
        return class_key.endswith("+bonus")

    def path_b_features(self, params, drawn):
        hits = bit_tests("main_mask", [n - 1 for n in drawn["numbers"]])
        return (f"{hits} AS h, flags % 16 AS gt, "
                f"CASE WHEN (flags / 16) % 2 = 1 AND plus = {drawn['bonus']} THEN 1 ELSE 0 END AS bn")

    def path_b_cell(self, params, drawn):
        bonus, base = [], []
        for gt, rows in TABLE.items():
            for h in rows:
                bonus.append(f"WHEN gt = {gt} AND h = {h} AND bn = 1 THEN {_cell(gt, h, True)}")
                base.append(f"WHEN gt = {gt} AND h = {h} THEN {_cell(gt, h, False)}")
        return "CASE " + " ".join(bonus + base) + " END"

    def check_cells(self):
        cells: dict[str, Any] = {}
        for gt, rows in TABLE.items():
            for h, m in rows.items():
                cells[f"multipliers.{gt}.{h}.base"] = m
                cells[f"multipliers.{gt}.{h}.bonus"] = m * BONUS_FACTOR
        cells["format.types"] = [min(TABLE), max(TABLE)]
        cells["rounding.mode"] = PATH_B_ROUNDING_MODE
        return cells

    def ruleset_check_cells(self, params):
        cells = table_cells("multipliers", params.get("multipliers"), 2, ("base", "bonus"))
        cells["format.types"] = mapping(params.get("format")).get("types")
        cells["rounding.mode"] = mapping(params.get("rounding")).get("mode")
        return cells

    def path_b_multipliers(self):
        out = {}
        for gt, rows in TABLE.items():
            for h, m in rows.items():
                out[_cell(gt, h, True)] = m * BONUS_FACTOR
                out[_cell(gt, h, False)] = m
        return out

    def class_no(self, class_key):
        numbers_, rest = class_key.split("-", 1)
        bonus = rest.endswith("+bonus")
        return int(numbers_) * 1000 + int(rest.removesuffix("+bonus")) * 10 + int(bonus)

    def class_key(self, class_no):
        gt, rest = divmod(int(class_no), 1000)
        hits, bonus = divmod(rest, 10)
        return f"{gt}-{hits}" + ("+bonus" if bonus else "")


def _cell(gt: int, hits: int, bonus: bool) -> int:
    return (gt * 1000 + hits * 10 + int(bonus)) * 2 + int(bonus)


CODEC = Tahdenlento()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Tähdenlento"), codec=CODEC, settlement=BucketSettlement(CODEC),
                    rules=games.tahdenlento)
