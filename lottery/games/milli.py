"""Milli (§31; digest §5.4): 6 of 40 plus an additional number."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ..formats import LineFormat, ParsedLine, ParsedResult, result_int
from ..rules.bitmask import picks_to_mask
from ..rules.games import milli as rules
from .bitmask import BitmaskSettlement
from .numbers import NumberCodec
from .spec import DrawGameSpec


class Milli(NumberCodec):
    code = "milli"
    name = "Milli"
    result_fields = ("numbers", "additional")
    bench_jackpot_cents = 1_000_000_00
    line_fields = ("numbers",)
    path_b_classes = (("h = 6", 1), ("h = 5 AND a = 1", 2), ("h = 5", 3), ("h = 4", 4), ("h = 3", 5),
                      ("h = 2", 6))  # §31 / digest §5.4
    path_b_format = {"numbers": 6, "additional": 1}

    def line_format(self, params):
        fmt = params["format"]
        return LineFormat(self.code, fmt["numbers"], fmt["max"], additional=bool(fmt.get("additional")),
                          plus_max=fmt.get("plus_max") if params.get("plussa") else None)

    def validate_result(self, params, numbers, need):
        r = rules.validate_result(numbers, result_int(need("additional", "additional number"), "additional"), params)
        canonical = {"numbers": sorted(r.numbers), "additional": r.additional}
        return ParsedResult(canonical, picks_to_mask(r.numbers), picks_to_mask([r.additional]))

    def validate_line(self, params, main, secondary, plus):
        return ParsedLine(picks_to_mask(rules.validate_line(main, params)), 0, None)

    def engine_classify(self, f, params, picks, secondary, combo, plus):
        k = f.main_count
        return rules.classify(picks, rules.MilliResult(frozenset(range(1, k + 1)), k + 1))

    def path_b_candidates(self, params, main_hits, secondary_hits, plus):
        return f"{main_hits} >= 2"  # every class needs 2 correct


CODEC = Milli()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Milli"), codec=CODEC, settlement=BitmaskSettlement(CODEC),
                    rules=rules)
