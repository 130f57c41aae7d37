"""Line and result formats of the number games, as bitmasks (DESIGN §3 step 2).

The format comes from a rule version's ``params["format"]``; validation is the prize engine's
(``lottery.rules.games.<game>.validate_result`` / ``validate_line``), so a result or a line is
accepted here exactly when the engine accepts it. Number n is bit n-1 of a mask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compliance.bounds import parse_int

from .rules import games
from .rules.bitmask import picks_to_mask
from .rules.errors import InvalidResult

#: Games whose lines are stored as bitmasks and settled set-based in the database.
NUMBER_GAMES = ("lotto", "eurojackpot", "vikinglotto", "milli")
#: Every game the draw pipeline sells and settles: the number games here, the other six in
#: `lottery.games` (their own line encodings and settlement paths).
PIPELINE_GAMES = NUMBER_GAMES + ("keno", "kaikki_tai_ei_mitaan", "synttarit", "jokeri", "lomatonni", "tahdenlento")


class UnsupportedGame(ValueError):
    """The game is not settled (or sold) by the draw pipeline yet."""


def require_pipeline_game(game: str) -> None:
    if game not in PIPELINE_GAMES:
        raise UnsupportedGame(f"{game} is not supported for sales and settlement.")


def require_number_game(game: str) -> None:
    if game not in NUMBER_GAMES:
        raise UnsupportedGame(
            f"{game} is not yet supported for sales and settlement; supported: {', '.join(NUMBER_GAMES)}."
        )


@dataclass(frozen=True)
class LineFormat:
    game: str
    main_count: int
    main_max: int
    secondary_count: int = 0  # Eurojackpot stars, Vikinglotto Viking number
    secondary_max: int = 0
    secondary_label: str = ""
    additional: bool = False  # an additional number is drawn from the main drum (Lotto, Milli)
    plus_max: int | None = None  # Plussa offered (Lotto, Vikinglotto)


def line_format(game: str, params: Mapping[str, Any]) -> LineFormat:
    """The format of a game's lines and results under a rule version's parameters."""
    require_number_game(game)
    fmt = params["format"]
    plus_max = fmt.get("plus_max") if params.get("plussa") else None
    if game == "eurojackpot":
        return LineFormat(game, fmt["numbers"], fmt["max"], fmt["stars"], fmt["star_max"], "stars")
    if game == "vikinglotto":
        return LineFormat(game, fmt["numbers"], fmt["max"], 1, fmt["viking_max"], "Viking number", plus_max=plus_max)
    return LineFormat(game, fmt["numbers"], fmt["max"], additional=bool(fmt.get("additional")), plus_max=plus_max)


@dataclass(frozen=True)
class ParsedResult:
    numbers: dict[str, Any]  # canonical JSON of the result
    main_mask: int
    additional_mask: int = 0
    secondary_mask: int = 0
    plus: int | None = None


def _ints(value: Any, what: str) -> list[int]:
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise InvalidResult(f"{what}: {value!r} is not a list of whole numbers") from None
    if isinstance(value, Sequence):
        return list(value)
    raise InvalidResult(f"{what}: expected a list of numbers")


def _int(value: Any, what: str) -> int:
    if isinstance(value, str):
        number = parse_int(value.strip(), maximum=10**12 - 1, signed=True)
        if number is None:
            raise InvalidResult(f"{what}: {value!r} is not a whole number")
        return number
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidResult(f"{what}: {value!r} is not a whole number")
    return value


def parse_result(game: str, params: Mapping[str, Any], data: Mapping[str, Any]) -> ParsedResult:
    """Validate a result with the engine and return its canonical form and masks.

    ``data``: ``numbers`` (list or "1 2 3"), and per game ``additional`` (Lotto, Milli), ``stars``
    (Eurojackpot), ``viking`` (Vikinglotto), ``plus`` (Lotto, Vikinglotto when Plussa is offered).
    Raises ``InvalidResult`` with a readable message. The other games' results: `lottery.games`.
    """
    if game not in NUMBER_GAMES:
        require_pipeline_game(game)
        from .games import codec

        return codec(game).parse_result(params, data)
    f = line_format(game, params)
    name = game.capitalize()

    def need(key: str, label: str) -> Any:
        value = data.get(key)
        if value in (None, "", []):
            raise InvalidResult(f"{name} result: the {label} is required")
        return value

    numbers = _ints(need("numbers", "numbers"), f"{name} result numbers")
    plus = _int(need("plus", "plus number"), f"{name} plus number") if f.plus_max else None
    if game == "lotto":
        r = games.lotto.validate_result(numbers, _int(need("additional", "additional number"), "additional"), plus, params)
        canonical = {"numbers": sorted(r.numbers), "additional": r.additional, "plus": r.plus}
        return ParsedResult(canonical, picks_to_mask(r.numbers), picks_to_mask([r.additional]), 0, r.plus)
    if game == "milli":
        r = games.milli.validate_result(numbers, _int(need("additional", "additional number"), "additional"), params)
        canonical = {"numbers": sorted(r.numbers), "additional": r.additional}
        return ParsedResult(canonical, picks_to_mask(r.numbers), picks_to_mask([r.additional]))
    if game == "eurojackpot":
        r = games.eurojackpot.validate_result(numbers, _ints(need("stars", "star numbers"), "stars"), params)
        canonical = {"numbers": sorted(r.numbers), "stars": sorted(r.stars)}
        return ParsedResult(canonical, picks_to_mask(r.numbers), 0, picks_to_mask(r.stars))
    r = games.vikinglotto.validate_result(numbers, _int(need("viking", "Viking number"), "viking"), plus, params)
    canonical = {"numbers": sorted(r.numbers), "viking": r.viking, "plus": r.plus}
    return ParsedResult(canonical, picks_to_mask(r.numbers), 0, picks_to_mask([r.viking]), r.plus)


@dataclass(frozen=True)
class ParsedLine:
    main_mask: int
    extra_mask: int
    plus: int | None


def parse_line(game: str, params: Mapping[str, Any], main: list[int], secondary: list[int], plus: int | None) -> ParsedLine:
    """Validate one line with the engine (raises ``InvalidPicks``) and return its masks."""
    f = line_format(game, params)
    from .rules.errors import InvalidPicks

    if plus is not None and not f.plus_max:
        raise InvalidPicks(f"{game.capitalize()} has no Plussa: the plus number must be empty")
    if not f.secondary_count and secondary:
        raise InvalidPicks(f"{game.capitalize()} lines have no star or Viking numbers")
    if game == "lotto":
        line = games.lotto.validate_line(main, plus, params)
        return ParsedLine(picks_to_mask(line.numbers), 0, line.plus)
    if game == "milli":
        return ParsedLine(picks_to_mask(games.milli.validate_line(main, params)), 0, None)
    if game == "eurojackpot":
        line = games.eurojackpot.validate_line(main, secondary, params)
        return ParsedLine(picks_to_mask(line.numbers), picks_to_mask(line.stars), None)
    if len(secondary) != 1:
        raise InvalidPicks(f"Vikinglotto line: expected 1 Viking number, got {len(secondary)}")
    line = games.vikinglotto.validate_line(main, secondary[0], plus, params)
    return ParsedLine(picks_to_mask(line.numbers), picks_to_mask([line.viking]), line.plus)


def result_text(numbers: Mapping[str, Any]) -> str:
    """'3 8 14 22 27 33 40 + 12, plus 7' style text of a canonical result."""
    from .games import result_text_of

    other = result_text_of(numbers)
    if other is not None:
        return other
    out = " ".join(str(n) for n in numbers.get("numbers", []))
    if numbers.get("additional") is not None:
        out += f" + {numbers['additional']}"
    if numbers.get("stars"):
        out += " ★ " + " ".join(str(n) for n in numbers["stars"])
    if numbers.get("viking") is not None:
        out += f" V {numbers['viking']}"
    if numbers.get("plus") is not None:
        out += f" / plus {numbers['plus']}"
    return out
