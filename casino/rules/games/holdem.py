"""Hold'em-style games against the dealer (docs/casino/holdem.md), part 1:

* Ultimate Texas Hold'em with Trips and Progressive (000-casino C-6; 004 Ch.4);
* Texas Hold'em Ante/Bet with Bonus and electronic bonus (004 Ch.3).

The shared parts of every community-card game against the dealer live here too (the table record
in the outcome, hands through phevaluator, settling a bet on an allowed part of its stake, jackpot
tables, exact category counts for house edges); ``dynamic_poker.py`` uses them.

Raises (UTH play, Hold'em bet, Dynamic Poker flop/turn/river, Riverside call) are bets of their own
in the round's ``bets`` list; the outcome records the decision and the street it was made on, and the
two must agree. A raise is not an initial stake: its limit class (``poker_raise``) is in no venue, so
it is never limited (000-casino Ambiguity 4). A stake the rules do not allow (a play of 4x ante on
the river, a trips bet above the ante) is settled on the largest part the rules allow, the rest is
returned, and the bet carries a violation.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, prod
from typing import Any

from ..base import (
    BASE,
    JACKPOT,
    LOST,
    PUSH,
    SIDE,
    VOID,
    WON,
    ZERO,
    Bet,
    BetResult,
    EngineError,
    parse_money,
    to_cents_down,
    win,
)
from ..cards import CATEGORIES, RANK_VALUE, Card, category, is_royal, no_duplicates, parse_cards, rank_high
from ..fields import BOX_CARDS, DEALER_CARDS, Boxes, Field
from ._data import ratio

#: Five-card hands best first: the royal flush is a category of its own for paytables.
HANDS = ("royal_flush", *CATEGORIES)
RAISE_CLASS = "poker_raise"  # in no venue's table: raises are not limited (000-casino Ambiguity 4)
INITIAL_CLASS = "poker_box"


# ---------------------------------------------------------------------------------------- rule data


def need(variant: Mapping[str, Any], key: str, what: str = "") -> Any:
    """A required value of the variant's rule data (EngineError ``rules.<key>`` when missing or null)."""
    if not isinstance(variant, Mapping):
        raise EngineError("rules", "the rule data must be a JSON object")
    value = variant.get(key)
    if value is None:
        raise EngineError(f"rules.{key}", f"is required{': ' + what if what else ''} (no default is invented)")
    return value


def odds_text(odds: Fraction) -> str:
    """Odds as the rulebooks write them: 35:1, 3:2."""
    return f"{odds.numerator}:{odds.denominator}"


def hand_table(variant: Mapping[str, Any], key: str) -> dict[str, Fraction]:
    """A paytable by five-card hand (``royal_flush`` .. ``high_card``); hands not listed do not win."""
    table = need(variant, key)
    if not isinstance(table, Mapping):
        raise EngineError(f"rules.{key}", "an object: hand -> odds")
    out = {}
    for hand, odds in table.items():
        if hand not in HANDS:
            raise EngineError(f"rules.{key}.{hand}", f"is not a hand: {', '.join(HANDS)}")
        out[hand] = ratio(odds, f"rules.{key}.{hand}")
    return out


def flag(variant: Mapping[str, Any], key: str) -> bool:
    value = need(variant, key)
    if not isinstance(value, bool):
        raise EngineError(f"rules.{key}", "true or false")
    return value


def clause(variant: Mapping[str, Any], key: str) -> str:
    """The rule clause a result cites, from the variant's ``clauses``."""
    clauses = need(variant, "clauses")
    if not isinstance(clauses, Mapping) or not isinstance(clauses.get(key), str):
        raise EngineError(f"rules.clauses.{key}", "is required: the rule clause results cite")
    return clauses[key]


# -------------------------------------------------------------------------------------------- hands


#: The community cards in deal order (flop, turn, river).
BOARD = Field("board", "cards", "Community cards (flop, turn, river)")


@dataclasses.dataclass(frozen=True)
class Hand:
    """The best five of some cards: phevaluator's rank (1 = royal flush; lower is better), category."""

    rank: int
    category: str
    counts: tuple[tuple[int, int], ...]  # (rank value, how many) of the cards evaluated

    def of_a_kind(self, n: int) -> int:
        """The highest rank value held exactly ``n`` times (0 if none)."""
        return max((r for r, c in self.counts if c == n), default=0)


def evaluate(cards: Sequence[Card]) -> Hand:
    rank = rank_high(cards)
    name = "royal_flush" if is_royal(rank) else category(rank)
    return Hand(rank, name, tuple(sorted(Counter(c.rank for c in cards).items())))


def better_or_equal(hand_name: str, than: str) -> bool:
    return HANDS.index(hand_name) <= HANDS.index(than)


def rank_value(text: Any, field: str) -> int:
    if not isinstance(text, str) or text.upper().replace("10", "T") not in RANK_VALUE:
        raise EngineError(field, "a card rank: 2-9, T, J, Q, K or A")
    return RANK_VALUE[text.upper().replace("10", "T")]


