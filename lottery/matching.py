"""Set-based classification of lines in the database, two independent ways (DESIGN §3 steps 2, 4).

Path A (the tier counts): one pass groups the draw's lines by the drawn numbers they hold
(``main_mask & drawn_mask``, the same for the secondary numbers, and the plus number); each group's
features (main hits as the popcount of its mask, additional number held, secondary hits, plus number
state) are computed once per group, and its class comes from a table *derived from the prize
engine*: its ``classify`` run on one constructed line per combination of features.

Path B (the winners and the check): the class tables are written out by hand from the digest
(§5.1-§5.4) and hits are a sum of single-bit tests, one per drawn number, in plain portable SQL;
a hand-written cheap condition keeps the lines that can win.

Settlement counts tiers with A and writes winners with B; the run is settled only when both agree.
Masks are interpolated as integer literals (they are ints computed here, never user text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any, Protocol

from .formats import LineFormat, ParsedResult
from .rules.bitmask import mask_to_picks

LINE_TABLE = "lottery_line"
DIRECT_ID_LIMIT = 2**32  # ids from the table's own sequence; retail COPY imports use batch * 2**32 + row


class NumberGame(Protocol):
    """What the SQL here needs of a number game (`lottery.games.numbers.NumberCodec`)."""

    path_b_classes: tuple[tuple[str, int], ...]
    path_b_plus_class: int | None
    path_b_format: dict[str, int]

    def line_format(self, params: Mapping[str, Any]) -> LineFormat: ...

    def engine_classify(self, f: LineFormat, params: Mapping[str, Any], picks: frozenset[int], secondary: int,
                        combo: Combo, plus: int | None) -> Any: ...

    def path_b_candidates(self, params: Mapping[str, Any], main_hits: str, secondary_hits: str, plus: str) -> str: ...


def popcount_sql(expr: str, vendor: str) -> str:
    if vendor == "postgresql":
        return f"bit_count(({expr})::bit(64))"
    return f"valvoja_popcount({expr})"


def sqlite_popcount(value: int | None) -> int | None:
    """The SQLite function behind ``valvoja_popcount`` (registered in LotteryConfig.ready)."""
    return None if value is None else int(value).bit_count()


def no_pullup(vendor: str) -> str:
    """Keeps a subquery from being flattened, so a column computed in it is computed once per row."""
    return "OFFSET 0" if vendor == "postgresql" else "LIMIT -1 OFFSET 0"


# ------------------------------------------------------------------------------------------------
# Path A: the class table derived from the engine
# ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Combo:
    hits: int
    additional: bool
    secondary: int
    plus: bool | None  # None: not a Plussa line


def _engine_class(game: NumberGame, f: LineFormat, params: Mapping[str, Any], c: Combo) -> tuple[str | None, bool]:
    """Classify one constructed line with the engine. Drawn: main 1..K, additional K+1, secondary
    1..S, plus number 1; the line takes the first `hits` drawn numbers and fills up with undrawn ones."""
    k = f.main_count
    picks = set(range(1, c.hits + 1))
    if c.additional:
        picks.add(k + 1)
    filler = k + 2
    while len(picks) < k:
        picks.add(filler)
        filler += 1
    plus = None if c.plus is None else (1 if c.plus else 2)
    res = game.engine_classify(f, params, frozenset(picks), c.secondary, c, plus)
    return res.class_key, bool(res.boosted)


def combos(f: LineFormat) -> list[Combo]:
    out = []
    for hits, add, sec, plus in product(
        range(f.main_count + 1),
        (False, True) if f.additional else (False,),
        range(f.secondary_count + 1),
        (None, False, True) if f.plus_max else (None,),
    ):
        if add and hits == f.main_count:
            continue  # every pick is a main number: the line cannot hold the additional number too
        out.append(Combo(hits, add, sec, plus))
    return out


def engine_class_table(game: NumberGame, params: Mapping[str, Any]) -> dict[Combo, int | None]:
    """Every feature combination -> code (class * 2 + boosted), None for a losing line."""
    f = game.line_format(params)
    table: dict[Combo, int | None] = {}
    for c in combos(f):
        key, boosted = _engine_class(game, f, params, c)
        table[c] = None if key is None else int(key) * 2 + int(boosted)
    return table


def decode(code: int) -> tuple[str, bool]:
    return str(code // 2), bool(code % 2)


@dataclass(frozen=True)
class Drawn:
    main: int
    additional: int
    secondary: int
    plus: int | None

    @classmethod
    def of(cls, r: ParsedResult) -> Drawn:
        return cls(int(r.main_mask), int(r.additional_mask), int(r.secondary_mask), None if r.plus is None else int(r.plus))


PLUS_STATE = {0: None, 1: False, 2: True}  # the `p` feature: not in Plussa, plus number wrong, right


def path_a_counts_sql(game: NumberGame, params: Mapping[str, Any], drawn: Drawn, draw_id: int) -> str:
    """Lines, stakes and add-on stakes of the draw grouped by the drawn numbers each line holds: its
    main mask and its secondary mask each ANDed with the drawn numbers, and its plus number. One pass
    with no function per line, cheaper than counting matches: at most 2**8 main groups for Lotto times
    the plus numbers. `path_a_groups` turns the groups into features and the engine-derived table
    classifies them (`classify_group`). The chunks are planned from the import records and the
    lines numbered by the table's own sequence (`direct_lines_sql`), not from this query. Plain SQL,
    the same on every database."""
    f = game.line_format(params)
    main = int(drawn.main) | (int(drawn.additional) if f.additional else 0)
    sec = f"extra_mask & {int(drawn.secondary)}" if f.secondary_count else "0"
    return (  # a constant 0 for the secondary numbers of a game without them stays out of the grouping
        f"SELECT main_mask & {main}, {sec}, plus, COUNT(*), SUM(stake_cents), SUM(addon_cents)"
        f" FROM {LINE_TABLE} WHERE draw_id = {int(draw_id)} GROUP BY 1, {'2, ' if f.secondary_count else ''}3"
    )


Features = tuple[int, int, int, int]  # (h main hits, s secondary hits, a additional held, p plus state)


def path_a_groups(rows, game: NumberGame, params: Mapping[str, Any], drawn: Drawn) -> list[tuple[Features, int, int, int]]:
    """Path A's groups (`path_a_counts_sql`: main and secondary masks of the drawn numbers held, plus
    number, lines, stakes, add-on stakes) merged by their features (h, s, a, p): main hits h and
    secondary hits s as popcounts of the held masks, a the additional number held, p the plus number
    state (0 not in Plussa, 1 wrong, 2 right; `PLUS_STATE`)."""
    f = game.line_format(params)
    merged: dict[Features, list[int]] = {}
    for main_held, sec_held, plus, n, stake, addon in rows:
        h = (int(main_held) & int(drawn.main)).bit_count()
        a = 1 if f.additional and int(main_held) & int(drawn.additional) else 0
        s = (int(sec_held) & int(drawn.secondary)).bit_count() if f.secondary_count else 0
        if plus is None:
            p = 0
        elif f.plus_max and drawn.plus is not None and int(plus) == int(drawn.plus):
            p = 2
        else:
            p = 1
        slot = merged.setdefault((h, s, a, p), [0, 0, 0])
        slot[0] += int(n)
        slot[1] += int(stake or 0)
        slot[2] += int(addon or 0)
    return [(features, n, stake, addon) for features, (n, stake, addon) in sorted(merged.items())]


def direct_lines_sql(draw_id: int) -> str:
    """Count and id range of the draw's lines numbered by the table's own sequence (below 2**32; a
    PostgreSQL retail import numbers its lines in a range of its own, see services.retail). On
    PostgreSQL only the first partition holds them, read through its BRIN index on draw_id."""
    return (f"SELECT COUNT(*), MIN(id), MAX(id) FROM {LINE_TABLE}"
            f" WHERE draw_id = {int(draw_id)} AND id < {DIRECT_ID_LIMIT}")


def classify_group(table: Mapping[Combo, int | None], h: int, s: int, a: int, p: int) -> int | None:
    """The code (class * 2 + boosted) of a group of lines by the engine-derived table; KeyError for a
    combination no valid line can have (e.g. a plus number in a game without Plussa)."""
    return table[Combo(int(h), bool(a), int(s), PLUS_STATE[int(p)])]


# ------------------------------------------------------------------------------------------------
# Path B: the digest's tables written out by hand, hits as sums of bit tests
# ------------------------------------------------------------------------------------------------

def _bits(column: str, mask: int) -> str:
    numbers = mask_to_picks(mask)
    if not numbers:
        return "0"
    return " + ".join(f"(({column} >> {n - 1}) & 1)" for n in numbers)


def _plussa(params: Mapping[str, Any]) -> list[int]:
    plussa = params.get("plussa") or {}
    return [int(c) for c in plussa.get("classes", [])]


# Path B's class tables are written out by hand from the digest in each number game's module
# (`NumberGame.path_b_classes`, `path_b_plus_class`, `path_b_format`, `path_b_candidates`). They are
# never read from a rule version: `lottery.check_tables` compares a rule version with them when it is
# published and refuses one they cannot settle.

def number_check_cells(game: NumberGame) -> dict[str, Any]:
    """Path B's tables as cells named like the rule version's parameters (`lottery.check_tables`):
    the list of classes and the format values its class conditions assume."""
    classes = [c for _, c in game.path_b_classes]
    if game.path_b_plus_class is not None:
        classes.append(game.path_b_plus_class)
    cells: dict[str, Any] = {"classes": ", ".join(str(c) for c in classes)}
    cells.update({f"format.{key}": value for key, value in game.path_b_format.items()})
    return cells


def number_ruleset_cells(game: NumberGame, params: Mapping[str, Any]) -> dict[str, Any]:
    """The same cells read from a rule version's parameters."""
    classes = params.get("classes")
    keys = [str(c.get("class")) if isinstance(c, Mapping) else repr(c) for c in classes] \
        if isinstance(classes, list) else [repr(classes)]
    fmt = params.get("format") if isinstance(params.get("format"), Mapping) else {}
    cells: dict[str, Any] = {"classes": ", ".join(keys)}
    cells.update({f"format.{key}": fmt.get(key) for key in game.path_b_format})
    return cells


