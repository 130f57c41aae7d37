"""What every game's codec provides (`GameCodec`), and the pieces the codecs share.

The number games extend it in `lottery.games.numbers` (bitmask lines, settled by
`lottery.games.bitmask`). The six others (Keno, Kaikki tai ei mitään, Tähdenlento, Synttärit, Jokeri,
Lomatonni; settled by `lottery.games.buckets`) describe, for the draw pipeline:

* its **result** (`parse_result`: validated by the prize engine's ``validate_result``, stored as
  canonical JSON plus masks) and its **line** (`parse_line`: validated by the engine's
  ``validate_line``, stored compactly in the existing `Line` columns; see docs/draws.md);
* its **retail file columns** (`CSV_COLUMNS`, between ``terminal`` and the fee columns);
* **path A** (`path_a_features`: one grouping pass whose groups the engine classifies) and
  **path B** (`path_b_*`: the digest's tables written out by hand in SQL) of settlement.

Line encoding (`Line` columns): `main_mask` and `extra_mask` hold the picks (or packed values),
`flags` the level or game type (low 4 bits) and ``FLAG_ADDON`` when the line plays the game's add-on
(Kunkku, Onnenapila, bonus draw, Tuplaus), `plus` the add-on's own pick (lucky number, bonus token,
designated king number, Tuplaus position and digit), `addon_cents` the add-on fee.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from compliance.bounds import parse_int

from ..rules.bitmask import mask_to_picks
from ..rules.errors import InvalidPicks, InvalidResult, RulesError
from .messages import class_label

FLAG_ADDON = 16  # the line plays the game's add-on
LEVEL_BITS = 15  # Keno level, Tähdenlento game type
#: The rounding mode path B computes a multiplier game's prizes with (floor per rounding step).
PATH_B_ROUNDING_MODE = "down"


@dataclass(frozen=True)
class LineValues:
    """A validated line as stored in `Line`; ``addon``: the line plays the add-on (and pays its fee)."""

    main_mask: int
    extra_mask: int = 0
    plus: int | None = None
    flags: int = 0

    @property
    def addon(self) -> bool:
        return bool(self.flags & FLAG_ADDON)


class RetailFormat(enum.Enum):
    """The layout of a game's retail sales file (docs/draws.md, "Retail sales file")."""

    NUMBERS = "numbers"  # the number-line file (n1..n7, s1, s2, plus); COPY on PostgreSQL
    COLUMNS = "columns"  # the game's own columns (`GameCodec.csv_columns`), checked by its codec


FIXED_COLUMNS = ("ticket", "sold_at", "terminal")


@dataclass(frozen=True)
class Column:
    """A column of a game's retail sales file; a numeric column holds a whole number or nothing."""

    name: str
    numeric: bool = True


# ------------------------------------------------------------------------------------------------
# reading values (JSON from the API and forms, or text from a sales file)
# ------------------------------------------------------------------------------------------------

def empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, (list, tuple)) and not value
    )


def whole(value: Any, what: str, error: type[RulesError] = InvalidPicks) -> int:
    """A whole number from JSON (int) or text ("12")."""
    if isinstance(value, bool):
        raise error(f"{what}: {value!r} is not a whole number", code="not_whole", what=what, value=repr(value))
    if isinstance(value, int):
        return value
    if isinstance(value, str) and (number := parse_int(value.strip(), maximum=10**12 - 1, signed=True)) is not None:
        return number
    raise error(f"{what}: {value!r} is not a whole number", code="not_whole", what=what, value=repr(value))


def numbers(value: Any, what: str, error: type[RulesError] = InvalidPicks) -> list[int]:
    """A list of whole numbers from JSON, or from text separated by spaces or commas."""
    if isinstance(value, str):
        return [whole(p, what, error) for p in value.replace(",", " ").split()]
    if isinstance(value, Sequence):
        return [whole(v, what, error) for v in value]
    raise error(f"{what}: expected a list of numbers", code="expected_list", what=what)


def _present(value: Any) -> bool:
    return not empty(value) and value is not False and value != 0


def flag(value: Any, what: str) -> bool:
    """true/false from JSON; 1/0, yes/no, true/false or empty from text."""
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("", "0", "1", "true", "false", "yes", "no"):
        return value.strip().lower() in ("1", "true", "yes")
    raise InvalidPicks(f"{what}: {value!r} is not 1 or 0")