def at_least(hand: Hand, spec: Any, field: str) -> bool:
    """Does ``hand`` reach ``spec`` = {"hand": "pair", "pair_rank": "4"} (pair_rank optional)?"""
    if not isinstance(spec, Mapping) or spec.get("hand") not in HANDS:
        raise EngineError(f"{field}.hand", f"a hand: {', '.join(HANDS)}")
    if not better_or_equal(hand.category, spec["hand"]):
        return False
    if spec.get("pair_rank") is not None and hand.category == spec["hand"] == "pair":
        return hand.of_a_kind(2) >= rank_value(spec["pair_rank"], f"{field}.pair_rank")
    return True


def compare(player: Hand, dealer: Hand) -> int:
    """1 if the player's best five beats the dealer's, -1 if it loses, 0 if equal (a tie)."""
    return (player.rank < dealer.rank) - (player.rank > dealer.rank)


# ------------------------------------------------------------------------------------ the table record


@dataclasses.dataclass(frozen=True)
class Box:
    number: int
    cards: tuple[Card, ...]
    actions: Mapping[str, str]
    where: str  # "outcome.boxes.1"


@dataclasses.dataclass(frozen=True)
class Table:
    dealer: tuple[Card, ...]
    board: tuple[Card, ...]
    boxes: Mapping[int, Box]

    def hand(self, box: Box, board_cards: int = 5) -> Hand:
        if len(self.board) < board_cards:
            raise EngineError("outcome.board", f"{board_cards} cards are needed to settle box {box.number}")
        return evaluate((*box.cards, *self.board[:board_cards]))

    def dealer_hand(self) -> Hand:
        if len(self.board) < 5:
            raise EngineError("outcome.board", "5 cards are needed for the showdown")
        return evaluate((*self.dealer, *self.board))


def box_of(bet: Bet) -> int:
    return 1 if bet.box is None else bet.box


def parse_table(outcome: Mapping[str, Any], boxes_with_bets: set[int], streets: Mapping[str, set[str]]) -> Table:
    """The outcome: dealer's two cards, the board in deal order (0-5 cards: what the settlement needs) and
    each box's two cards and recorded decisions ``{"street": "play" | "check" | "fold"}`` (``streets``: allowed per street)."""
    unknown = set(outcome) - {"dealer", "board", "boxes", "progressive_pot", "electronic_bonus_pot"}
    if unknown:
        raise EngineError(f"outcome.{sorted(unknown)[0]}", "is not an outcome field of this game")
    if "dealer" not in outcome:
        raise EngineError("outcome.dealer", "is required: the dealer's two cards")
    dealer = parse_cards(outcome["dealer"], "outcome.dealer", count=2)
    board = parse_cards(outcome.get("board", []), "outcome.board", maximum=5)
    raw = outcome.get("boxes")
    if not isinstance(raw, Mapping) or not raw:
        raise EngineError("outcome.boxes", "an object: box number -> {\"cards\": ..., \"actions\": {...}}")
    boxes: dict[int, Box] = {}
    for key, value in raw.items():
        where = f"outcome.boxes.{key}"
        if not str(key).isdigit() or not 1 <= int(key) <= 99:
            raise EngineError(where, "a box number from 1 to 99")
        if not isinstance(value, Mapping):
            raise EngineError(where, "an object with `cards` and `actions`")
        extra = set(value) - {"cards", "actions"}
        if extra:
            raise EngineError(f"{where}.{sorted(extra)[0]}", "is not a box field (cards, actions)")
        if "cards" not in value:
            raise EngineError(f"{where}.cards", "is required: the box's two cards")
        cards = parse_cards(value["cards"], f"{where}.cards", count=2)
        actions = value.get("actions", {})
        if not isinstance(actions, Mapping):
            raise EngineError(f"{where}.actions", "an object: street -> decision")
        for street, act in actions.items():
            if street not in streets:
                raise EngineError(f"{where}.actions.{street}", f"is not a street of this game: {', '.join(streets)}")
            if act not in streets[street]:
                raise EngineError(f"{where}.actions.{street}", f"{act!r} is not one of: {', '.join(sorted(streets[street]))}")
        boxes[int(key)] = Box(int(key), tuple(cards), dict(actions), where)
    for number in sorted(boxes_with_bets - set(boxes)):
        raise EngineError(f"outcome.boxes.{number}", f"is required: box {number} has bets")
    no_duplicates(
        [("outcome.dealer", dealer), ("outcome.board", board)]
        + [(f"{b.where}.cards", b.cards) for b in boxes.values()]
    )
    return Table(tuple(dealer), tuple(board), boxes)


