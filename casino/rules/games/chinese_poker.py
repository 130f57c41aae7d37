"""Chinese Poker scoring between players: the JSON kind ``chinese_poker`` (docs/casino/pai_gow.md).

Chinese Poker and Chinese Open Poker (000-casino C-4, L1503-1527) are played between players for
points of an agreed money value; the digest defines the rows, the setting rule and, as the example of
the scoring the gaming room announces, **1-3 scoring**. Open Faced Chinese of the live-poker rulebook
(001 §2.15, §3.8) defines a complete scoring: rows, the scoop, the bonus table, fouls and the cash
game's 50-point loss cap. Neither is a game against the house, so this is a kind of its own, not a
round: it says what each player wins from each other player.

Five-card rows are ranked by phevaluator (standard ranking, A-2-3-4-5 the lowest straight); the
three-card front by this module (high card, pair, three of a kind: straights and flushes do not count).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..base import EngineError, money_str, parse_money, require
from ..cards import RANKS, Card, category, parse_cards, rank_high
from ..jsonio import KINDS

ROWS = ("front", "middle", "back")
SIZES = {"front": 3, "middle": 5, "back": 5}
GAMES = {
    "000": ("chinese_poker", "chinese_open_poker", "chinese_open_poker_pineapple"),
    "001": ("open_faced_chinese",),
}
INPUT_KEYS = {"kind", "rulebook", "game", "scoring", "point_value", "players", "button"}

#: 001 §2.15 R-15.2-R-15.6 as data (a published version with other numbers changes the computation).
OFC_SCORING: dict[str, Any] = {
    "method": "ofc",
    "row": 1,
    "scoop_extra": 3,
    "foul_penalty": 6,
    "front_bonus": {
        **{r * 2: n for r, n in zip("6789TJQKA", range(1, 10))},
        **{r * 3: n for r, n in zip("23456789TJQKA", range(10, 23))},
    },
    "middle_bonus": {"three_of_a_kind": 2, "straight": 4, "flush": 8, "full_house": 12, "four_of_a_kind": 20,
                     "straight_flush": 30, "royal_flush": 50},
    "back_bonus": {"straight": 2, "flush": 4, "full_house": 6, "four_of_a_kind": 10, "straight_flush": 15,
                   "royal_flush": 25},
    "max_loss": 50,
    "source": "001 §2.15 R-15.2-R-15.6, §3.8, A-36-A-38",
}
#: 000-casino C-4: the example scoring; the gaming room announces (and logs) the one it uses.
ONE_THREE_EXAMPLE = {"method": "1-3", "two_of_three": 1, "three_of_three": 3}


# ------------------------------------------------------------------------------------------ ranking


def front_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """A three-card front: (category, ranks by group) with 0 high card, 1 pair, 3 three of a kind."""
    counts = Counter(c.rank for c in cards)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    cat = {1: 0, 2: 1, 3: 3}[groups[0][0]]
    return (cat, *(r for _, r in groups))


_CAT_NUMBER = {"high_card": 0, "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5,
               "full_house": 6, "four_of_a_kind": 7, "straight_flush": 8}


def five_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """A five-card row on the front's scale: phevaluator's category, then ranks by group (for legality:
    the middle against the front; rows of five are compared with each other by phevaluator's rank)."""
    cat = _CAT_NUMBER[category(rank_high(cards))]
    counts = Counter(c.rank for c in cards)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return (cat, *(r for _, r in groups))


def _name(cards: Sequence[Card]) -> str:
    if len(cards) == 3:
        key = front_key(cards)
        label = {0: "high card", 1: "pair", 3: "three of a kind"}[key[0]]
    else:
        rank = rank_high(cards)
        label = "royal flush" if rank == 1 else category(rank).replace("_", " ")
    return f"{label} ({' '.join(str(c) for c in cards)})"


class OfcHand:
    def __init__(self, name: str, rows: dict[str, list[Card]]) -> None:
        self.name, self.rows = name, rows
        self.sizes_ok = all(len(rows[r]) == SIZES[r] for r in ROWS)
        self.foul_reason = ""
        if not self.sizes_ok:
            self.foul_reason = "rows of " + "/".join(str(len(rows[r])) for r in ROWS) + " cards, not 3/5/5"
            return
        self.front = front_key(rows["front"])
        self.middle = rank_high(rows["middle"])  # phevaluator: lower is better
        self.back = rank_high(rows["back"])
        if self.back > self.middle:
            self.foul_reason = "the back is lower than the middle"
        elif not self.front < five_key(rows["middle"]):
            self.foul_reason = "the front is not lower than the middle"

    @property
    def fouled(self) -> bool:
        return bool(self.foul_reason)

    def row_vs(self, other: OfcHand, row: str) -> int:
        """+1 if this hand's row beats the other's, -1 if it loses, 0 for a tie."""
        if row == "front":
            a, b = self.front, other.front
            return (a > b) - (a < b)
        a, b = getattr(self, row), getattr(other, row)
        return (a < b) - (a > b)


def _bonus(hand: OfcHand, row: str, scoring: Mapping[str, Any]) -> int:
    table = scoring[f"{row}_bonus"]
    cards = hand.rows[row]
    if row == "front":
        counts = Counter(c.rank for c in cards)
        rank, n = max(((r, n) for r, n in counts.items()), key=lambda x: (x[1], x[0]))
        return int(table.get(RANKS[rank - 2] * n, 0)) if n >= 2 else 0
    rank = rank_high(cards)
    return int(table.get("royal_flush" if rank == 1 else category(rank), 0))


# ------------------------------------------------------------------------------------------ scoring


def _pair_one_three(x: OfcHand, y: OfcHand, scoring: Mapping[str, Any]) -> tuple[int, str]:
    """1-3 scoring (000 C-4, L1509): two rows of three = `two_of_three`, all three = `three_of_three`."""
    two, three = int(scoring["two_of_three"]), int(scoring["three_of_three"])
    if x.fouled and y.fouled:
        return 0, "000-casino C-4: both hands set wrongly, no points (decision, as 001 A-38)"
    if x.fouled or y.fouled:
        sign = -1 if x.fouled else 1
        return sign * three, "000-casino C-4: a wrongly set hand loses to a correctly set hand (L1507): all three rows"
    results = [x.row_vs(y, r) for r in ROWS]
    wx, wy = results.count(1), results.count(-1)

    def points(won: int) -> int:
        return three if won == 3 else two if won == 2 else 0

    return points(wx) - points(wy), f"000-casino C-4: 1-3 scoring, rows {wx}-{wy} (L1509)"


def pair_ofc(x: OfcHand, y: OfcHand, scoring: Mapping[str, Any]) -> tuple[int, str]:
    """OFC (001 §3.8): +-1 a row, 3 extra for all three, bonuses by difference; a foul pays 6 + bonuses."""
    if x.fouled and y.fouled:
        return 0, "001 A-38: two fouled hands score 0 against each other"
    if x.fouled or y.fouled:
        legal, sign = (y, -1) if x.fouled else (x, 1)
        bonus = sum(_bonus(legal, r, scoring) for r in ROWS)
        return sign * (int(scoring["foul_penalty"]) + bonus), "001 R-15.5: a fouled hand pays 6 + the bonuses"
    results = [x.row_vs(y, r) for r in ROWS]
    rows = sum(results) * int(scoring["row"])
    if abs(sum(results)) == 3:
        rows += int(scoring["scoop_extra"]) * (1 if sum(results) > 0 else -1)
    bonus = sum(_bonus(x, r, scoring) - _bonus(y, r, scoring) for r in ROWS)
    return rows + bonus, f"001 R-15.2/R-15.3: rows {results.count(1)}-{results.count(-1)}, bonus {bonus:+d}"


def capped_losses(names: list[str], pts: dict[tuple[str, str], int], max_loss: int, button: str | None
            ) -> tuple[dict[tuple[str, str], Fraction], list[str]]:
    """001 R-15.6 / A-37: a player's net loss above `max_loss` points: he pays `max_loss` plus what he
    collects, shared by the players he lost to in proportion to their wins (largest remainder, equal
    fractions clockwise after the button)."""
    paid: dict[tuple[str, str], Fraction] = {k: Fraction(v) for k, v in pts.items()}
    notes = []
    start = names.index(button) + 1 if button in names else 0
    clockwise = names[start:] + names[:start]
    for loser in names:
        net = sum(pts[(loser, o)] for o in names if o != loser)
        if net >= -max_loss:
            continue
        collected = sum(pts[(loser, o)] for o in names if o != loser and pts[(loser, o)] > 0)
        owed = {o: -pts[(loser, o)] for o in names if o != loser and pts[(loser, o)] < 0}
        pool = max_loss + collected
        total = sum(owed.values())
        exact = {o: Fraction(pool * w, total) for o, w in owed.items()}
        share = {o: int(v) for o, v in exact.items()}
        left = pool - sum(share.values())
        order = sorted(owed, key=lambda o: (-(exact[o] - share[o]), clockwise.index(o)))
        for o in order[:left]:
            share[o] += 1
        for o, s in share.items():
            paid[(loser, o)], paid[(o, loser)] = Fraction(-s), Fraction(s)
        notes.append(f"{loser} would lose {-net} points: pays {pool} ("
                     + ", ".join(f"{o} {share[o]}" for o in owed) + ") under the 50-point cap (R-15.6, A-37)")
    return paid, notes


def chinese_poker(doc: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(doc) - INPUT_KEYS
    if unknown:
        raise EngineError(sorted(unknown)[0], f"is not a chinese_poker field ({', '.join(sorted(INPUT_KEYS))})")
    rulebook = require(doc, "rulebook", "")
    if rulebook not in GAMES:
        raise EngineError("rulebook", f"{rulebook!r} is not one of: {', '.join(GAMES)}")
    game = require(doc, "game", "")
    if game not in GAMES[rulebook]:
        raise EngineError("game", f"{game!r} is not one of: {', '.join(GAMES[rulebook])}")
    scoring = _scoring(doc, rulebook)
    point_value = parse_money(require(doc, "point_value", ""), "point_value")
    hands = _hands(require(doc, "players", ""))
    names = [h.name for h in hands]
    button = doc.get("button")
    if button is not None and button not in names:
        raise EngineError("button", f"{button!r} is not one of the players")
    pair_score = pair_ofc if scoring["method"] == "ofc" else _pair_one_three
    pts: dict[tuple[str, str], int] = {}
    pairs = []
    for i, x in enumerate(hands):
        for y in hands[i + 1:]:
            p, rule = pair_score(x, y, scoring)
            pts[(x.name, y.name)], pts[(y.name, x.name)] = p, -p
            pairs.append({"players": [x.name, y.name], "points": p, "rule": rule})
    paid: dict[tuple[str, str], Fraction] = {k: Fraction(v) for k, v in pts.items()}
    notes: list[str] = []
    if scoring["method"] == "ofc" and scoring.get("max_loss") is not None:
        paid, notes = capped_losses(names, pts, int(scoring["max_loss"]), button)
    for item in pairs:
        a, b = item["players"]
        if paid[(a, b)] != pts[(a, b)]:
            item["points_paid"] = int(paid[(a, b)])
    players = []
    for h in hands:
        net = sum((paid[(h.name, o)] for o in names if o != h.name), Fraction(0))
        item = {
            "player": h.name,
            "fouled": h.fouled,
            "rows": {r: _name(h.rows[r]) for r in ROWS} if h.sizes_ok else {},
            "points": int(net),
            "amount": money_str(Decimal(int(net)) * point_value),
        }
        if h.fouled:
            item["foul"] = h.foul_reason
        players.append(item)
    return {
        "game": game,
        "scoring": dict(scoring),
        "point_value": money_str(point_value),
        "players": players,
        "pairs": pairs,
        "notes": notes,
        "total_points": sum(p["points"] for p in players),
    }


def _scoring(doc: Mapping[str, Any], rulebook: str) -> Mapping[str, Any]:
    if rulebook == "001":
        scoring = doc.get("scoring", OFC_SCORING)
        if not isinstance(scoring, Mapping) or scoring.get("method") != "ofc":
            raise EngineError("scoring.method", "Open Faced Chinese scores by \"ofc\" (001 §2.15)")
    else:  # 000: the scoring is announced in the gaming room and logged (L1511): no default.
        if "scoring" not in doc:
            raise EngineError("scoring", "is required: the scoring announced and logged for the table (C-4, "
                              "L1511), e.g. {\"method\": \"1-3\", \"two_of_three\": 1, \"three_of_three\": 3}")
        scoring = doc["scoring"]
        if not isinstance(scoring, Mapping) or scoring.get("method") not in ("1-3", "ofc"):
            raise EngineError("scoring.method", "one of: 1-3, ofc")
    if scoring["method"] == "1-3":
        keys: tuple[str, ...] = ("two_of_three", "three_of_three")
    else:
        keys = ("row", "scoop_extra", "foul_penalty", "front_bonus", "middle_bonus", "back_bonus")
    for key in keys:
        if key not in scoring:
            raise EngineError(f"scoring.{key}", "is required")
    for key in (*keys, "max_loss"):
        value = scoring.get(key)
        if key.endswith("_bonus"):
            if not isinstance(value, Mapping) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in value.values()
            ):
                raise EngineError(f"scoring.{key}", "an object: hand -> whole number of points")
        elif value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000):
            raise EngineError(f"scoring.{key}", "a whole number of points from 0 to 1000")
    return scoring