def required(data: Mapping[str, Any], key: str, label: str, game: str, error: type[RulesError]) -> Any:
    value = data.get(key)
    if empty(value):
        kind = "result" if error is InvalidResult else "line"
        raise error(f"{game} {kind}: the {label} is required", code=f"{kind}_required", game=game, field=label)
    return value


def split_picks(picks: Sequence[int]) -> tuple[int, int]:
    """Numbers 1..63 as bits 0..62 of the main mask and 64..70 as bits 0..6 of the extra mask (a
    signed 64-bit column holds 63 numbers without touching its sign bit)."""
    main = extra = 0
    for n in picks:
        if n <= 63:
            main |= 1 << (n - 1)
        else:
            extra |= 1 << (n - 64)
    return main, extra


def join_picks(main_mask: int, extra_mask: int = 0) -> list[int]:
    return mask_to_picks(int(main_mask)) + [n + 63 for n in mask_to_picks(int(extra_mask or 0))]


# ------------------------------------------------------------------------------------------------
# SQL
# ------------------------------------------------------------------------------------------------

def bit_tests(column: str, bits: Sequence[int]) -> str:
    """Path B's hit count: a sum of single-bit tests (bit numbers from 0)."""
    if not bits:
        return "0"
    return " + ".join(f"(({column} >> {b}) & 1)" for b in bits)


def muldiv_sql(weight: str, num: int, den: int, vendor: str) -> str:
    """floor(weight × num / den) exactly, whatever the size of num and den (weights are positive).

    PostgreSQL: numeric arithmetic (`div` truncates, exactly). SQLite has 64-bit integers only, so
    the registered deterministic function `valvoja_muldiv` computes it in Python; the big factors
    are passed as text so that they are never read as floating point."""
    if num == den:
        return f"({weight})"
    if vendor == "postgresql":
        return f"div(({weight})::numeric * {int(num)}::numeric, {int(den)}::numeric)::bigint"
    return f"valvoja_muldiv({weight}, '{int(num)}', '{int(den)}')"


def sqlite_muldiv(weight: int | None, num: str, den: str) -> int | None:
    """The SQLite function behind ``valvoja_muldiv`` (registered in LotteryConfig.ready)."""
    if weight is None:
        return None
    return (int(weight) * int(num)) // int(den)


def in_list(values: Sequence[int]) -> str:
    return ", ".join(str(int(v)) for v in values) if values else "NULL"


# ------------------------------------------------------------------------------------------------
# a rule version's cells, for the comparison with path B's tables (`lottery.check_tables`)
# ------------------------------------------------------------------------------------------------

def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is an object, else an empty one (a malformed rule version shows as cells the
    check computation does not have, never as an exception)."""
    return value if isinstance(value, Mapping) else {}


def table_cells(prefix: str, table: Any, depth: int, columns: Sequence[str]) -> dict[str, Any]:
    """The cells of a nested multiplier table of a rule version (``multipliers``): ``depth`` levels of
    keys, then one value per column, named ``prefix.key1[.key2].column``."""
    out: dict[str, Any] = {}
    if depth == 0:
        cell = mapping(table)
        for column in columns:
            out[f"{prefix}.{column}"] = cell.get(column)
        return out
    for key, sub in mapping(table).items():
        out.update(table_cells(f"{prefix}.{key}", sub, depth - 1, columns))
    return out


def class_cells(params: Mapping[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    """``classes.<class>.<field>`` of a rule version's class list (the class named by its key)."""
    out: dict[str, Any] = {}
    classes = params.get("classes")
    for i, cl in enumerate(classes if isinstance(classes, list) else []):
        if not isinstance(cl, Mapping) or cl.get("class") is None:
            out[f"classes[{i}]"] = repr(cl)
            continue
        for name in fields:
            out[f"classes.{cl['class']}.{name}"] = cl.get(name)
    return out


def class_keys(params: Mapping[str, Any]) -> str:
    classes = params.get("classes")
    if not isinstance(classes, list):
        return repr(classes)
    return ", ".join(str(c.get("class")) if isinstance(c, Mapping) else repr(c) for c in classes)