def group_bets(bets: Sequence[Bet], types: Mapping[str, str], required: Sequence[str],
               params: Mapping[str, set[str]] | None = None) -> dict[int, dict[str, Bet]]:
    """Bets by box and type; unknown types or params, a type twice on a box, a side bet without the
    game's mandatory bets: EngineError naming the bet."""
    by_box: dict[int, dict[str, Bet]] = {}
    for bet in bets:
        if bet.type not in types:
            raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(types)}")
        allowed = (params or {}).get(bet.type, set())
        for key in bet.params:
            if key not in allowed:
                raise EngineError(f"{bet.where}.{key}", f"is not a field of a {bet.type} bet")
        box = by_box.setdefault(box_of(bet), {})
        if bet.type in box:
            raise EngineError(f"{bet.where}.type", f"box {box_of(bet)} has two {bet.type} bets")
        box[bet.type] = bet
    for number, box in by_box.items():
        for kind in required:
            if kind not in box:
                first = next(iter(box.values()))
                raise EngineError(f"{first.where}.type",
                                  f"box {number} has no {kind} bet: the game is played only with "
                                  f"{' and '.join(required)}")
    return by_box


# ------------------------------------------------------------------------------------------ results


def settle_on(bet: Bet, part: Decimal, verdict: str, odds: Fraction | None, rule: str, *,
              category: str = BASE, note: str = "", violations: Sequence[str] = ()) -> BetResult:
    """Settle ``part`` of the bet's stake (``win`` at ``odds``:1, ``lose``, ``push``, ``void``); the rest of the
    stake, which the rules did not allow, is returned with it."""
    extra = bet.stake - part
    if verdict == "win":
        status, returned, winnings = WON, bet.stake, win(part, odds)
    elif verdict == "lose":
        status, returned, winnings = LOST, extra, ZERO
    elif verdict == "push":
        status, returned, winnings = PUSH, bet.stake, ZERO
    else:
        status, returned, winnings = VOID, bet.stake, ZERO
    if extra and verdict != "void":
        note = f"{note}; " if note else ""
        note += f"{extra} of the stake is not allowed by the rules and is returned"
    return BetResult(bet.index, status, returned=returned, winnings=winnings, rule=rule, category=category,
                     note=note, violations=tuple(violations))


def capped_to(bet: Bet, most: Decimal, what: str) -> tuple[Decimal, list[str]]:
    """The part of a stake not above ``most`` (a rule such as "trips at most the ante"), and the violation."""
    if bet.stake <= most:
        return bet.stake, []
    return most, [f"{bet.type} {bet.stake} is above {what} ({most}); settled on {most}"]


def jackpot_result(bet: Bet, spec_key: str, variant: Mapping[str, Any], hand: Hand,
                   outcome: Mapping[str, Any], pot_key: str, rule: str) -> BetResult:
    """A progressive / electronic bonus bet paid from its rule version's table: per hand either
    ``{"pot_percent": "10"}`` of the pot shown (``outcome.<pot_key>``), ``{"fixed": "500.00"}`` or
    ``{"odds": "50"}``. Every key is required (the digests leave the table to the game instructions)."""
    spec = need(variant, spec_key, "the jackpot table of the game instructions")
    if not isinstance(spec, Mapping):
        raise EngineError(f"rules.{spec_key}", "an object with hand, stake_returned and paytable")
    for key in ("hand", "stake_returned", "paytable"):
        if spec.get(key) is None:
            raise EngineError(f"rules.{spec_key}.{key}", "is required (no default is invented)")
    table = spec["paytable"]
    if not isinstance(table, Mapping):
        raise EngineError(f"rules.{spec_key}.paytable", "an object: hand -> {pot_percent|fixed|odds}")
    for name in table:
        if name not in HANDS:
            raise EngineError(f"rules.{spec_key}.paytable.{name}", f"is not a hand: {', '.join(HANDS)}")
    entry = table.get(hand.category)
    if entry is None:
        return settle_on(bet, bet.stake, "lose", None, f"{rule}: {hand.category} is not in the table",
                         category=JACKPOT)
    where = f"rules.{spec_key}.paytable.{hand.category}"
    if not isinstance(entry, Mapping) or len(entry) != 1 or next(iter(entry)) not in ("pot_percent", "fixed", "odds"):
        raise EngineError(where, "one of {\"pot_percent\": \"10\"}, {\"fixed\": \"500.00\"}, {\"odds\": \"50\"}")
    kind, value = next(iter(entry.items()))
    if kind == "odds":
        amount = win(bet.stake, ratio(value, f"{where}.odds"))
    elif kind == "fixed":
        amount = parse_money(value, f"{where}.fixed")
    else:
        if pot_key not in outcome:
            raise EngineError(f"outcome.{pot_key}", "is required: the pot shown when the round began")
        pot = parse_money(outcome[pot_key], f"outcome.{pot_key}", allow_zero=True)
        amount = to_cents_down(Fraction(pot) * ratio(value, f"{where}.pot_percent") / 100)
    returned = bet.stake if spec["stake_returned"] is True else ZERO
    return BetResult(bet.index, WON, returned=returned, winnings=amount,
                     rule=f"{rule}: {hand.category}, {kind.replace('_', ' ')} {value}", category=JACKPOT)


