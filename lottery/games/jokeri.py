"""Jokeri + Tuplaus in the draw pipeline (§18, §35; digest §5.8). An add-on game (§2).

Line: 7 digits, digit i (1-based position) in bits 4(i-1)..4i-1 of `main_mask`; a Tuplaus line
has FLAG_ADDON, ``position * 10 + digit`` in `plus` and the Tuplaus fee in `addon_cents`. Result:
the 7 drawn digits. "Digits correct in the correct position" follows the rule version's
``matcher`` (A14): path A lets the engine classify every pattern of equal positions, path B has
both readings written out in SQL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..formats import ParsedResult
from ..rules import games
from ..rules.errors import InvalidPicks, InvalidResult
from ..rules.params import Params
from .base import (
    FLAG_ADDON,
    Column,
    GameCodec,
    LineValues,
    class_cells,
    empty,
    in_list,
    mapping,
    required,
    whole,
)
from .buckets import BucketSettlement
from .spec import DrawGameSpec

# Digest §5.8 (§35), written out by hand for path B: digits correct -> class.
CLASSES: dict[int, int] = {7: 1, 6: 2, 5: 3, 4: 4, 3: 5, 2: 6}
DIGITS = 7


def pack(digits: str) -> int:
    return sum(int(d) << (4 * i) for i, d in enumerate(digits))


def unpack(value: int) -> str:
    return "".join(str((int(value) >> (4 * i)) & 15) for i in range(DIGITS))


def _digits(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class Jokeri(GameCodec):
    code = "jokeri"
    name = "Jokeri"
    kind = "class"
    addon_name = "Tuplaus"
    result_fields = ("digits",)
    line_fields = ("digits", "tuplaus")
    csv_columns = (Column("digits", numeric=False), Column("tuplaus_position"), Column("tuplaus_digit"))

    def parse_result(self, params, data) -> ParsedResult:
        digits = games.jokeri.validate_result(_digits(required(data, "digits", "digits", "Jokeri", InvalidResult)),
                                              params)
        return ParsedResult({"digits": digits}, pack(digits))

    def result_text(self, numbers_: Mapping[str, Any]) -> str:
        return str(numbers_.get("digits", ""))

    def parse_line(self, params, data) -> LineValues:
        digits = _digits(required(data, "digits", "digits", "Jokeri", InvalidPicks))
        tuplaus = data.get("tuplaus")
        pair = None
        if not empty(tuplaus):
            if not isinstance(tuplaus, Mapping):
                raise InvalidPicks('Jokeri line: tuplaus is {"position": 1..7, "digit": 0..9}')
            pair = (whole(tuplaus.get("position"), "Jokeri Tuplaus position"),
                    whole(tuplaus.get("digit"), "Jokeri Tuplaus digit"))
        line = games.jokeri.validate_line(digits, pair, params)
        if line.tuplaus is None:
            return LineValues(pack(line.digits))
        return LineValues(pack(line.digits), 0, line.tuplaus.position * 10 + line.tuplaus.digit, FLAG_ADDON)

    def demo_picks(self, rng, params, addon):
        row: dict[str, Any] = {"digits": "".join(str(rng.randint(0, 9)) for _ in range(DIGITS))}
        if addon:
            row["tuplaus_position"], row["tuplaus_digit"] = rng.randint(1, DIGITS), rng.randint(0, 9)
        return row

    def csv_line(self, values):
        position, digit = values.get("tuplaus_position", "").strip(), values.get("tuplaus_digit", "").strip()
        out: dict[str, Any] = {"digits": values.get("digits", "")}
        if position or digit:
            if not (position and digit):
                raise InvalidPicks("Jokeri line: a Tuplaus line gives both tuplaus_position and tuplaus_digit")
            out["tuplaus"] = {"position": position, "digit": digit}
        return out

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None):
        out: dict[str, Any] = {"digits": unpack(main_mask), "tuplaus": None}
        if plus is not None:
            out["tuplaus"] = {"position": plus // 10, "digit": plus % 10}
        return out

    def line_text(self, main_mask, extra_mask, plus, flags):
        text = unpack(main_mask)
        return text + (f" · Tuplaus {plus % 10} at {plus // 10}" if plus is not None else "")

    def drawn(self, params, numbers_):
        return {"digits": str(numbers_["digits"])}

    def path_a_features(self, params, drawn, vendor):
        r = [int(d) for d in drawn["digits"]]
        equal = " + ".join(f"CASE WHEN ((main_mask >> {4 * i}) & 15) = {d} THEN {1 << i} ELSE 0 END"
                           for i, d in enumerate(r))
        right = in_list([(i + 1) * 10 + d for i, d in enumerate(r)])
        return [("eq", equal),
                ("t", f"CASE WHEN plus IS NULL THEN 0 WHEN plus IN ({right}) THEN 2 ELSE 1 END")]

    def engine_class(self, params, drawn, f):
        """A line equal to the result exactly where the pattern says, with a Tuplaus pick that is right
        or wrong as the group's lines: the engine's classify says its class and whether it doubles."""
        result = drawn["digits"]
        eq = int(f["eq"])
        digits = "".join(d if eq & (1 << i) else str((int(d) + 1) % 10) for i, d in enumerate(result))
        t = int(f["t"])
        tuplaus = None
        if t:
            tuplaus = (1, int(result[0]) if t == 2 else (int(result[0]) + 1) % 10)
        line = games.jokeri.validate_line(digits, tuplaus, params)
        lc = games.jokeri.classify(line, result, params)
        tuplaus_rules = Params(params).opt_sub("tuplaus")
        doubled_classes = tuplaus_rules.str_list("classes") if tuplaus_rules is not None else []
        return lc.class_key, bool(lc.doubled and lc.class_key in doubled_classes)

    def path_b_features(self, params, drawn):
        r = [int(d) for d in drawn["digits"]]
        equal = ", ".join(f"CASE WHEN (main_mask / {16 ** i}) % 16 = {d} THEN 1 ELSE 0 END AS e{i + 1}"
                          for i, d in enumerate(r))
        at = " ".join(f"WHEN {i + 1} THEN {d}" for i, d in enumerate(r))
        return (f"{equal}, CASE WHEN (flags / 16) % 2 = 1 AND plus % 10 = (CASE plus / 10 {at} END) THEN 1 ELSE 0 END"
                " AS tp")

    def _hits_sql(self, params) -> str:
        matcher = Params(params).choice("matcher", games.jokeri.MATCHERS)
        if matcher == "any_positions":
            return " + ".join(f"e{i}" for i in range(1, DIGITS + 1))
        front = "CASE " + " ".join(f"WHEN e{i} = 0 THEN {i - 1}" for i in range(1, DIGITS + 1)) + f" ELSE {DIGITS} END"
        back = "CASE " + " ".join(f"WHEN e{DIGITS + 1 - i} = 0 THEN {i - 1}" for i in range(1, DIGITS + 1)) + \
            f" ELSE {DIGITS} END"
        return f"CASE WHEN ({front}) >= ({back}) THEN ({front}) ELSE ({back}) END"

    def check_cells(self):
        cells: dict[str, Any] = {f"classes.{c}.digits": digits for digits, c in sorted(CLASSES.items(), key=lambda x: x[1])}
        cells["format.digits"] = DIGITS
        return cells

    def ruleset_check_cells(self, params):
        cells = class_cells(params, ("digits",))
        cells["format.digits"] = mapping(params.get("format")).get("digits")
        return cells

    def path_b_cell(self, params, drawn):
        doubled = {int(c) for c in (Params(params).opt_sub("tuplaus") or Params({"classes": []})).str_list("classes")}
        hits = self._hits_sql(params)
        whens = [f"WHEN {hits} = {h} THEN {c * 2}" + (" + tp" if c in doubled else "") for h, c in CLASSES.items()]
        return "CASE " + " ".join(whens) + " END"


CODEC = Jokeri()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Jokeri"), codec=CODEC, settlement=BucketSettlement(CODEC),
                    rules=games.jokeri)
