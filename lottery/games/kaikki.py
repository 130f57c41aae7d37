"""Kaikki tai ei mitään + Onnenapila in the draw pipeline (§16, §33; digest §5.6).

Line: 12 picks of 1..24 in `main_mask`; an Onnenapila line has its lucky number (1..4) in `plus`,
FLAG_ADDON in `flags` and the Onnenapila fee in `addon_cents`. Result: 12 numbers and the lucky number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..formats import ParsedResult
from ..matching import popcount_sql
from ..rules import games
from ..rules.bitmask import mask_to_picks, picks_to_mask
from ..rules.errors import InvalidPicks, InvalidResult
from ..rules.params import Params
from .base import (
    FLAG_ADDON,
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
    whole,
)
from .buckets import BucketSettlement
from .spec import DrawGameSpec

# Digest §5.6 (§33), written out by hand for path B: hits -> (Kerroin, Onnenapila); None = "—".
TABLE: dict[int, tuple[int | None, int | None]] = {
    12: (125_000, 500_000), 11: (250, 1_000), 10: (25, 100), 9: (5, 20), 8: (1, 4), 7: (None, 1), 6: (None, 1),
    5: (None, 1), 4: (1, 4), 3: (5, 20), 2: (25, 100), 1: (250, 1_000), 0: (125_000, 500_000),
}
NAME = "Kaikki tai ei mitään"


class Kaikki(GameCodec):
    code = "kaikki_tai_ei_mitaan"
    name = NAME
    kind = "multiplier"
    addon_name = "Onnenapila"
    result_fields = ("numbers", "lucky")
    line_fields = ("numbers", "lucky")
    csv_columns = (*(Column(f"n{i}") for i in range(1, 13)), Column("lucky"))

    def parse_result(self, params, data) -> ParsedResult:
        drawn = numbers(required(data, "numbers", "numbers", NAME, InvalidResult), f"{NAME} result numbers",
                        InvalidResult)
        lucky = whole(required(data, "lucky", "Onnenapila lucky number", NAME, InvalidResult),
                      "Onnenapila lucky number", InvalidResult)
        r = games.kaikki_tai_ei_mitaan.validate_result(drawn, lucky, params)
        return ParsedResult({"numbers": sorted(r.numbers), "lucky": r.lucky}, picks_to_mask(r.numbers), plus=r.lucky)

    def result_text(self, numbers_: Mapping[str, Any]) -> str:
        return " ".join(str(n) for n in numbers_.get("numbers", [])) + f" · Onnenapila {numbers_.get('lucky')}"

    def parse_line(self, params, data) -> LineValues:
        picks = numbers(required(data, "numbers", "numbers", NAME, InvalidPicks), f"{NAME} line")
        lucky = None if empty(data.get("lucky")) else whole(data.get("lucky"), "Onnenapila lucky number")
        line = games.kaikki_tai_ei_mitaan.validate_line(picks, lucky, params)
        return LineValues(picks_to_mask(line.numbers), 0, line.lucky, FLAG_ADDON if line.lucky is not None else 0)

    def csv_line(self, values):
        return {"numbers": [values[f"n{i}"] for i in range(1, 13) if values.get(f"n{i}", "").strip()],
                "lucky": values.get("lucky", "")}

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None):
        return {"numbers": mask_to_picks(int(main_mask)), "lucky": plus}

    def line_text(self, main_mask, extra_mask, plus, flags):
        text = " ".join(str(n) for n in mask_to_picks(int(main_mask)))
        return text + (f" · Onnenapila {plus}" if plus is not None else "")

    def drawn(self, params, numbers_):
        return {"mask": picks_to_mask(numbers_["numbers"]), "numbers": list(numbers_["numbers"]),
                "lucky": int(numbers_["lucky"])}

    def path_a_features(self, params, drawn, vendor):
        return [("h", popcount_sql(f"main_mask & {drawn['mask']}", vendor)),
                ("cl", f"CASE WHEN (flags & {FLAG_ADDON}) <> 0 AND plus = {drawn['lucky']} THEN 1 ELSE 0 END")]

    def bucket(self, params, f):
        return {"hits": int(f["h"]), "clover": bool(f["cl"])}

    def boosted(self, params, bucket, class_key):
        cell = games.kaikki_tai_ei_mitaan.cell(int(bucket["hits"]), bool(bucket["clover"]), Params(params))
        return cell.column == "clover"

    def path_b_features(self, params, drawn):
        hits = bit_tests("main_mask", [n - 1 for n in drawn["numbers"]])
        return f"{hits} AS h, CASE WHEN (flags / 16) % 2 = 1 AND plus = {drawn['lucky']} THEN 1 ELSE 0 END AS cl"

    def path_b_cell(self, params, drawn):
        clover = [f"WHEN h = {h} AND cl = 1 THEN {h * 2 + 1}" for h, (_, c) in TABLE.items() if c is not None]
        base = [f"WHEN h = {h} THEN {h * 2}" for h, (b, _) in TABLE.items() if b is not None]
        return "CASE " + " ".join(clover + base) + " END"

    def check_cells(self):
        cells: dict[str, Any] = {}
        for h, (base, clover) in TABLE.items():
            cells[f"multipliers.{h}.base"] = base
            cells[f"multipliers.{h}.clover"] = clover
        cells["format.numbers"] = max(TABLE)
        cells["rounding.mode"] = PATH_B_ROUNDING_MODE
        return cells

    def ruleset_check_cells(self, params):
        cells = table_cells("multipliers", params.get("multipliers"), 1, ("base", "clover"))
        cells["format.numbers"] = mapping(params.get("format")).get("numbers")
        cells["rounding.mode"] = mapping(params.get("rounding")).get("mode")
        return cells

    def path_b_multipliers(self):
        out = {}
        for h, (base, clover) in TABLE.items():
            if clover is not None:
                out[h * 2 + 1] = clover
            if base is not None:
                out[h * 2] = base
        return out


CODEC = Kaikki()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Kaikki tai ei mitään"), codec=CODEC, settlement=BucketSettlement(CODEC),
                    rules=games.kaikki_tai_ei_mitaan)