# ------------------------------------------------------------------------------------------------
# the interface
# ------------------------------------------------------------------------------------------------

class GameCodec:
    """One game's formats and settlement SQL. Subclasses fill in the class attributes and methods."""

    code: str = ""
    name: str = ""
    kind: str = "multiplier"  # "multiplier" (stake x multiplier, caps) or "class" (fixed prizes per class)
    addon_name: str = ""  # Kunkku, Onnenapila, bonus draw, Tuplaus; "" when the game has no add-on
    result_fields: tuple[str, ...] = ()  # keys of a result (form fields, API fields, canonical JSON)
    line_fields: tuple[str, ...] = ()  # keys of an API line besides stake_cents and addon_cents
    csv_columns: tuple[Column, ...] = ()
    retail_format: RetailFormat = RetailFormat.COLUMNS
    copy_import: bool = False  # PostgreSQL loads the game's retail files with COPY
    fee_field: str = "addon_cents"  # the API field of an add-on's fee
    #: The API shows a stored line in the game's own terms (``picks``, `describe_line`); the number
    #: games show theirs as ``numbers`` and ``secondary`` only.
    describes_picks = True
    #: The help text of the result form's ``numbers`` field (None: the form's own).
    result_help: Any = gettext_lazy("The drawn numbers, separated by spaces.")

    def result_format_help(self, params: Mapping[str, Any] | None) -> Any:
        """What the result form's ``numbers`` field expects under the draw's rule version (`params`),
        shown beside the field (None: the form's own text)."""
        return self.result_help

    @property
    def canonical_fields(self) -> tuple[str, ...]:
        """The keys of a stored (canonical) result."""
        return self.result_fields

    def class_name(self, class_key: str, label: str = "") -> str:
        """A prize class's name in the active language: the rule version's label translated
        (`lottery.games.messages.class_label`: "7 correct" -> "7 oikein"), else the class key."""
        return class_label(label) if label else str(class_key)

    # -- the retail sales file --------------------------------------------------------------------
    def retail_header(self) -> list[str]:
        """The columns of the game's retail sales file, in order."""
        fees = ["stake_cents", "addon_cents"] if self.addon_name else ["stake_cents"]
        return [*FIXED_COLUMNS, *(c.name for c in self.csv_columns), *fees]

    def retail_names(self, data: Mapping[str, Any]) -> set[str]:
        """Names in a row that the import turns into codes before it stores the lines (Lomatonni's
        cities); none for most games."""
        return set()

    def retail_codes(self, names: set[str], *, create: bool) -> Mapping[str, int] | None:
        """The codes of ``retail_names`` (created when ``create``); None: the game has none."""
        return None

    def parse_retail_line(self, params, data, codes: Mapping[str, int] | None) -> LineValues:
        """A line of a sales file row (``codes``: `retail_codes`, None while only checking)."""
        return self.parse_line(params, data)

    def demo_row(self, rng: random.Random, params: Mapping[str, Any]) -> dict[str, Any]:
        """The game's columns and fees of one random retail row (`lottery.demo`): a third of the
        lines play the add-on."""
        row: dict[str, Any] = {"stake_cents": rng.choice([100, 200, 500])}
        addon = rng.random() < 1 / 3
        row.update(self.demo_picks(rng, params, addon))
        row["addon_cents"] = 100 if addon else 0
        return row

    def demo_picks(self, rng: random.Random, params: Mapping[str, Any], addon: bool) -> dict[str, Any]:
        """The game's columns of a random demo line (with its add-on when ``addon``)."""
        raise NotImplementedError

    # -- wagers -------------------------------------------------------------------------------------
    def wager_line(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> tuple[LineValues, int]:
        """A line of a wager from a sales channel and its add-on fee; raises a RulesError saying what
        is wrong (fields the game's lines do not have, a fee without its add-on, bad picks)."""
        allowed = {*self.line_fields, "stake_cents", "addon_cents", "game"}
        stray = sorted(k for k, v in data.items() if k not in allowed and _present(v))
        if stray:
            raise InvalidPicks(f"{self.name} lines have no {', '.join(stray)} "
                               f"(fields: {', '.join(self.line_fields)}, stake_cents, addon_cents)")
        addon = data.get("addon_cents") or 0
        if isinstance(addon, bool) or not isinstance(addon, int) or addon < 0:
            raise InvalidPicks("addon_cents must be a whole number, 0 or more")
        values = self.parse_line(params, data)
        name = self.addon_name
        if values.addon and not addon:
            raise InvalidPicks(f"a {name} line pays the {name} fee (addon_cents)")
        if not values.addon and addon:
            raise InvalidPicks(f"addon_cents is the fee of {name or 'an add-on'}; this line plays none")
        return values, addon

    # -- results and lines ----------------------------------------------------------------------
    def parse_result(self, params: Mapping[str, Any], data: Mapping[str, Any]):
        """-> lottery.formats.ParsedResult; raises InvalidResult."""
        raise NotImplementedError

    def result_text(self, numbers: Mapping[str, Any]) -> str:
        raise NotImplementedError

    def parse_line(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> LineValues:
        """A line from API-style values (JSON, or the text of a sales file row); raises InvalidPicks."""
        raise NotImplementedError

    def csv_line(self, values: Mapping[str, str]) -> dict[str, Any]:
        """The API-style values of a sales file row (column name -> text)."""
        return {c.name: values.get(c.name, "") for c in self.csv_columns}

    def describe_line(self, main_mask: int, extra_mask: int, plus: int | None, flags: int,
                      params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A stored line in the API's terms (the inverse of parse_line)."""
        raise NotImplementedError

    def line_text(self, main_mask: int, extra_mask: int, plus: int | None, flags: int) -> str:
        raise NotImplementedError

    # -- settlement -------------------------------------------------------------------------------
    def drawn(self, params: Mapping[str, Any], numbers: Mapping[str, Any]) -> Any:
        """The drawn values settlement needs, from the canonical result JSON."""
        raise NotImplementedError

    def path_a_features(self, params: Mapping[str, Any], drawn: Any, vendor: str) -> list[tuple[str, str]]:
        """(alias, SQL expression) of the features path A groups the lines by."""
        raise NotImplementedError

    def bucket(self, params: Mapping[str, Any], features: Mapping[str, int]) -> dict[str, Any] | None:
        """Multiplier games: the engine's classified bucket of a group (without stake and count);
        None when the engine's JSON form cannot express it and the engine says it does not win."""
        raise NotImplementedError

    def boosted(self, params: Mapping[str, Any], bucket: Mapping[str, Any], class_key: str) -> bool:
        """Multiplier games: the bucket's lines are paid from the add-on column."""
        return False

    def engine_class(self, params: Mapping[str, Any], drawn: Any,
                     features: Mapping[str, int]) -> tuple[str | None, bool]:
        """Class games: (class, doubled) of a group, by the engine's classify on a constructed line."""
        raise NotImplementedError

    def path_b_features(self, params: Mapping[str, Any], drawn: Any) -> str:
        """Columns of path B's innermost select (plain SQL, hand-written), e.g. "… AS h, … AS kg"."""
        raise NotImplementedError

    def path_b_cell(self, params: Mapping[str, Any], drawn: Any) -> str:
        """CASE expression over path B's features: class_no * 2 + column (1: add-on column or Tuplaus
        doubled), NULL for a losing line. Hand-written from the digest."""
        raise NotImplementedError

    def path_b_multipliers(self) -> dict[int, int]:
        """Multiplier games: cell code -> multiplier, the digest's table written out by hand."""
        return {}

    def path_b_candidates(self, params: Mapping[str, Any], drawn: Any, vendor: str) -> str | None:
        """A cheap condition every winner meets (None: classify every line)."""
        return None

    # -- the check computation's tables (`lottery.check_tables`) ---------------------------------
    def check_cells(self) -> dict[str, Any]:
        """Path B's hand-written tables as cells named like the rule version's parameters
        (``multipliers.10.7.kunkku``, ``classes.3.multiplier``, ``format.levels``, ``rounding.mode``):
        what the check computation holds as code. None: no prize (the digest's "—") or no such cell."""
        return {}

    def ruleset_check_cells(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The same cells as a rule version's parameters have them (and any further cell of the same
        tables the rule version adds)."""
        return {}

    def class_no(self, class_key: str) -> int:
        return int(class_key)

    def class_key(self, class_no: int) -> str:
        return str(class_no)