def path_b_class_sql(game: NumberGame, params: Mapping[str, Any]) -> str:
    """Class number from the columns h (main hits), a (additional 0/1), s (secondary hits), plus_ok."""
    rows = [f"WHEN {condition} THEN {c}" for condition, c in game.path_b_classes]
    if game.path_b_plus_class is not None and params.get("plussa"):
        rows.append(f"WHEN plus_ok = 1 THEN {game.path_b_plus_class}")
    return "CASE " + " ".join(rows) + " END"


def path_b_candidates_sql(game: NumberGame, params: Mapping[str, Any], drawn: Drawn, vendor: str) -> str:
    """A cheap condition every winning line meets (more lines may): only those are classified. Hand-
    written in the game's module like its tables; were it to leave out a winner, the check would find
    it missing."""
    main = popcount_sql(f"main_mask & {drawn.main | drawn.additional}", vendor)
    plus = f" OR plus = {drawn.plus}" if params.get("plussa") and drawn.plus is not None else ""
    stars = popcount_sql(f"extra_mask & {drawn.secondary}", vendor)
    return game.path_b_candidates(params, main, stars, plus)


def path_b_features_sql(drawn: Drawn) -> str:
    plus_ok = f"CASE WHEN plus = {drawn.plus} THEN 1 ELSE 0 END" if drawn.plus is not None else "0"
    return (
        f"{_bits('main_mask', drawn.main)} AS h, "
        f"{_bits('main_mask', drawn.additional)} AS a, "
        f"{_bits('extra_mask', drawn.secondary)} AS s, "
        f"{plus_ok} AS plus_ok"
    )


