"""Vikinglotto (§30; digest §5.3): 6 of 48 plus a Viking number, Plussa; common pools from the
central system. Jokeri and Lomatonni are played as its add-ons (§2)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ..formats import LineFormat, ParsedLine, ParsedResult, result_int
from ..rules.bitmask import picks_to_mask
from ..rules.errors import InvalidPicks
from ..rules.games import vikinglotto as rules
from .bitmask import BitmaskSettlement
from .numbers import NumberCodec
from .spec import DrawGameSpec


class Vikinglotto(NumberCodec):
    code = "vikinglotto"
    name = "Vikinglotto"
    result_fields = ("numbers", "viking", "plus")
    bench_central_inputs = {"common_pools": {"1": "3000000.00", "2": "500000.00"}}
    line_fields = ("numbers", "viking", "plus", "plus_cents")
    path_b_classes = tuple((f"h = {m} AND s = {v}", c) for m, v, c in (  # §30 / digest §5.3: main + Viking
        (6, 1, 1), (6, 0, 2), (5, 1, 3), (5, 0, 4), (4, 1, 5), (4, 0, 6), (3, 1, 7), (3, 0, 8)))
    path_b_plus_class = 9
    path_b_format = {"numbers": 6}
    engine_wants_lines = True

    def line_format(self, params):
        fmt = params["format"]
        return LineFormat(self.code, fmt["numbers"], fmt["max"], 1, fmt["viking_max"], "Viking number",
                          plus_max=fmt.get("plus_max") if params.get("plussa") else None)

    def validate_result(self, params, numbers, need):
        plus = self.result_plus(params, need)
        r = rules.validate_result(numbers, result_int(need("viking", "Viking number"), "viking"), plus, params)
        canonical = {"numbers": sorted(r.numbers), "viking": r.viking, "plus": r.plus}
        return ParsedResult(canonical, picks_to_mask(r.numbers), 0, picks_to_mask([r.viking]), r.plus)

    def random_secondary(self, rng, f):
        return {"viking": rng.randint(1, f.secondary_max)}

    def describe_secondary(self, secondary):
        return {"viking": secondary[0]} if secondary else {}

    def validate_line(self, params, main, secondary, plus):
        if len(secondary) != 1:
            raise InvalidPicks(f"Vikinglotto line: expected 1 Viking number, got {len(secondary)}")
        line = rules.validate_line(main, secondary[0], plus, params)
        return ParsedLine(picks_to_mask(line.numbers), picks_to_mask([line.viking]), line.plus)

    def engine_classify(self, f, params, picks, secondary, combo, plus):
        drawn = rules.VikinglottoDraw(frozenset(range(1, f.main_count + 1)), 1, 1)
        return rules.classify(rules.VikinglottoDraw(picks, 1 if secondary else 2, plus), drawn, params)

    def path_b_candidates(self, params, main_hits, secondary_hits, plus):
        return f"({main_hits} >= 3{plus})"  # every class needs 3 main numbers but class 9 (plus)


CODEC = Vikinglotto()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Vikinglotto"), codec=CODEC, settlement=BitmaskSettlement(CODEC),
                    rules=rules, addons=("jokeri", "lomatonni"), central_inputs=True)
