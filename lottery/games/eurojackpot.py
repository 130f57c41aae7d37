"""Eurojackpot (§29; digest §5.2): 5 of 50 plus 2 star numbers of 12. Jokeri and Lomatonni are
played as its add-ons (§2)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ..formats import LineFormat, ParsedLine, ParsedResult, result_ints
from ..rules.bitmask import picks_to_mask
from ..rules.games import eurojackpot as rules
from .bitmask import BitmaskSettlement
from .numbers import NumberCodec
from .spec import DrawGameSpec


class Eurojackpot(NumberCodec):
    code = "eurojackpot"
    name = "Eurojackpot"
    demo_stake_cents = 250
    result_fields = ("numbers", "stars")
    line_fields = ("numbers", "stars")
    path_b_classes = tuple((f"h = {m} AND s = {s}", c) for m, s, c in (  # §29 / digest §5.2: main + stars
        (5, 2, 1), (5, 1, 2), (5, 0, 3), (4, 2, 4), (4, 1, 5), (3, 2, 6), (4, 0, 7), (2, 2, 8), (3, 1, 9),
        (3, 0, 10), (1, 2, 11), (2, 1, 12)))
    path_b_format = {"numbers": 5, "stars": 2}

    def line_format(self, params):
        fmt = params["format"]
        return LineFormat(self.code, fmt["numbers"], fmt["max"], fmt["stars"], fmt["star_max"], "stars")

    def validate_result(self, params, numbers, need):
        r = rules.validate_result(numbers, result_ints(need("stars", "star numbers"), "stars"), params)
        canonical = {"numbers": sorted(r.numbers), "stars": sorted(r.stars)}
        return ParsedResult(canonical, picks_to_mask(r.numbers), 0, picks_to_mask(r.stars))

    def random_secondary(self, rng, f):
        return {"stars": sorted(rng.sample(range(1, f.secondary_max + 1), 2))}

    def describe_secondary(self, secondary):
        return {"stars": secondary}

    def validate_line(self, params, main, secondary, plus):
        line = rules.validate_line(main, secondary, params)
        return ParsedLine(picks_to_mask(line.numbers), picks_to_mask(line.stars), None)

    def engine_classify(self, f, params, picks, secondary, combo, plus):
        k, count = f.main_count, f.secondary_count
        stars = set(range(1, secondary + 1))
        extra = count + 1
        while len(stars) < count:
            stars.add(extra)
            extra += 1
        drawn = rules.EurojackpotDraw(frozenset(range(1, k + 1)), frozenset(range(1, count + 1)))
        return rules.classify(rules.EurojackpotDraw(picks, frozenset(stars)), drawn)

    def path_b_candidates(self, params, main_hits, secondary_hits, plus):
        return f"{main_hits} + 2 * {secondary_hits} >= 3"  # 3+0, 2+1, 1+2 are the smallest winning results


CODEC = Eurojackpot()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Eurojackpot"), codec=CODEC, settlement=BitmaskSettlement(CODEC),
                    rules=rules, addons=("jokeri", "lomatonni"), central_inputs=True)