# -------------------------------------------------------------------------- exact category counts


def _straight_high(ranks: set[int]) -> int:
    """The highest straight's top card among distinct rank values (A-2-3-4-5 counts, top 5), or 0."""
    for top in range(14, 4, -1):
        if all((r if r != 1 else 14) in ranks for r in range(top - 4, top + 1)):
            return top
    return 0


def _rank_category(vector: Sequence[tuple[int, int]]) -> tuple[str, int]:
    """The category of cards with no flush, from (rank value, count); with the pair's rank for a pair."""
    counts = sorted((c for _, c in vector), reverse=True)
    if counts[0] >= 4:
        return "four_of_a_kind", 0
    if counts[0] == 3 and counts[1] >= 2:
        return "full_house", 0
    if _straight_high({r for r, c in vector if c}):
        return "straight", 0
    if counts[0] == 3:
        return "three_of_a_kind", 0
    if counts[0] == 2 and counts[1] == 2:
        return "two_pair", 0
    if counts[0] == 2:
        return "pair", max(r for r, c in vector if c == 2)
    return "high_card", 0


def _vectors(n_ranks: int, cards: int):
    """Every way to hold ``cards`` cards over ``n_ranks`` ranks, at most 4 of each (a count per rank)."""
    if n_ranks == 0:
        if cards == 0:
            yield ()
        return
    for c in range(min(4, cards) + 1):
        for rest in _vectors(n_ranks - 1, cards - c):
            yield (c, *rest)


@cache
def category_counts(cards: int, ranks: tuple[int, ...] = tuple(range(2, 15))) -> dict[tuple[str, int], int]:
    """How many ``cards``-card hands (5-7) from a deck of ``ranks`` x 4 suits have each best-five category,
    counted combinatorially (no hand is dealt): key (category, pair rank or 0).

    A hand with five or more cards of one suit is a flush or better; with at most 7 cards it can then
    be neither four of a kind nor a full house, so it is a flush, straight flush or royal flush by its
    suited ranks alone. Every other hand's category follows from its ranks; its suit patterns are
    counted and those with five of a suit taken out.
    """
    if not 5 <= cards <= 7:
        raise ValueError("5 to 7 cards")
    out: Counter[tuple[str, int]] = Counter()
    others = 3 * len(ranks)
    for k in range(5, cards + 1):
        for suited in combinations(ranks, k):
            top = _straight_high(set(suited))
            name = "royal_flush" if top == 14 else "straight_flush" if top else "flush"
            out[(name, 0)] += 4 * comb(others, cards - k)
    for vector in _vectors(len(ranks), cards):
        total = prod(comb(4, c) for c in vector)
        # Ways one given suit takes m of the cards: a product over ranks of (not that suit + that suit x).
        poly = [1]
        for c in vector:
            if c:
                term = (comb(3, c), comb(3, c - 1))
                poly = [sum(poly[i] * term[m - i] for i in range(len(poly)) if 0 <= m - i <= 1)
                        for m in range(len(poly) + 1)]
        flushes = 4 * sum(poly[5:])
        out[_rank_category(list(zip(ranks, vector)))] += total - flushes
    return dict(out)


def probabilities(cards: int, ranks: tuple[int, ...] = tuple(range(2, 15))) -> dict[tuple[str, int], Fraction]:
    counts = category_counts(cards, ranks)
    total = comb(4 * len(ranks), cards)
    assert sum(counts.values()) == total
    return {key: Fraction(n, total) for key, n in counts.items()}


def edge_of(outcomes: Mapping[Any, tuple[Fraction, Fraction | None]]) -> Fraction:
    """House edge of a bet from {outcome: (probability, odds or None = loses)} (stake returned on a win)."""
    expected = sum((p * (odds if odds is not None else -1) for p, odds in outcomes.values()), Fraction(0))
    return -expected


# ------------------------------------------------------------------------ Ultimate Texas Hold'em

UTH_STREETS = ("dark", "preflop", "flop", "river")


def play_multiples(variant: Mapping[str, Any]) -> dict[str, list[Fraction]]:
    table = need(variant, "play_multiples")
    if not isinstance(table, Mapping) or "river" not in table:
        raise EngineError("rules.play_multiples", "an object: street -> allowed multiples of the ante, with river")
    out = {}
    for street in UTH_STREETS:
        if street in table:
            values = table[street]
            if not isinstance(values, list) or not values:
                raise EngineError(f"rules.play_multiples.{street}", "a list of multiples such as [\"3\", \"4\"]")
            out[street] = sorted(ratio(v, f"rules.play_multiples.{street}") for v in values)
    for street in table:
        if street not in UTH_STREETS:
            raise EngineError(f"rules.play_multiples.{street}", f"is not a street: {', '.join(UTH_STREETS)}")
    return out


