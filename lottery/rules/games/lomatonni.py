"""Lomatonni: draw format (§19) and classification (§36; digest §5.9).

The result is a city and a number 1..100, e.g. "Rooma 22". Class 1: city and number correct;
class 2: city correct. The number alone wins nothing. The city list comes from the game
instructions (``params.format.cities``; when null any non-empty name is accepted).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPicks, InvalidResult, RulesError
from ..validation import number_in_range
from .common import LineClass, params_for

GAME = "lomatonni"


@dataclass(frozen=True)
class CityNumber:
    city: str
    number: int


def _validate(
    city: object, number: object, params: Mapping[str, Any] | None, what: str, error: type[RulesError]
) -> CityNumber:
    fmt = params_for(GAME, params).sub("format")
    if not isinstance(city, str) or not city.strip():
        raise error(f"Lomatonni {what} city must be a non-empty name, got {city!r}")
    cities = fmt.raw("cities", None)
    if cities is not None and city.strip().casefold() not in {c.casefold() for c in cities}:
        raise error(f"Lomatonni {what} city {city!r} is not in the configured city list")
    n = number_in_range(
        number, low=1, high=fmt.integer("number_max"), what=f"Lomatonni {what} number", error=error
    )
    return CityNumber(city.strip(), n)


def validate_result(city: str, number: int, params: Mapping[str, Any] | None = None) -> CityNumber:
    return _validate(city, number, params, "result", InvalidResult)


def validate_line(city: str, number: int, params: Mapping[str, Any] | None = None) -> CityNumber:
    return _validate(city, number, params, "line", InvalidPicks)


def classify(line: CityNumber, result: CityNumber) -> LineClass:
    if line.city.casefold() != result.city.casefold():
        return LineClass(None)
    return LineClass("1" if line.number == result.number else "2")
