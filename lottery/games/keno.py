"""Keno + Kunkku in the draw pipeline (§15, §32; digest §5.5).

Line: the picks (2..11 numbers of 1..70; the level is their count). Numbers 1..63 are bits of
`main_mask`, 64..70 bits of `extra_mask`; `flags` = level | FLAG_ADDON for a Kunkku-Keno line;
`plus` = the designated king number (only under ``kunkku_mode = designated``); `addon_cents` = the
Kunkku fee. Result: 20 numbers and the Kunkku number among them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..formats import ParsedResult
from ..matching import popcount_sql
from ..rules import games
from ..rules.errors import InvalidPicks, InvalidResult
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
    flag,
    join_picks,
    mapping,
    numbers,
    required,
    split_picks,
    table_cells,
    whole,
)
from .buckets import BucketSettlement
from .spec import DrawGameSpec

# Digest §5.5 (§32), written out by hand for path B: level -> hits -> (Kerroin, Kunkku); None = "—".
TABLE: dict[int, dict[int, tuple[int | None, int | None]]] = {
    11: {11: (1_000_000, 3_000_000), 10: (25_000, 50_000), 9: (500, 1_200), 8: (50, 100), 7: (6, 20),
         6: (2, 4), 5: (1, 3), 4: (None, 2), 3: (None, 2), 2: (None, 2), 1: (None, 5), 0: (1, None)},
    10: {10: (200_000, 500_000), 9: (5_000, 10_000), 8: (200, 500), 7: (20, 50), 6: (4, 10), 5: (1, 4),
         4: (None, 2), 3: (None, 2), 2: (None, 2), 1: (None, 4), 0: (1, None)},
    9: {9: (50_000, 150_000), 8: (1_200, 3_000), 7: (50, 100), 6: (10, 20), 5: (2, 6), 4: (None, 2),
        3: (None, 2), 2: (None, 2), 1: (None, 4)},
    8: {8: (10_000, 30_000), 7: (240, 800), 6: (20, 60), 5: (3, 6), 4: (1, 4), 3: (None, 2), 2: (None, 2),
        1: (None, 6)},
    7: {7: (2_400, 6_000), 6: (100, 300), 5: (10, 30), 4: (1, 6), 3: (None, 2), 2: (None, 2), 1: (None, 6)},
    6: {6: (420, 2_000), 5: (20, 90), 4: (3, 10), 3: (1, 4), 2: (None, 2), 1: (None, 6)},
    5: {5: (200, 600), 4: (9, 34), 3: (1, 6), 2: (None, 4), 1: (None, 6)},
    4: {4: (32, 200), 3: (2, 14), 2: (1, 6), 1: (None, 6)},
    3: {3: (18, 100), 2: (1, 10), 1: (None, 6)},
    2: {2: (7, 50), 1: (None, 10)},
}


def _mode(params: Mapping[str, Any]) -> str:
    return Params(params).choice("kunkku_mode", games.keno.KUNKKU_MODES)


def _bit(n: int) -> tuple[str, int]:
    """(column, bit) of number n in a stored line."""
    return ("main_mask", n - 1) if n <= 63 else ("extra_mask", n - 64)


class Keno(GameCodec):
    code = "keno"
    name = "Keno"
    kind = "multiplier"
    addon_name = "Kunkku"
    result_fields = ("numbers", "kunkku")
    line_fields = ("numbers", "kunkku", "king_number")
    csv_columns = (
        *(Column(f"n{i}") for i in range(1, 12)),
        Column("kunkku"),
        Column("king"),
    )

    # -- results and lines ----------------------------------------------------------------------
    def parse_result(self, params, data) -> ParsedResult:
        drawn = numbers(required(data, "numbers", "numbers", "Keno", InvalidResult), "Keno result numbers",
                        InvalidResult)
        king = whole(required(data, "kunkku", "Kunkku number", "Keno", InvalidResult), "Keno Kunkku number",
                     InvalidResult)
        r = games.keno.validate_result(drawn, king, params)
        low, high = split_picks(sorted(r.numbers))
        return ParsedResult({"numbers": sorted(r.numbers), "kunkku": r.kunkku}, low, 0, high, r.kunkku)

    def result_text(self, numbers_: Mapping[str, Any]) -> str:
        return " ".join(str(n) for n in numbers_.get("numbers", [])) + f" · Kunkku {numbers_.get('kunkku')}"

    def parse_line(self, params, data) -> LineValues:
        picks = numbers(required(data, "numbers", "numbers", "Keno", InvalidPicks), "Keno line")
        kunkku = flag(data.get("kunkku"), "Keno line kunkku")
        king = None if empty(data.get("king_number")) else whole(data.get("king_number"), "Keno king number")
        designated = _mode(params) == "designated"
        if king is not None and not designated:
            raise InvalidPicks("Keno line: a king number is designated only when the rules say so "
                               "(kunkku_mode designated); leave it empty")
        if designated and kunkku and king is None:
            raise InvalidPicks("Keno line: a Kunkku-Keno line designates its king number")
        if king is not None and not kunkku:
            raise InvalidPicks("Keno line: only a Kunkku-Keno line has a king number")
        line = games.keno.validate_line(picks, kunkku, king, params)
        main, extra = split_picks(sorted(line.numbers))
        return LineValues(main, extra, king, line.level | (FLAG_ADDON if kunkku else 0))

    def csv_line(self, values):
        return {"numbers": [values[f"n{i}"] for i in range(1, 12) if values.get(f"n{i}", "").strip()],
                "kunkku": values.get("kunkku", ""), "king_number": values.get("king", "")}

    def demo_picks(self, rng, params, addon):
        row: dict[str, Any] = {f"n{i}": n for i, n in
                               enumerate(sorted(rng.sample(range(1, 71), rng.randint(2, 11))), start=1)}
        row["kunkku"] = 1 if addon else ""
        return row

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None):
        out: dict[str, Any] = {"numbers": join_picks(main_mask, extra_mask), "kunkku": bool(flags & FLAG_ADDON)}
        if plus is not None:
            out["king_number"] = plus
        return out

    def line_text(self, main_mask, extra_mask, plus, flags):
        text = " ".join(str(n) for n in join_picks(main_mask, extra_mask))
        if flags & FLAG_ADDON:
            text += " · Kunkku" + (f" {plus}" if plus is not None else "")
        return text

    # -- settlement -------------------------------------------------------------------------------
    def drawn(self, params, numbers_):
        return {"numbers": list(numbers_["numbers"]), "kunkku": int(numbers_["kunkku"])}

    def path_a_features(self, params, drawn, vendor):
        low, high = split_picks(drawn["numbers"])
        column, bit = _bit(drawn["kunkku"])
        if _mode(params) == "drawn_in_picks":
            king = f"({column} & {1 << bit}) <> 0"
        else:
            king = f"plus = {drawn['kunkku']}"
        return [
            ("lvl", f"flags & {LEVEL_BITS}"),
            ("h", f"{popcount_sql(f'main_mask & {low}', vendor)} + {popcount_sql(f'extra_mask & {high}', vendor)}"),
            ("kp", f"CASE WHEN (flags & {FLAG_ADDON}) <> 0 THEN 1 ELSE 0 END"),
            ("kg", f"CASE WHEN (flags & {FLAG_ADDON}) <> 0 AND {king} THEN 1 ELSE 0 END"),
        ]

    def bucket(self, params, f):
        return {"level": int(f["lvl"]), "hits": int(f["h"]), "king": bool(f["kg"]), "kunkku": bool(f["kp"])}

    def boosted(self, params, bucket, class_key):
        return class_key.endswith("-kunkku")

    def path_b_features(self, params, drawn):
        picks = drawn["numbers"]
        hits = " + ".join([bit_tests("main_mask", [n - 1 for n in picks if n <= 63]),
                           bit_tests("extra_mask", [n - 64 for n in picks if n > 63])])
        column, bit = _bit(drawn["kunkku"])
        king = (f"(({column} >> {bit}) & 1) = 1" if _mode(params) == "drawn_in_picks"
                else f"plus = {drawn['kunkku']}")
        return (f"{hits} AS h, flags % 16 AS lvl, "
                f"CASE WHEN (flags / 16) % 2 = 1 AND {king} THEN 1 ELSE 0 END AS kg")

    def path_b_cell(self, params, drawn):
        kunkku, base = [], []
        for level, rows in TABLE.items():
            for hits, (kerroin, king) in rows.items():
                if king is not None:
                    kunkku.append(f"WHEN lvl = {level} AND h = {hits} AND kg = 1 THEN {_cell(level, hits, True)}")
                if kerroin is not None:
                    base.append(f"WHEN lvl = {level} AND h = {hits} THEN {_cell(level, hits, False)}")
        return "CASE " + " ".join(kunkku + base) + " END"

    def path_b_multipliers(self):
        out = {}
        for level, rows in TABLE.items():
            for hits, (kerroin, king) in rows.items():
                if king is not None:
                    out[_cell(level, hits, True)] = king
                if kerroin is not None:
                    out[_cell(level, hits, False)] = kerroin
        return out

    def check_cells(self):
        cells: dict[str, Any] = {}
        for level, rows in TABLE.items():
            for hits, (kerroin, king) in rows.items():
                cells[f"multipliers.{level}.{hits}.base"] = kerroin
                cells[f"multipliers.{level}.{hits}.kunkku"] = king
        cells["format.levels"] = [min(TABLE), max(TABLE)]
        cells["rounding.mode"] = PATH_B_ROUNDING_MODE
        return cells

    def ruleset_check_cells(self, params):
        cells = table_cells("multipliers", params.get("multipliers"), 2, ("base", "kunkku"))
        cells["format.levels"] = mapping(params.get("format")).get("levels")
        cells["rounding.mode"] = mapping(params.get("rounding")).get("mode")
        return cells

    def class_no(self, class_key):
        level, hits, *king = class_key.split("-")
        return int(level) * 1000 + int(hits) * 10 + (1 if king else 0)

    def class_key(self, class_no):
        level, rest = divmod(int(class_no), 1000)
        hits, king = divmod(rest, 10)
        return f"{level}-{hits}" + ("-kunkku" if king else "")


def _cell(level: int, hits: int, king: bool) -> int:
    return (level * 1000 + hits * 10 + int(king)) * 2 + int(king)


CODEC = Keno()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Keno"), codec=CODEC, settlement=BucketSettlement(CODEC),
                    rules=games.keno)