def decide(box: Box, order: Sequence[str], last: str) -> tuple[str, str | None, list[str]]:
    """The hand's decision from the recorded actions: ("play", street) or ("fold", street), with violations.
    A street without a record is a check; after the decision nothing more may be recorded."""
    decision: tuple[str, str] | None = None
    violations: list[str] = []
    for street in order:
        act = box.actions.get(street)
        if act is None:
            continue
        if decision is not None:
            raise EngineError(f"{box.where}.actions.{street}",
                              f"the hand was already decided ({decision[0]} at {decision[1]})")
        if act in ("play", "fold"):
            decision = (act, street)
    if decision is None:
        raise EngineError(f"{box.where}.actions.{last}",
                          f"is required: a hand not played before must play or fold at the {last}")
    if decision[0] == "fold" and decision[1] != last:
        violations.append(f"fold at {decision[1]}: the rules give a fold only at the {last}; settled as a fold")
    return decision[0], decision[1], violations


def play_part(play: Bet, unit: Decimal, multiples: Mapping[str, list[Fraction]], street: str,
              order: Sequence[str], rule: str) -> tuple[Decimal, list[str]]:
    """The part of a play / raise the rules allow: the recorded multiple of ``unit`` if the street allows
    it; else the largest multiple this street or a later one allows, not above the stake (the rest is
    returned); 0 when none fits."""
    m = Fraction(play.stake) / Fraction(unit) if unit else Fraction(0)
    if m in multiples[street]:
        return play.stake, []
    later = order[order.index(street):]
    fits = [x for s in later for x in multiples.get(s, []) if x <= m]
    said = f"{float(m):g}x" if m.denominator != 1 else f"{m}x"
    allowed = ", ".join(f"{x}x" for x in multiples[street])
    if not fits:
        return ZERO, [f"{play.type} of {play.stake} ({said}) at {street}: {rule} allows {allowed}; "
                      "no allowed size fits, the bet is void and the hand counts as folded"]
    best = max(fits)
    part = to_cents_down(Fraction(unit) * best)
    return part, [f"{play.type} of {play.stake} ({said}) at {street}: {rule} allows {allowed}; "
                  f"settled as {best}x ({part})"]


