"""What the four number games (Lotto, Eurojackpot, Vikinglotto, Milli) share: lines and results as
bitmasks, settled by the set-based bitmask strategy (`lottery.games.bitmask`).

`NumberCodec` is the codec of a number game; each game's own module (`lotto.py`, `eurojackpot.py`,
`vikinglotto.py`, `milli.py`) subclasses it with its format, its engine calls and path B's tables
written out by hand from the digest. The generic parts (result and line parsing around the engine's
validation, text, the number-line retail file with its PostgreSQL COPY import) are here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from compliance.errors import lazy_format

from ..formats import NUMBER_HEADER, LineFormat, ParsedLine, ParsedResult, result_int, result_ints
from ..matching import Combo, number_check_cells, number_ruleset_cells
from ..rules.bitmask import mask_to_picks
from ..rules.errors import InvalidPicks, InvalidResult
from .base import GameCodec, LineValues, RetailFormat


class NumberCodec(GameCodec):
    """A number game. Subclasses set the class attributes and the engine calls."""

    kind = "class"
    retail_format = RetailFormat.NUMBERS
    copy_import = True  # PostgreSQL loads its retail files with COPY (lottery.services.retail)
    line_fields = ("numbers", "plus", "plus_cents")
    fee_field = "plus_cents"
    describes_picks = False
    result_help = None  # the form's own: "The main numbers, separated by spaces."

    #: Path B's class conditions (SQL over h main hits, a additional held, s secondary hits) -> class,
    #: in order, written out by hand from the digest; the class of a right plus number (Plussa) when
    #: the game has one; the format values those conditions assume.
    path_b_classes: tuple[tuple[str, int], ...] = ()
    path_b_plus_class: int | None = None
    path_b_format: dict[str, int] = {}
    #: The engine wants the number of lines of the draw (Vikinglotto's common pools).
    engine_wants_lines = False

    # -- the game's own ---------------------------------------------------------------------------
    def line_format(self, params: Mapping[str, Any]) -> LineFormat:
        raise NotImplementedError

    def validate_result(self, params, numbers: list[int], need) -> ParsedResult:
        """The engine's validation of a result; ``need(key, label)`` reads a required field."""
        raise NotImplementedError

    def validate_line(self, params, main: list[int], secondary: list[int], plus: int | None) -> ParsedLine:
        raise NotImplementedError

    def engine_classify(self, f: LineFormat, params, picks: frozenset[int], secondary: int, combo: Combo,
                        plus: int | None):
        """The engine's classification of a constructed line (drawn: main 1..K, additional K+1,
        secondary 1..S, plus 1); returns the engine's LineClass."""
        raise NotImplementedError

    def path_b_candidates(self, params, main_hits: str, secondary_hits: str, plus: str) -> str:
        """A cheap condition every winning line meets (SQL over the popcounts given), hand-written."""
        raise NotImplementedError

    # -- results ------------------------------------------------------------------------------------
    def result_format_help(self, params):
        """"7 different numbers from 1 to 40, separated by spaces, e.g. 1 2 3 4 5 6 7." from the rule
        version's format."""
        if not params:
            return self.result_help
        f = self.line_format(params)
        return lazy_format(
            gettext_lazy("%(count)s different numbers from 1 to %(max)s, separated by spaces, e.g. %(example)s."),
            count=f.main_count, max=f.main_max, example=" ".join(str(n) for n in range(1, f.main_count + 1)))

    def parse_result(self, params, data) -> ParsedResult:
        name = self.name

        def need(key: str, label: str) -> Any:
            value = data.get(key)
            if value in (None, "", []):
                raise InvalidResult(f"{name} result: the {label} is required", code="result_required", game=name,
                                    field=label)
            return value

        numbers = result_ints(need("numbers", "numbers"), f"{name} result numbers")
        return self.validate_result(params, numbers, need)

    def result_plus(self, params, need) -> int | None:
        f = self.line_format(params)
        return result_int(need("plus", "plus number"), f"{self.name} plus number") if f.plus_max else None

    def result_text(self, numbers: Mapping[str, Any]) -> str:
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

    # -- lines --------------------------------------------------------------------------------------
    def secondary_of(self, data: Mapping[str, Any]) -> list[int]:
        """The secondary numbers of an API line (stars, the Viking number; refused by a game without)."""
        return list(data.get("stars") or ([data["viking"]] if data.get("viking") is not None else []))

    def parse_numbers(self, params, main: list[int], secondary: list[int], plus: int | None) -> ParsedLine:
        """Validate one line with the engine (raises ``InvalidPicks``) and return its masks."""
        f = self.line_format(params)
        if plus is not None and not f.plus_max:
            raise InvalidPicks(f"{self.name} has no Plussa: the plus number must be empty", code="no_plussa",
                               game=self.name)
        if not f.secondary_count and secondary:
            raise InvalidPicks(f"{self.name} lines have no star or Viking numbers", code="no_secondary",
                               game=self.name)
        return self.validate_line(params, main, secondary, plus)

    def parse_line(self, params, data) -> LineValues:
        line = self.parse_numbers(params, list(data.get("numbers") or []), self.secondary_of(data), data.get("plus"))
        return LineValues(line.main_mask, line.extra_mask, line.plus)

    def wager_line(self, params, data) -> tuple[LineValues, int]:
        plus, fee = data.get("plus"), data.get("plus_cents") or 0
        if (plus is None) != (fee == 0) or fee < 0:
            raise InvalidPicks("a Plussa line (with a plus number) pays plus_cents; others pay none",
                               code="plussa_fee")
        return self.parse_line(params, data), fee

    def describe_line(self, main_mask, extra_mask, plus, flags, params=None) -> dict[str, Any]:
        out: dict[str, Any] = {"numbers": mask_to_picks(int(main_mask))}
        out.update(self.describe_secondary(mask_to_picks(int(extra_mask or 0))))
        if plus is not None:
            out["plus"] = plus
        return out

    def describe_secondary(self, secondary: list[int]) -> dict[str, Any]:
        """The secondary numbers of a stored line in the API's terms (stars, the Viking number)."""
        return {}

    def line_text(self, main_mask, extra_mask, plus, flags) -> str:
        text = " ".join(str(n) for n in mask_to_picks(int(main_mask or 0)))
        if extra_mask:
            text += " · " + " ".join(str(n) for n in mask_to_picks(int(extra_mask)))
        return text

    # -- the retail sales file ------------------------------------------------------------------
    demo_stake_cents = 100

    def retail_header(self) -> list[str]:
        return list(NUMBER_HEADER)

    def demo_row(self, rng, params) -> dict[str, Any]:
        f = self.line_format(params)
        row: dict[str, Any] = {f"n{i}": n for i, n in
                               enumerate(rng.sample(range(1, f.main_max + 1), f.main_count), start=1)}
        if f.secondary_count:
            row.update({f"s{i}": n for i, n in
                        enumerate(rng.sample(range(1, f.secondary_max + 1), f.secondary_count), start=1)})
        plus = rng.randint(1, f.plus_max) if f.plus_max and rng.random() < 0.4 else None
        row.update(plus="" if plus is None else plus, stake_cents=self.demo_stake_cents,
                   plus_cents=50 if plus is not None else 0)
        return row

    # -- benchmarks and drills ----------------------------------------------------------------------
    #: The jackpot the settlement benchmark confirms for a draw (None: the draw has none confirmed).
    bench_jackpot_cents: int | None = None
    #: The central system's inputs the benchmark sets on a draw (common pools), if the game has any.
    bench_central_inputs: dict[str, Any] | None = None

    def random_result(self, rng, params) -> dict[str, Any]:
        """A valid random result (the settlement benchmark)."""
        f = self.line_format(params)
        drawn = rng.sample(range(1, f.main_max + 1), f.main_count + (1 if f.additional else 0))
        result: dict[str, Any] = {"numbers": sorted(drawn[: f.main_count])}
        if f.additional:
            result["additional"] = drawn[-1]
        result.update(self.random_secondary(rng, f))
        if f.plus_max:
            result["plus"] = rng.randint(1, f.plus_max)
        return result

    def random_secondary(self, rng, f: LineFormat) -> dict[str, Any]:
        """The secondary numbers of a random result (stars, the Viking number)."""
        return {}

    # -- the check computation's tables -------------------------------------------------------------
    def check_cells(self) -> dict[str, Any]:
        return number_check_cells(self)

    def ruleset_check_cells(self, params) -> dict[str, Any]:
        return number_ruleset_cells(self, params)