def draw_filter_sql(draw_id: int, lo: int, vendor: str) -> str:
    """The draw condition of a chunk of ids starting at `lo`. On PostgreSQL the ids of a COPY retail
    import (from DIRECT_ID_LIMIT up) lie in its batch's own id span, in partitions whose CHECK
    constraint binds every line to the import's draw (lottery.services.retail), so the id range
    alone selects the draw's lines; testing draw_id, a late column, on every line would cost a
    tenth of the pass. Lines numbered by the table's own sequence share one table: tested."""
    if vendor == "postgresql" and int(lo) >= DIRECT_ID_LIMIT:
        return ""
    return f"draw_id = {int(draw_id)} AND "


def path_b_select_sql(
    game: NumberGame, params: Mapping[str, Any], drawn: Drawn, draw_id: int, lo: int, hi: int, vendor: str,
) -> str:
    """The winners among the draw's lines with lo <= id < hi: id, wager_id, cls (class), bst (1:
    boosted by Plussa), by path B's own code."""
    boosted = _plussa(params) if params.get("plussa") else []
    boost = (f"CASE WHEN plus_ok = 1 AND cls IN ({', '.join(map(str, boosted))}) THEN 1 ELSE 0 END"
             if boosted else "0")
    keep = no_pullup(vendor)
    return (
        f"SELECT id, wager_id, cls, {boost} AS bst FROM ("
        f"  SELECT id, wager_id, plus_ok, {path_b_class_sql(game, params)} AS cls FROM ("
        f"    SELECT id, wager_id, {path_b_features_sql(drawn)} FROM {LINE_TABLE}"
        f"    WHERE {draw_filter_sql(draw_id, lo, vendor)}id >= {int(lo)} AND id < {int(hi)}"
        f"    AND {path_b_candidates_sql(game, params, drawn, vendor)} {keep}"
        f"  ) f {keep}"
        ") c WHERE cls IS NOT NULL"
    )


