"""Lomatonni in the draw pipeline (§19, §36; digest §5.9). An add-on game (§2).

Line: a city and a number 1..100, packed in `main_mask` as ``number | city code << 7``. The city
code is the row of `LomatonniCity` for the city's name compared as the engine compares it
(case-folded); codes are given out the first time a city is sold, so any city the rule version
accepts can be stored exactly (the default rule version lists no cities: any name is playable).
No add-on. Result: the city and the number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from ..formats import ParsedResult
from ..models import LomatonniCity
from ..rules import games
from ..rules.errors import InvalidPicks, InvalidResult
from .base import Column, GameCodec, LineValues, class_keys, required, whole
from .buckets import BucketSettlement
from .spec import DrawGameSpec

NUMBER_BITS = 7
DEFER = object()  # parse_line(codes=DEFER): validate only, the city's code is looked up later
NUMBER_SPAN = 1 << NUMBER_BITS  # 128
# Digest §5.9 (§36), written out by hand for path B: the class of city and number correct, and of the
# city alone (the number alone wins nothing).
CLASS_EXACT, CLASS_CITY = 1, 2


def city_key(name: str) -> str:
    return name.strip().casefold()


def city_codes(names: Iterable[str], *, create: bool) -> dict[str, int]:
    """Case-folded city name -> code; with ``create`` a new city gets the next code."""
    keys = {city_key(n): n.strip() for n in names}
    found = dict(LomatonniCity.objects.filter(key__in=list(keys)).values_list("key", "pk"))
    if create:
        for key in sorted(set(keys) - set(found)):
            city, _ = LomatonniCity.objects.get_or_create(key=key, defaults={"name": keys[key]})
            found[key] = city.pk
    return found


def city_name(code: int) -> str:
    return LomatonniCity.objects.filter(pk=code).values_list("name", flat=True).first() or f"city {code}"


class Lomatonni(GameCodec):
    code = "lomatonni"
    name = "Lomatonni"
    kind = "class"
    result_fields = ("city", "number")
    line_fields = ("city", "number")
    csv_columns = (Column("city", numeric=False), Column("number"))

    def parse_result(self, params, data) -> ParsedResult:
        city = required(data, "city", "city", self.name, InvalidResult)
        number = whole(required(data, "number", "number", self.name, InvalidResult), "Lomatonni result number",
                       InvalidResult)
        r = games.lomatonni.validate_result(city, number, params)
        code = city_codes([r.city], create=False).get(city_key(r.city), 0)
        return ParsedResult({"city": r.city, "number": r.number}, r.number | code << NUMBER_BITS)

    def result_text(self, numbers_: Mapping[str, Any]) -> str:
        return f"{numbers_.get('city')} {numbers_.get('number')}"

    def parse_line(self, params, data, codes: Mapping[str, int] | object | None = None) -> LineValues:
        """``codes``: city codes already looked up (a sales file), or DEFER (validation only: code 0);
        None: the city is looked up (and numbered if new) here."""
        city = required(data, "city", "city", self.name, InvalidPicks)
        number = whole(required(data, "number", "number", self.name, InvalidPicks), "Lomatonni line number")
        line = games.lomatonni.validate_line(city, number, params)
        key = city_key(line.city)
        if codes is DEFER:
            code = 0
        elif codes is not None:
            code = codes.get(key)
        else:
            code = city_codes([line.city], create=True)[key]
        if code is None:
            raise InvalidPicks(f"Lomatonni line: city {line.city!r} has no code")
        return LineValues(line.number | code << NUMBER_BITS)

    def retail_names(self, data):
        return {str(data.get("city", "")).strip()}

    def retail_codes(self, names, *, create):
        return city_codes(names, create=create)

    def parse_retail_line(self, params, data, codes):
        return self.parse_line(params, data, codes=DEFER if codes is None else codes)

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None):
        return {"city": city_name(int(main_mask) >> NUMBER_BITS), "number": int(main_mask) & (NUMBER_SPAN - 1)}

    def line_text(self, main_mask, extra_mask, plus, flags):
        d = self.describe_line(main_mask, extra_mask, plus, flags)
        return f"{d['city']} {d['number']}"

    def drawn(self, params, numbers_):
        code = city_codes([numbers_["city"]], create=False).get(city_key(numbers_["city"]), 0)
        return {"city": code, "number": int(numbers_["number"]), "name": numbers_["city"]}

    def path_a_features(self, params, drawn, vendor):
        return [("c", f"CASE WHEN (main_mask >> {NUMBER_BITS}) = {drawn['city']} THEN 1 ELSE 0 END"),
                ("n", f"CASE WHEN (main_mask & {NUMBER_SPAN - 1}) = {drawn['number']} THEN 1 ELSE 0 END")]

    def engine_class(self, params, drawn, f):
        """The engine's classify of a line whose city and number are right or wrong as the group's."""
        result = games.lomatonni.CityNumber(drawn["name"], drawn["number"])
        city = drawn["name"] if f["c"] else drawn["name"] + " (other)"
        number = drawn["number"] if f["n"] else drawn["number"] % 100 + 1
        return games.lomatonni.classify(games.lomatonni.CityNumber(city, number), result).class_key, False

    def path_b_features(self, params, drawn):
        return "main_mask AS v"

    def path_b_cell(self, params, drawn):
        exact = drawn["city"] * NUMBER_SPAN + drawn["number"]
        return (f"CASE WHEN v = {exact} THEN {CLASS_EXACT * 2}"
                f" WHEN v / {NUMBER_SPAN} = {drawn['city']} THEN {CLASS_CITY * 2} END")

    def check_cells(self):
        return {"classes": f"{CLASS_EXACT}, {CLASS_CITY}"}

    def ruleset_check_cells(self, params):
        return {"classes": class_keys(params)}

    def path_b_candidates(self, params, drawn, vendor):
        low = drawn["city"] * NUMBER_SPAN
        return f"main_mask >= {low} AND main_mask < {low + NUMBER_SPAN}"


CODEC = Lomatonni()
SPEC = DrawGameSpec(code=CODEC.code, name=_("Lomatonni"), codec=CODEC, settlement=BucketSettlement(CODEC),
                    rules=games.lomatonni)