def _hands(raw: Any) -> list[OfcHand]:
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        raise EngineError("players", "a list of 2-4 players (13 cards each from one deck)")
    hands, seen, names = [], {}, set()
    for i, item in enumerate(raw):
        where = f"players[{i}]"
        if not isinstance(item, Mapping):
            raise EngineError(where, "a player is an object with player, front, middle, back")
        extra = set(item) - {"player", "front", "middle", "back", "discards"}
        if extra:
            raise EngineError(f"{where}.{sorted(extra)[0]}", "is not a player field (player, front, middle, back, discards)")
        name = item.get("player")
        if not isinstance(name, str) or not 0 < len(name) <= 64 or name in names:
            raise EngineError(f"{where}.player", "a distinct player reference of 1-64 characters")
        names.add(name)
        rows = {}
        for row in ROWS:
            rows[row] = parse_cards(require(item, row, where), f"{where}.{row}", maximum=13)
        if sum(len(r) for r in rows.values()) != 13:
            raise EngineError(where, "a player sets exactly 13 cards")
        discards = parse_cards(item.get("discards", []), f"{where}.discards", maximum=8)
        for field, cards in [*((f"{where}.{r}", rows[r]) for r in ROWS), (f"{where}.discards", discards)]:
            for card in cards:
                if card in seen:
                    raise EngineError(field, f"{card} is dealt twice (also in {seen[card]}); one 52-card deck")
                seen[card] = field
        hands.append(OfcHand(name, rows))
    return hands


KINDS["chinese_poker"] = chinese_poker
ENGINES: list = []  # no house-banked round: scoring between players only