def prize_sql(prizes: Mapping[int, int], cls: str = "cls", bst: str = "bst") -> str:
    """A winner's prize from its class and boost: ``prizes`` maps code (class * 2 + boosted) -> cents,
    from the engine's result. A class the counts did not see gets -1, which the check reports."""
    whens = " ".join(f"WHEN {int(c)} THEN {int(p)}" for c, p in sorted(prizes.items()))
    return f"CASE {cls} * 2 + {bst} {whens} ELSE -1 END" if prizes else "-1"


def path_b_insert_sql(
    game: NumberGame, params: Mapping[str, Any], drawn: Drawn, draw_id: int, run_id: int,
    prizes: Mapping[int, int], lo: int, hi: int, vendor: str,
) -> str:
    """INSERT the winners among the draw's lines with lo <= id < hi, with their prizes."""
    return (
        "INSERT INTO lottery_winning (run_id, line_id, wager_id, class_no, boosted, prize_cents) "
        f"SELECT {int(run_id)}, id, wager_id, cls, bst = 1, {prize_sql(prizes)} FROM ("
        f"{path_b_select_sql(game, params, drawn, draw_id, lo, hi, vendor)}) w ORDER BY id"
    )


# PostgreSQL, side by side with path A: path B's winners wait in the connection's temporary table
# until the engine has given the prizes (lottery.services.settlement).

def held_winners_sql() -> list[str]:
    """Create (or empty) the session's temporary table of winners waiting for their prizes."""
    return ["CREATE TEMPORARY TABLE IF NOT EXISTS settle_winners (chunk bigint NOT NULL, line_id bigint NOT NULL,"
            " wager_id bigint NOT NULL, class_no smallint NOT NULL, bst smallint NOT NULL)",
            "TRUNCATE pg_temp.settle_winners"]


def path_b_hold_sql(game: NumberGame, params: Mapping[str, Any], drawn: Drawn, draw_id: int, chunk: int,
                    lo: int, hi: int) -> str:
    """Path B's winners of a chunk into the session's temporary table, tagged with the chunk."""
    return (f"INSERT INTO pg_temp.settle_winners (chunk, line_id, wager_id, class_no, bst)"
            f" SELECT {int(chunk)}, id, wager_id, cls, bst FROM"
            f" ({path_b_select_sql(game, params, drawn, draw_id, lo, hi, 'postgresql')}) w")


def path_b_release_sql(run_id: int, prizes: Mapping[int, int], chunk: int) -> str:
    """Write a chunk's held winners with their prizes, in line order."""
    return ("INSERT INTO lottery_winning (run_id, line_id, wager_id, class_no, boosted, prize_cents)"
            f" SELECT {int(run_id)}, line_id, wager_id, class_no, bst = 1, {prize_sql(prizes, 'class_no')}"
            f" FROM pg_temp.settle_winners WHERE chunk = {int(chunk)} ORDER BY line_id")
