"""Synttärit in the draw pipeline (§17, §34; digest §5.7).

Line and result: a date and a letter, packed in `main_mask` as
``day | month << 5 | year << 9 | code point of the letter << 23`` (day 5 bits, month 4, year 14;
the letter as the engine normalises it, upper case). No add-on. Path A reads the components with
bit operations, path B with division and remainder.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..formats import ParsedResult
from ..rules import games
from ..rules.errors import InvalidPicks, InvalidResult, RulesError
from ..rules.params import Params
from .base import PATH_B_ROUNDING_MODE, Column, GameCodec, LineValues, class_cells, mapping, required
from .buckets import BucketSettlement
from .spec import DrawGameSpec

# Digest §5.7 (§34), written out by hand for path B: exact set of correct components -> (class, Kerroin).
TABLE: dict[str, tuple[int, int]] = {
    "DMYL": (1, 150_000), "DMY": (2, 5_000), "MYL": (3, 500), "DML": (4, 250),
    "MY": (5, 50), "DM": (6, 15), "ML": (7, 10), "M": (8, 2),
}
DAY, MONTH, YEAR = 1, 32, 512  # places of the packed value
LETTER = 8_388_608  # 2**23


def pack(date: dt.date, letter: str, error: type[RulesError]) -> int:
    if len(letter) != 1:
        raise error(f"Synttärit letter {letter!r} is not one character once in upper case")
    return date.day * DAY + date.month * MONTH + date.year * YEAR + ord(letter) * LETTER


def unpack(value: int) -> tuple[dt.date, str]:
    value = int(value)
    return dt.date(value // YEAR % 16384, value // MONTH % 16, value % 32), chr(value // LETTER)


def _stripped(value: Any) -> Any:
    """A date as text ("1990-05-17", from a file or the API) or a date (from a form)."""
    return value.strip() if isinstance(value, str) else value


class Synttarit(GameCodec):
    code = "synttarit"
    name = "Synttärit"
    kind = "multiplier"
    result_fields = ("date", "letter")
    line_fields = ("date", "letter")
    csv_columns = (Column("date", numeric=False), Column("letter", numeric=False))

    def parse_result(self, params, data) -> ParsedResult:
        date = _stripped(required(data, "date", "date", self.name, InvalidResult))
        letter = required(data, "letter", "letter", self.name, InvalidResult)
        r = games.synttarit.validate_result(date, letter, params)
        return ParsedResult({"date": r.date.isoformat(), "letter": r.letter}, pack(r.date, r.letter, InvalidResult))

    def result_text(self, numbers_: Mapping[str, Any]) -> str:
        return f"{numbers_.get('date')} {numbers_.get('letter')}"

    def parse_line(self, params, data) -> LineValues:
        date = _stripped(required(data, "date", "date", self.name, InvalidPicks))
        letter = required(data, "letter", "letter", self.name, InvalidPicks)
        line = games.synttarit.validate_line(date, letter, params)
        return LineValues(pack(line.date, line.letter, InvalidPicks))

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None):
        date, letter = unpack(main_mask)
        return {"date": date.isoformat(), "letter": letter}

    def line_text(self, main_mask, extra_mask, plus, flags):
        date, letter = unpack(main_mask)
        return f"{date.isoformat()} {letter}"

    def drawn(self, params, numbers_):
        date = dt.date.fromisoformat(numbers_["date"])
        return {"day": date.day, "month": date.month, "year": date.year, "letter": ord(numbers_["letter"])}

    def path_a_features(self, params, drawn, vendor):
        return [("d", f"CASE WHEN (main_mask & 31) = {drawn['day']} THEN 1 ELSE 0 END"),
                ("m", f"CASE WHEN ((main_mask >> 5) & 15) = {drawn['month']} THEN 1 ELSE 0 END"),
                ("y", f"CASE WHEN ((main_mask >> 9) & 16383) = {drawn['year']} THEN 1 ELSE 0 END"),
                ("l", f"CASE WHEN (main_mask >> 23) = {drawn['letter']} THEN 1 ELSE 0 END")]

    def bucket(self, params, f):
        match = "".join(c for c, key in zip("DMYL", "dmyl") if f[key])
        if not match:
            # The engine's JSON form has no "nothing correct"; its own classification must agree
            # that such a line wins nothing.
            if games.synttarit.cell("", Params(params)).class_key is not None:
                raise RulesError("Synttärit: the rules pay a line with nothing correct; the pipeline cannot")
            return None
        return {"match": match}

    def path_b_features(self, params, drawn):
        def eq(expr: str, value: int) -> str:
            return f"CASE WHEN {expr} = {value} THEN 1 ELSE 0 END"

        return (f"{eq('main_mask % 32', drawn['day'])} AS d, {eq('(main_mask / 32) % 16', drawn['month'])} AS m, "
                f"{eq('(main_mask / 512) % 16384', drawn['year'])} AS y, "
                f"{eq('main_mask / 8388608', drawn['letter'])} AS l")

    def path_b_cell(self, params, drawn):
        whens = []
        for match, (class_no, _multiplier) in TABLE.items():
            cond = " AND ".join(f"{c.lower()} = {1 if c in match else 0}" for c in "DMYL")
            whens.append(f"WHEN {cond} THEN {class_no * 2}")
        return "CASE " + " ".join(whens) + " END"

    def path_b_multipliers(self):
        return {class_no * 2: m for class_no, m in TABLE.values()}

    def check_cells(self):
        cells: dict[str, Any] = {}
        for match, (class_no, multiplier) in TABLE.items():
            cells[f"classes.{class_no}.match"] = match
            cells[f"classes.{class_no}.multiplier"] = multiplier
        cells["rounding.mode"] = PATH_B_ROUNDING_MODE
        return cells

    def ruleset_check_cells(self, params):
        cells = class_cells(params, ("match", "multiplier"))
        cells["rounding.mode"] = mapping(params.get("rounding")).get("mode")
        return cells

    def path_b_candidates(self, params, drawn, vendor):
        return f"(main_mask / 32) % 16 = {drawn['month']}"  # every winning set has the month


CODEC = Synttarit()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Synttärit"), codec=CODEC, settlement=BucketSettlement(CODEC),
                    rules=games.synttarit)
