"""Lotto (§28; digest §5.1): 7 of 40 plus an additional number, Plussa. Jokeri and Lomatonni are
played as its add-ons (§2)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ..formats import LineFormat, ParsedLine, ParsedResult, result_int
from ..rules.bitmask import picks_to_mask
from ..rules.games import lotto as rules
from .bitmask import BitmaskSettlement
from .numbers import NumberCodec
from .spec import DrawGameSpec


class Lotto(NumberCodec):
    code = "lotto"
    name = "Lotto"
    result_fields = ("numbers", "additional", "plus")
    bench_jackpot_cents = 1_000_000_00
    path_b_classes = (("h = 7", 1), ("h = 6 AND a = 1", 2), ("h = 6", 3), ("h = 5", 4), ("h = 4", 5),
                      ("h = 3 AND a = 1", 6))  # §28 / digest §5.1
    path_b_plus_class = 7
    path_b_format = {"numbers": 7, "additional": 1}

    def line_format(self, params):
        fmt = params["format"]
        return LineFormat(self.code, fmt["numbers"], fmt["max"], additional=bool(fmt.get("additional")),
                          plus_max=fmt.get("plus_max") if params.get("plussa") else None)

    def validate_result(self, params, numbers, need):
        plus = self.result_plus(params, need)
        r = rules.validate_result(numbers, result_int(need("additional", "additional number"), "additional"), plus,
                                  params)
        canonical = {"numbers": sorted(r.numbers), "additional": r.additional, "plus": r.plus}
        return ParsedResult(canonical, picks_to_mask(r.numbers), picks_to_mask([r.additional]), 0, r.plus)

    def validate_line(self, params, main, secondary, plus):
        line = rules.validate_line(main, plus, params)
        return ParsedLine(picks_to_mask(line.numbers), 0, line.plus)

    def engine_classify(self, f, params, picks, secondary, combo, plus):
        k = f.main_count
        return rules.classify(rules.LottoLine(picks, plus), rules.LottoResult(frozenset(range(1, k + 1)), k + 1, 1),
                              params)

    def path_b_candidates(self, params, main_hits, secondary_hits, plus):
        return f"({main_hits} >= 3{plus})"  # every class needs 3 correct (class 6: 3 + additional) but 7 (plus)


CODEC = Lotto()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Lotto"), codec=CODEC, settlement=BitmaskSettlement(CODEC),
                    rules=rules, addons=("jokeri", "lomatonni"))