class UltimateTexasHoldem:
    """Ultimate Texas Hold'em: ante = blind, optional trips and progressive; one play per hand."""

    game = "ultimate_texas_holdem"
    TYPES = {"ante": BASE, "blind": BASE, "play": BASE, "trips": SIDE, "progressive": JACKPOT}
    outcome_fields = (
        DEALER_CARDS,
        BOARD,
        Boxes("boxes", "Boxes", keyed=True, fields=(
            BOX_CARDS,
            Field("actions.dark", "choice", "Decision before the cards", choices=("play",)),
            Field("actions.preflop", "choice", "Decision before the flop", choices=("play", "check", "fold")),
            Field("actions.flop", "choice", "Decision on the flop", choices=("play", "check", "fold")),
            Field("actions.river", "choice", "Decision on the river", choices=("play", "fold")),
        )),
        Field("progressive_pot", "amount", "Progressive pot shown"),
    )

    def __init__(self, rulebook: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.variants = variants

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return RAISE_CLASS if bet.type == "play" else INITIAL_CLASS

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        group_bets(bets, self.TYPES, ("ante", "blind"))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        multiples = play_multiples(variant)
        order = [s for s in UTH_STREETS if s in multiples]
        streets = {s: ({"play"} if s == "dark" else {"play", "fold"} if s == "river" else {"play", "check", "fold"})
                   for s in order}
        by_box = group_bets(bets, self.TYPES, ("ante", "blind"))
        table = parse_table(outcome, set(by_box), streets)
        results: dict[int, BetResult] = {}
        for number, box_bets in by_box.items():
            for r in self._box(variant, multiples, order, table, table.boxes[number], box_bets, outcome):
                results[r.index] = r
        return [results[b.index] for b in bets]

    def _box(self, variant, multiples, order, table: Table, box: Box, bets: Mapping[str, Bet], outcome):
        ante, blind = bets["ante"], bets["blind"]
        size_rule = clause(variant, "play_size")
        violations: list[str] = []
        unit = min(ante.stake, blind.stake)
        if ante.stake != blind.stake:
            violations.append(f"ante {ante.stake} and blind {blind.stake} must be equal "
                              f"({clause(variant, 'equal_stakes')}); both settled on {unit}")
        act, street, more = decide(box, order, "river")
        violations += more
        play = bets.get("play")
        out: list[BetResult] = []
        play_amount = ZERO
        if act == "play":
            if play is None:
                raise EngineError(f"{box.where}.actions.{street}", f"box {box.number} played but has no play bet")
            play_amount, more = play_part(play, unit, multiples, street, order, size_rule)
            violations += more
            if not play_amount:
                act = "fold"
                out.append(settle_on(play, ZERO, "void", None, f"{size_rule}: play size not allowed",
                                     violations=more))
        elif play is not None:
            raise EngineError(f"{play.where}.type", f"box {box.number} folded at {street} but has a play bet")
        player = table.hand(box)
        odds1 = ratio(need(variant, "even_money"), "rules.even_money")
        if act == "fold":
            rule = clause(variant, "fold")
            for b in (ante, blind):
                out.append(settle_on(b, unit, "lose", None, f"{rule}: fold, ante and blind lose",
                                     violations=violations))
        else:
            dealer = table.dealer_hand()
            qualifies = at_least(dealer, need(variant, "dealer_qualifies"), "rules.dealer_qualifies")
            result = compare(player, dealer)
            blind_table = hand_table(variant, "blind_paytable")
            note = f"player {player.category}, dealer {dealer.category}" + ("" if qualifies else " (does not qualify)")
            if result > 0:
                rule = clause(variant, "win" if qualifies else "no_game")
                out.append(settle_on(ante, unit, "win" if qualifies else "push", odds1,
                                     f"{rule}: ante {'1:1' if qualifies else 'push, dealer does not qualify'}",
                                     note=note, violations=violations))
                out.append(settle_on(play, play_amount, "win", odds1, f"{rule}: play 1:1", note=note,
                                     violations=violations))
                odds = blind_table.get(player.category)
                out.append(settle_on(blind, unit, "win" if odds is not None else "push", odds,
                                     f"{clause(variant, 'blind')}: blind "
                                     + (f"{player.category} {odds_text(odds)}" if odds is not None else "push below the table"),
                                     note=note, violations=violations))
            elif result < 0:
                rule = clause(variant, "lose" if qualifies else "no_game")
                out.append(settle_on(ante, unit, "lose" if qualifies else "push", None,
                                     f"{rule}: ante {'loses' if qualifies else 'push, dealer does not qualify'}",
                                     note=note, violations=violations))
                out.append(settle_on(play, play_amount, "lose", None, f"{rule}: play loses", note=note,
                                     violations=violations))
                out.append(settle_on(blind, unit, "lose", None, f"{rule}: blind loses", note=note,
                                     violations=violations))
            else:
                rule = clause(variant, "tie")
                for b, part in ((ante, unit), (play, play_amount), (blind, unit)):
                    out.append(settle_on(b, part, "push", None, f"{rule}: equal hands, push", note=note,
                                         violations=violations))
        trips = bets.get("trips")
        if trips is not None:
            part, more = (capped_to(trips, ante.stake, "the ante") if flag(variant, "trips_at_most_ante")
                          else (trips.stake, []))
            rule = clause(variant, "trips")
            if act == "fold" and not flag(variant, "trips_on_fold"):
                out.append(settle_on(trips, part, "lose", None, f"{rule}: trips lost with the fold",
                                     category=SIDE, violations=more))
            else:
                odds = hand_table(variant, "trips_paytable").get(player.category)
                out.append(settle_on(trips, part, "win" if odds is not None else "lose", odds,
                                     f"{rule}: trips {player.category}" + (f" {odds_text(odds)}" if odds is not None else " loses"),
                                     category=SIDE, violations=more))
        progressive = bets.get("progressive")
        if progressive is not None:
            spec = need(variant, "progressive", "the progressive table of the game instructions")
            cards = spec.get("hand") if isinstance(spec, Mapping) else None
            if cards not in ("best_five_of_seven", "hole_and_flop"):
                raise EngineError("rules.progressive.hand", "is required: \"best_five_of_seven\" or \"hole_and_flop\"")
            hand = player if cards == "best_five_of_seven" else table.hand(box, 3)
            out.append(jackpot_result(progressive, "progressive", variant, hand, outcome, "progressive_pot",
                                      clause(variant, "progressive")))
        return out


# ------------------------------------------------------------------------- Texas Hold'em Ante/Bet


class TexasHoldemAnteBet:
    """Texas Hold'em against the dealer (004 Ch.3): ante, bet = 2 x ante after the flop, bonus on the flop."""

    game = "texas_holdem"
    TYPES = {"ante": BASE, "bet": BASE, "bonus": SIDE, "electronic_bonus": JACKPOT}
    outcome_fields = (
        DEALER_CARDS,
        BOARD,
        Boxes("boxes", "Boxes", keyed=True, fields=(
            BOX_CARDS, Field("actions.flop", "choice", "Decision on the flop", choices=("play", "fold")))),
        Field("electronic_bonus_pot", "amount", "Electronic bonus pot shown"),
    )

    def __init__(self, rulebook: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.variants = variants

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return RAISE_CLASS if bet.type == "bet" else INITIAL_CLASS

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        group_bets(bets, self.TYPES, ("ante",))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        by_box = group_bets(bets, self.TYPES, ("ante",))
        table = parse_table(outcome, set(by_box), {"flop": {"play", "fold"}})
        multiple = ratio(need(variant, "bet_multiple"), "rules.bet_multiple")
        results: dict[int, BetResult] = {}
        for number, box_bets in by_box.items():
            box = table.boxes[number]
            for r in self._box(variant, multiple, table, box, box_bets, outcome):
                results[r.index] = r
        return [results[b.index] for b in bets]

    def _box(self, variant, multiple, table: Table, box: Box, bets: Mapping[str, Bet], outcome):
        ante, bet = bets["ante"], bets.get("bet")
        act, _, _ = decide(box, ("flop",), "flop")
        out: list[BetResult] = []
        violations: list[str] = []
        bet_amount = ZERO
        if act == "play":
            if bet is None:
                raise EngineError(f"{box.where}.actions.flop", f"box {box.number} played but has no bet")
            bet_amount, violations = play_part(bet, ante.stake, {"flop": [multiple]}, "flop", ("flop",),
                                               clause(variant, "bet_size"))
            if not bet_amount:
                act = "fold"
                out.append(settle_on(bet, ZERO, "void", None, f"{clause(variant, 'bet_size')}: bet size not allowed",
                                     violations=violations))
        elif bet is not None:
            raise EngineError(f"{bet.where}.type", f"box {box.number} folded but has a bet")
        ante_table = hand_table(variant, "ante_paytable")
        if act == "fold":
            out.append(settle_on(ante, ante.stake, "lose", None, f"{clause(variant, 'fold')}: fold, ante loses",
                                 violations=violations))
        else:
            player, dealer = table.hand(box), table.dealer_hand()
            qualifies = at_least(dealer, need(variant, "dealer_qualifies"), "rules.dealer_qualifies")
            note = f"player {player.category}, dealer {dealer.category}" + ("" if qualifies else " (no game)")
            odds = ante_table.get(player.category)
            if odds is None:
                raise EngineError(f"rules.ante_paytable.{player.category}", "is required: every hand has an ante payout")
            result = compare(player, dealer)
            if not qualifies:
                rule = clause(variant, "no_game")
                out.append(settle_on(ante, ante.stake, "win", odds, f"{rule}: dealer has no game, ante "
                                     f"{player.category} {odds_text(odds)}", note=note, violations=violations))
                out.append(settle_on(bet, bet_amount, "push", None, f"{rule}: dealer has no game, bet not paid",
                                     note=note, violations=violations))
            elif result > 0:
                rule = clause(variant, "win")
                out.append(settle_on(ante, ante.stake, "win", odds, f"{rule}: ante {player.category} {odds_text(odds)}",
                                     note=note, violations=violations))
                out.append(settle_on(bet, bet_amount, "win", ratio(need(variant, "even_money"), "rules.even_money"),
                                     f"{rule}: bet 1:1", note=note, violations=violations))
            elif result < 0:
                rule = clause(variant, "lose")
                for b, part in ((ante, ante.stake), (bet, bet_amount)):
                    out.append(settle_on(b, part, "lose", None, f"{rule}: dealer higher, {b.type} loses",
                                         note=note, violations=violations))
            else:
                rule = clause(variant, "tie")
                for b, part in ((ante, ante.stake), (bet, bet_amount)):
                    out.append(settle_on(b, part, "push", None, f"{rule}: stay (equal hands)", note=note,
                                         violations=violations))
        flop_hand = table.hand(box, 3)
        bonus = bets.get("bonus")
        if bonus is not None:
            part, more = capped_to(bonus, ante.stake, "the ante") if flag(variant, "bonus_at_most_ante") else (
                bonus.stake, [])
            rule = clause(variant, "bonus")
            if act == "fold" and not flag(variant, "bonus_on_fold"):
                out.append(settle_on(bonus, part, "lose", None, f"{rule}: bonus lost with the fold", category=SIDE,
                                     violations=more))
            else:
                hit = at_least(flop_hand, need(variant, "bonus_minimum"), "rules.bonus_minimum")
                odds = ratio(need(variant, "bonus_odds"), "rules.bonus_odds")
                out.append(settle_on(bonus, part, "win" if hit else "lose", odds,
                                     f"{rule}: bonus {flop_hand.category} on the flop "
                                     + (f"{odds_text(odds)}" if hit else "loses"), category=SIDE, violations=more))
        electronic = bets.get("electronic_bonus")
        if electronic is not None:
            out.append(jackpot_result(electronic, "electronic_bonus", variant, flop_hand, outcome,
                                      "electronic_bonus_pot", clause(variant, "electronic_bonus")))
        return out


# ------------------------------------------------------------------------------------ rule versions

_BLIND_000 = {"royal_flush": "500", "straight_flush": "50", "four_of_a_kind": "10", "full_house": "3",
              "flush": "3/2", "straight": "1"}
_TRIPS = {"royal_flush": "50", "straight_flush": "40", "four_of_a_kind": "30", "full_house": "8", "flush": "7",
          "straight": "4", "three_of_a_kind": "3"}

UTH_000 = {
    "standard": {
        "title": "Ultimate Texas Hold'em (+ Trips, + Progressive), casino (000-casino C-6, L1752-1850)",
        "play_multiples": {"preflop": ["3", "4"], "flop": ["2"], "river": ["1"]},
        "dealer_qualifies": {"hand": "pair"},
        "even_money": "1",
        "blind_paytable": _BLIND_000,
        "trips_paytable": _TRIPS,
        "trips_on_fold": True,
        "trips_at_most_ante": False,
        "progressive": None,
        "clauses": {
            "play_size": "000-casino C-6 (L1780, L1784, L1792)",
            "equal_stakes": "000-casino C-6 (L1770)",
            "win": "000-casino C-6 (L1800-1802 a)",
            "lose": "000-casino C-6 (L1803 b)",
            "tie": "000-casino C-6 (L1804 c, L1813 c)",
            "no_game": "000-casino C-6 (L1807-1813)",
            "blind": "000-casino C-6 blind table (L1816-1824)",
            "trips": "000-casino C-6 trips (L1826-1838), E12",
            "fold": "000-casino C-6 (L1794)",
            "progressive": "000-casino C-6 progressive (L1840-1850)",
        },
    },
}

UTH_004 = {
    "standard": {
        "title": "Ultimate Texas Hold'em poker (004 Ch.4)",
        "play_multiples": {"dark": ["1", "2", "4"], "preflop": ["1", "2", "3", "4"], "flop": ["1", "2"],
                           "river": ["1"]},
        "dealer_qualifies": {"hand": "pair"},
        "even_money": "1",
        "blind_paytable": dict(_BLIND_000),
        "trips_paytable": _TRIPS,
        "trips_on_fold": True,
        "trips_at_most_ante": True,
        "progressive": None,
        "clauses": {
            "play_size": "004 Ch.4 §4.1.7, §4.1.10-§4.1.12 (A8)",
            "equal_stakes": "004 Ch.4 §4.1.4, §4.2.6",
            "win": "004 Ch.4 §4.1.13, §4.1.15",
            "lose": "004 Ch.4 §4.1.13 (A7)",
            "tie": "004 Ch.4 §4.1.14(3) (A37)",
            "no_game": "004 Ch.4 §4.1.14",
            "blind": "004 Ch.4 table 4.2.1 (A7)",
            "trips": "004 Ch.4 table 4.2.4, §4.2.5 (A9)",
            "fold": "004 Ch.4 §4.1.12, Ch.2 §2.7 (A9)",
            "progressive": "004 Ch.4 (no progressive in the rulebook)",
        },
    },
}

HOLDEM_004 = {
    "standard": {
        "title": "Texas Hold'em poker, Ante/Bet against the dealer with Bonus (004 Ch.3)",
        "bet_multiple": "2",
        "dealer_qualifies": {"hand": "pair", "pair_rank": "4"},
        "even_money": "1",
        "ante_paytable": {"royal_flush": "100", "straight_flush": "20", "four_of_a_kind": "10", "full_house": "3",
                          "flush": "2", "straight": "1", "three_of_a_kind": "1", "two_pair": "1", "pair": "1",
                          "high_card": "1"},
        "bonus_minimum": {"hand": "pair", "pair_rank": "A"},
        "bonus_odds": "7",
        "bonus_at_most_ante": True,
        "bonus_on_fold": True,
        "electronic_bonus": None,
        "clauses": {
            "bet_size": "004 Ch.3 §3.1.10",
            "fold": "004 Ch.3 §3.1.10",
            "no_game": "004 Ch.3 §3.1.14, table 3.2.1 (A4)",
            "win": "004 Ch.3 §3.1.17, table 3.2.1",
            "lose": "004 Ch.3 §3.1.18",
            "tie": "004 Ch.3 §3.1.19",
            "bonus": "004 Ch.3 §3.1.11 (A34)",
            "electronic_bonus": "004 Ch.3 §3.1.11 electronic bonus (A5)",
        },
    },
}


def house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """Exact house edge of the side bets of a UTH or Hold'em rule version, from its own tables:
    trips on the best five of seven cards; the Hold'em bonus on the five cards of hole + flop."""
    edges: dict[str, Fraction] = {}
    if "trips_paytable" in variant:
        table = hand_table(variant, "trips_paytable")
        probs = probabilities(7)
        edges["trips"] = edge_of({k: (p, table.get(k[0])) for k, p in probs.items()})
    if "bonus_minimum" in variant:
        odds = ratio(need(variant, "bonus_odds"), "rules.bonus_odds")
        spec = need(variant, "bonus_minimum")
        outcomes = {}
        for (name, pair), p in probabilities(5).items():
            hand = Hand(0, name, ((pair, 2),) if pair else ())
            outcomes[(name, pair)] = (p, odds if at_least(hand, spec, "rules.bonus_minimum") else None)
        edges["bonus"] = edge_of(outcomes)
    return edges


ENGINES = [
    UltimateTexasHoldem("000", UTH_000),
    UltimateTexasHoldem("004", UTH_004),
    TexasHoldemAnteBet("004", HOLDEM_004),
]
