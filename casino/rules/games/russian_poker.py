"""Russian poker (000-casino C-5 versions A-D; 004 §4.4 Ch.5) and Open Russian poker (004 §4.6 Ch.7).

Docs: docs/casino/russian_poker.md. The outcome is the cards as dealt and the player's recorded
decisions; the engine works out every hand, the dealer's qualification, the combinations (two
combinations in one hand included) and checks each decision against the version's rules. A decision
the version does not allow is reported in ``violations`` and the box is settled as if it had not
been taken.

Money put in during the round (the raise, the fee for an exchange, a sixth card or a bought dealer
game) is the ante bet's ``added_stake``: the raise is returned or lost with the ante, a fee is never
returned. Insurance is a bet of its own (its amount is the player's choice).

Ranking: the standard five-card order through phevaluator (:func:`casino.rules.cards.rank_high`,
best five of a six-card hand); Russian poker's own combinations (Ace-King, royal flush apart from
the straight flush, the significant cards of each combination, two combinations in one hand) are
this module's own code, checked against phevaluator in the tests.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
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
from ..cards import Card, no_duplicates, parse_cards, rank_high
from ..fields import BOX_CARDS, Boxes, Field
from ._data import need, ratio

# --------------------------------------------------------------------------------------- combinations

#: Russian poker's combinations, lowest first (000-casino C-5 ranking; 004 table 5.2).
CATEGORIES = (
    "no_game",
    "ace_king",
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
LEVEL = {c: i for i, c in enumerate(CATEGORIES)}
#: Own category -> phevaluator's (cards.CATEGORIES) for the cross-checks.
STANDARD = {
    "no_game": "high_card",
    "ace_king": "high_card",
    "pair": "pair",
    "two_pairs": "two_pair",
    "three_of_a_kind": "three_of_a_kind",
    "straight": "straight",
    "flush": "flush",
    "full_house": "full_house",
    "four_of_a_kind": "four_of_a_kind",
    "straight_flush": "straight_flush",
    "royal_flush": "straight_flush",
}
LABEL = {c: c.replace("_", " ") for c in CATEGORIES}
LABEL["ace_king"] = "ace & king"


def category_of(ranks: Sequence[int], flush: bool) -> str:
    """The combination of five cards given their ranks (2..14) and whether they are of one suit."""
    counts = sorted(Counter(ranks).values(), reverse=True)
    distinct = set(ranks)
    straight = len(distinct) == 5 and (max(distinct) - min(distinct) == 4 or distinct == {14, 2, 3, 4, 5})
    if straight and flush:
        return "royal_flush" if distinct == {10, 11, 12, 13, 14} else "straight_flush"
    if counts[0] == 4:
        return "four_of_a_kind"
    if counts[:2] == [3, 2]:
        return "full_house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three_of_a_kind"
    if counts[:2] == [2, 2]:
        return "two_pairs"
    if counts[0] == 2:
        return "pair"
    return "ace_king" if 14 in distinct and 13 in distinct else "no_game"


def classify5(cards: Sequence[Card]) -> tuple[str, frozenset[Card]]:
    """The combination of five cards and its significant cards (the cards that form it, 004 §5.4)."""
    cat = category_of([c.rank for c in cards], len({c.suit for c in cards}) == 1)
    counts = Counter(c.rank for c in cards)
    if cat in ("four_of_a_kind", "three_of_a_kind"):
        top = max(counts, key=lambda r: counts[r])
        sig = frozenset(c for c in cards if c.rank == top)
    elif cat in ("two_pairs", "pair"):
        sig = frozenset(c for c in cards if counts[c.rank] == 2)
    elif cat == "ace_king":
        sig = frozenset(c for c in cards if c.rank in (13, 14))
    elif cat == "no_game":
        sig = frozenset()
    else:  # straight, flush, full house, straight flush, royal flush: all five
        sig = frozenset(cards)
    return cat, sig


def _high_first(card: Card) -> tuple[int, str]:
    """Cards high rank first, then by suit: one order in every process (a frozenset's is not)."""
    return -card.rank, card.suit


@dataclass(frozen=True)
class Combo:
    category: str
    cards: frozenset[Card]  # significant cards
    strength: int  # phevaluator rank of the best five of the hand holding these cards (lower is better)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(sorted(c.rank for c in self.cards))

    def __str__(self) -> str:
        return (
            f"{LABEL[self.category]} ({' '.join(str(c) for c in sorted(self.cards, key=_high_first))})"
        )


def hand_rank(cards: Sequence[Card]) -> int:
    """phevaluator's rank of the best five of 5 or 6 cards (1 = royal flush; lower is better)."""
    return rank_high(cards)


def hand_category(cards: Sequence[Card]) -> str:
    """The best combination of 5 or 6 cards."""
    return max((classify5(sub)[0] for sub in itertools.combinations(cards, 5)), key=LEVEL.__getitem__)


def combos(cards: Sequence[Card]) -> list[Combo]:
    """Every combination the hand holds that is not merely part of a higher one.

    A combination is the category of some five of the cards with its significant cards, or an ace and
    a king (Ace-King is a combination of its own, 000-casino C-5 examples A,A,K,8,9 and 4,4,K,K,A).
    One contained in a higher combination (the pairs of two pairs, the three of a kind of a full
    house, an ace and king inside a straight) is dropped.
    """
    subsets = [(frozenset(s), rank_high(s)) for s in itertools.combinations(cards, 5)]
    found: set[tuple[str, frozenset[Card]]] = set()
    for sub, _ in subsets:
        cat, sig = classify5(sorted(sub))
        if cat != "no_game":
            found.add((cat, sig))
    for a in (c for c in cards if c.rank == 14):
        for k in (c for c in cards if c.rank == 13):
            found.add(("ace_king", frozenset((a, k))))
    kept = sorted(
        ((cat, sig) for cat, sig in found if not any(LEVEL[c2] > LEVEL[cat] and s2 >= sig for c2, s2 in found)),
        key=lambda combo: (-LEVEL[combo[0]], sorted(combo[1], key=_high_first)),
    )  # a fixed order: a set's order changes with the process's string hashing, and ties keep the first
    return [Combo(cat, sig, min(r for sub, r in subsets if sig <= sub)) for cat, sig in kept]


def double_odds(rules: Mapping[str, Any], hi: Combo, lo: Combo) -> Fraction | None:
    """Odds of two combinations paid together, or None when the pair does not count (000-casino C-5
    L1614-1642 and its condition; 004 §5.3-§5.6, A15)."""
    if LEVEL[lo.category] > LEVEL[hi.category]:
        hi, lo = lo, hi
    distinct = rules.get("double_distinct", "each")
    if distinct == "each":  # 000: each combination uses a card the other does not
        if not (hi.cards - lo.cards and lo.cards - hi.cards):
            return None
    elif not lo.cards - hi.cards:  # 004 §5.4(2): the second holds a significant card the first does not
        return None
    if hi.category == lo.category and not rules.get("double_same_ranks", True) and hi.ranks == lo.ranks:
        return None  # 004: two combinations of one kind must differ in rank (7,7,8,9,10,J is straight + pair)
    table = rules.get("double_table", {})
    key = f"{hi.category}+{lo.category}"
    if key in table:
        return ratio(table[key], f"rules.double_table.{key}")
    if rules.get("unlisted_doubles") == "sum":
        raise_table = rules["raise_table"]
        return ratio(raise_table[hi.category], "rules.raise_table") + ratio(
            raise_table[lo.category], "rules.raise_table"
        )
    return None


@dataclass(frozen=True)
class Payout:
    odds: Fraction
    label: str
    double: bool = False


def raise_payout(rules: Mapping[str, Any], cards: Sequence[Card], dealer_rank: int | None) -> Payout | None:
    """The best raise payout of the hand against a dealer hand of phevaluator rank `dealer_rank`
    (None: the hand's best possible payout, for the insurance maximum). None: nothing beats the dealer.

    A single combination pays when it beats the dealer; two combinations pay together when at least
    one of them beats the dealer (000-casino C-5 L1644; 004 §5.4(1), A16).
    """
    table = rules["raise_table"]
    found = combos(cards)

    def beats(c: Combo) -> bool:
        return dealer_rank is None or c.strength < dealer_rank

    best: Payout | None = None
    for c in found:
        if beats(c) and c.category in table:
            odds = ratio(table[c.category], f"rules.raise_table.{c.category}")
            if best is None or odds > best.odds:
                best = Payout(odds, LABEL[c.category])
    for a, b in itertools.combinations(found, 2):
        if not (beats(a) or beats(b)):
            continue
        odds = double_odds(rules, a, b)
        if odds is not None and (best is None or odds > best.odds):
            hi, lo = (a, b) if LEVEL[a.category] >= LEVEL[b.category] else (b, a)
            best = Payout(odds, f"{hi} + {lo}", True)
    return best


# ------------------------------------------------------------------------------------------ rule data

RAISE_000 = {
    "royal_flush": "100",
    "straight_flush": "50",
    "four_of_a_kind": "20",
    "full_house": "7",
    "flush": "5",
    "straight": "4",
    "three_of_a_kind": "3",
    "two_pairs": "2",
    "pair": "1",
    "ace_king": "1",
}
DOUBLE_000 = {
    "pair+ace_king": "2",
    "two_pairs+ace_king": "3",
    "three_of_a_kind+ace_king": "4",
    "straight+ace_king": "5",
    "flush+ace_king": "6",
    "full_house+ace_king": "8",
    "four_of_a_kind+ace_king": "21",
    "straight_flush+ace_king": "51",
    "two_pairs+two_pairs": "4",
    "flush+pair": "6",
    "straight_flush+pair": "51",
    "royal_flush+pair": "101",
    "straight+straight": "8",
    "flush+straight": "9",
    "flush+flush": "10",
    "full_house+full_house": "14",
    "four_of_a_kind+full_house": "27",
    "straight_flush+straight": "54",
    "straight_flush+flush": "55",
    "straight_flush+straight_flush": "100",
    "royal_flush+straight": "104",
    "royal_flush+flush": "105",
    "royal_flush+straight_flush": "150",
}
BONUS_000 = {
    "royal_flush": "5000",
    "straight_flush": "1000",
    "four_of_a_kind": "250",
    "full_house": "150",
    "flush": "100",
    "straight": "50",
}

VERSION_A: dict[str, Any] = {
    "source": "000-casino C-5",
    "max_boxes": 6,
    "raise_antes": "2",
    "fee_antes": "1",
    "max_exchange": 5,
    "improvements": 1,
    "dealer_qualifies": "ace_king",
    "bought_game_qualifies": "pair",
    "no_game_ante": "1",
    "raise_table": RAISE_000,
    "double_table": DOUBLE_000,
    "unlisted_doubles": "none",
    "double_distinct": "each",
    "double_same_ranks": True,
    "dark_boxes": False,
    "bonus": {
        "table": BONUS_000,
        "after_improvement": "lost",
        "on_fold": "lost",
        "declare": False,
        "min": None,
        "max_antes": None,
    },
    "insurance": {"min_hand": "three_of_a_kind", "min_antes": "1", "max_of_raise_win": "1/2"},
}
VERSIONS_000 = {
    "A": VERSION_A,
    "B": {**VERSION_A, "max_exchange": 3},
    "C": {**VERSION_A, "max_exchange": 2},
    "D": {**VERSION_A, "bonus": {**VERSION_A["bonus"], "declare": True}},
}

RAISE_004 = dict(RAISE_000)
DOUBLE_004 = {
    "pair+ace_king": "2",
    "two_pairs+two_pairs": "4",
    "three_of_a_kind+ace_king": "4",
    "straight+pair": "5",
    "flush+pair": "6",
    "straight+straight": "8",
    "flush+straight": "9",
    "flush+flush": "10",
    "full_house+full_house": "14",
    "four_of_a_kind+full_house": "27",
    "straight_flush+straight": "54",
    "straight_flush+flush": "55",
    "straight_flush+straight_flush": "100",
    "royal_flush+straight": "104",
    "royal_flush+flush": "105",
    "royal_flush+straight_flush": "150",
}
RUSSIAN_004: dict[str, Any] = {
    "source": "004 Ch.5",
    "max_boxes": 2,
    "max_boxes_with_dark": 4,
    "raise_antes": "2",
    "fee_antes": "1",
    "max_exchange": 5,
    "improvements": 1,
    "dealer_qualifies": "ace_king",
    "bought_game_qualifies": "ace_king",
    "no_game_ante": "1",
    "raise_table": RAISE_004,
    "double_table": DOUBLE_004,
    "unlisted_doubles": "sum",
    "double_distinct": "second",
    "double_same_ranks": False,
    "dark_boxes": True,
    "bonus": {
        "table": {
            "ace_king_suited": "2",
            "three_of_a_kind": "10",
            "straight": "40",
            "flush": "50",
            "full_house": "100",
            "four_of_a_kind": "200",
        },
        # Straight flush and royal flush pay a share of the electronic jackpot that depends on the
        # table's limits (004 §5.9.4, A11): not in the rulebook, so required from the rule version.
        "jackpot_share": {"straight_flush": None, "royal_flush": None},
        "after_improvement": "dealt",
        "on_fold": "settled",
        "declare": False,
        "min": "5.00",
        "max_antes": "1",
    },
    "insurance": {"min_hand": "three_of_a_kind", "min_antes": "1", "max_of_raise_win": "1"},
}
OPEN_RUSSIAN_004: dict[str, Any] = {
    **RUSSIAN_004,
    "source": "004 Ch.7 (Ch.5 rules)",
    "max_boxes": 4,
    "max_boxes_with_dark": 4,
    "dark_boxes": False,
    "raise_table": {**RAISE_004, "two_pairs": "1"},
}

# ------------------------------------------------------------------------------------------ outcome


@dataclass
class BoxPlay:
    """One box's hand and decisions, after checking them against the rules."""

    box: int
    dealt: list[Card]
    hand: list[Card]
    dark: bool = False
    improvement: str | None = None  # "exchange" or "sixth_card"
    fees: int = 0  # how many fees (each fee_antes x ante) the box paid
    declared: bool = False  # 000 version D: bonus hand declared before improving
    decision: str | None = None  # "raise" or "fold"
    bought: bool = False
    violations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class Table:
    dealer: list[Card]
    dealer_rank: int
    dealer_category: str
    dealer_qualifies: bool
    bought_dealer: list[Card] | None
    boxes: dict[int, BoxPlay]
    raw_boxes: dict[int, Mapping[str, Any]]
    outcome: Mapping[str, Any]


ACTIONS = ("declare_bonus", "exchange", "sixth_card", "raise", "fold", "buy_game")


def _box_number(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
        raise EngineError(where, "a box number from 1 to 99")
    return value


def parse_table(
    rules: Mapping[str, Any],
    outcome: Mapping[str, Any],
    dark: set[int],
    src: str,
    skip_play: set[int] = frozenset(),
) -> Table:
    """Read and check the outcome: the dealer's cards, each box's cards and decisions."""
    dealer = parse_cards(outcome.get("dealer"), "outcome.dealer", count=5)
    raw = outcome.get("boxes")
    if not isinstance(raw, list) or not raw:
        raise EngineError(
            "outcome.boxes", 'a list of boxes: {"box": 1, "cards": "As Kd ...", "actions": [...]}'
        )
    limit = rules.get("max_boxes_with_dark", rules["max_boxes"]) if dark else rules["max_boxes"]
    if len(raw) > limit:
        raise EngineError("outcome.boxes", f"at most {limit} boxes play ({src})")
    groups: list[tuple[str, list[Card]]] = [("outcome.dealer", dealer)]
    boxes: dict[int, BoxPlay] = {}
    raw_boxes: dict[int, Mapping[str, Any]] = {}
    parsed_actions: dict[int, list[tuple[str, Mapping[str, Any], list[Card], list[Card]]]] = {}
    for i, item in enumerate(raw):
        where = f"outcome.boxes[{i}]"
        if not isinstance(item, Mapping):
            raise EngineError(where, "a box is an object with box, cards and actions")
        unknown = set(item) - {"box", "cards", "actions"}
        if unknown:
            raise EngineError(f"{where}.{sorted(unknown)[0]}", "is not a box field (box, cards, actions)")
        number = _box_number(item.get("box"), f"{where}.box")
        if number in boxes:
            raise EngineError(f"{where}.box", f"box {number} is given twice")
        cards = parse_cards(item.get("cards"), f"{where}.cards", count=5)
        groups.append((f"{where}.cards", cards))
        actions = item.get("actions", [])
        if not isinstance(actions, list):
            raise EngineError(f"{where}.actions", 'a list of decisions such as {"action": "raise"}')
        steps = []
        for j, act in enumerate(actions):
            aw = f"{where}.actions[{j}]"
            if not isinstance(act, Mapping):
                raise EngineError(aw, 'a decision is an object such as {"action": "raise"}')
            name = act.get("action")
            if name not in ACTIONS:
                raise EngineError(f"{aw}.action", f"{name!r} is not one of: {', '.join(ACTIONS)}")
            allowed = {"action"} | (
                {"out", "in"} if name == "exchange" else {"card"} if name == "sixth_card" else set()
            )
            extra = set(act) - allowed
            if extra:
                raise EngineError(
                    f"{aw}.{sorted(extra)[0]}", f"is not a field of {name} ({', '.join(sorted(allowed))})"
                )
            out_cards: list[Card] = []
            in_cards: list[Card] = []
            if name == "exchange":
                out_cards = parse_cards(act.get("out"), f"{aw}.out", minimum=1, maximum=5)
                in_cards = parse_cards(act.get("in"), f"{aw}.in", count=len(out_cards))
                groups.append((f"{aw}.in", in_cards))
                if len(set(out_cards)) != len(out_cards):
                    raise EngineError(f"{aw}.out", "a card is named twice")
            elif name == "sixth_card":
                in_cards = parse_cards(act.get("card"), f"{aw}.card", count=1)
                groups.append((f"{aw}.card", in_cards))
            steps.append((name, act, out_cards, in_cards))
        boxes[number] = BoxPlay(number, cards, list(cards), dark=number in dark)
        raw_boxes[number] = item
        parsed_actions[number] = steps
    replacement = outcome.get("dealer_replacement")
    repl_cards = None
    if replacement is not None:
        repl_cards = parse_cards(replacement, "outcome.dealer_replacement", count=1)
        groups.append(("outcome.dealer_replacement", repl_cards))
    unknown = set(outcome) - {"dealer", "boxes", "dealer_replacement", "bonus_jackpot"}
    if unknown:
        raise EngineError(
            f"outcome.{sorted(unknown)[0]}",
            "is not an outcome field (dealer, boxes, dealer_replacement, bonus_jackpot)",
        )
    no_duplicates(groups)
    dealer_cat = classify5(dealer)[0]
    qualifies = LEVEL[dealer_cat] >= LEVEL[rules["dealer_qualifies"]]
    for number, play in boxes.items():
        if number in skip_play:
            if parsed_actions[number]:
                play.violations.append(
                    f"{src}: the box's game ended with the deal (Novo Jackpot); "
                    "its recorded decisions are ignored"
                )
            continue
        _play_box(
            rules, play, parsed_actions[number], qualifies, src, f"outcome.boxes[{list(boxes).index(number)}]"
        )
    buyers = [p for p in boxes.values() if p.bought]
    bought_dealer = None
    if buyers:
        if repl_cards is None:
            raise EngineError(
                "outcome.dealer_replacement",
                "required: a box bought the dealer a game (the card that replaced his highest card)",
            )
        top = max(dealer, key=lambda c: c.rank)
        bought_dealer = [repl_cards[0] if c == top else c for c in dealer]
    elif repl_cards is not None and qualifies:
        raise EngineError(
            "outcome.dealer_replacement", "the dealer had a game: no card of his can be replaced"
        )
    return Table(dealer, hand_rank(dealer), dealer_cat, qualifies, bought_dealer, boxes, raw_boxes, outcome)


def _play_box(
    rules: Mapping[str, Any], play: BoxPlay, steps, dealer_qualifies: bool, src: str, where: str
) -> None:
    """Apply the recorded decisions in order; one the rules do not allow is reported and ignored."""
    bonus_rules = rules.get("bonus") or {}
    for j, (name, act, out_cards, in_cards) in enumerate(steps):
        aw = f"{where}.actions[{j}]"
        if play.decision == "fold":
            play.violations.append(f"{src}: {name} after folding is not possible; ignored")
            continue
        if name == "declare_bonus":
            if not bonus_rules.get("declare"):
                play.violations.append(f"{src}: this version has no declaring of a bonus hand; ignored")
            elif play.improvement or play.decision:
                play.violations.append(
                    f"{src} version D: a bonus hand is declared before exchanging or buying; ignored"
                )
            else:
                play.declared = True
            continue
        if name in ("exchange", "sixth_card"):
            if play.decision:
                play.violations.append(f"{src}: {name} after the {play.decision} is not allowed; ignored")
            elif play.dark and name == "exchange":
                play.violations.append(
                    f"{src} (004 §5.10.2): a dark box may only buy a sixth card; exchange ignored"
                )
            elif play.improvement:
                play.violations.append(
                    f"{src}: one exchange or sixth card per hand (000-casino C-5 options 3-4; "
                    f"004 §5.1.11(6), A13); the second ({name}) is ignored"
                )
            elif name == "exchange" and len(out_cards) > rules["max_exchange"]:
                play.violations.append(
                    f"{src}: at most {rules['max_exchange']} cards may be exchanged in this "
                    f"version, not {len(out_cards)}; the exchange is ignored"
                )
            else:
                if name == "exchange":
                    missing = [c for c in out_cards if c not in play.hand]
                    if missing:
                        raise EngineError(f"{aw}.out", f"{missing[0]} is not in the box's hand")
                    play.hand = [c for c in play.hand if c not in out_cards] + in_cards
                else:
                    play.hand = play.hand + in_cards
                play.improvement = name
                play.fees += 1
            continue
        if name in ("raise", "fold"):
            if play.decision:
                play.violations.append(f"{src}: a second decision ({name}) after {play.decision}; ignored")
            elif play.dark and name == "fold":
                play.violations.append(
                    f"{src} (Ch.2 §2.5, §5.10.1): a dark box's bet stands before the deal and "
                    "cannot fold; settled as played"
                )
                play.decision = "raise"
            else:
                play.decision = name
            continue
        # buy_game
        if play.decision != "raise" and not play.dark:
            play.violations.append(f"{src}: the dealer's game is bought after raising; ignored")
        elif dealer_qualifies:
            play.violations.append(f"{src}: the dealer has a game, there is nothing to buy; ignored")
        elif play.bought:
            play.violations.append(f"{src}: the dealer's game is bought once; the second purchase is ignored")
        else:
            play.bought = True
            play.fees += 1
    if play.dark:
        play.decision = "raise"
    if play.decision is None:
        raise EngineError(
            f"{where}.actions",
            "the player's decision is missing: the actions must end with "
            '{"action": "raise"} or {"action": "fold"}',
        )


# -------------------------------------------------------------------------------------------- engine


def check_rules(rules: Any) -> Mapping[str, Any]:
    if not isinstance(rules, Mapping):
        raise EngineError("rules", "the variant's rule data must be a JSON object")
    for key in (
        "raise_table",
        "raise_antes",
        "fee_antes",
        "max_exchange",
        "dealer_qualifies",
        "bought_game_qualifies",
        "no_game_ante",
        "max_boxes",
    ):
        need(rules, key, "rules")
    for key in ("dealer_qualifies", "bought_game_qualifies"):
        if rules[key] not in LEVEL:
            raise EngineError(f"rules.{key}", f"one of {', '.join(CATEGORIES)}")
    for cat, value in rules["raise_table"].items():
        if cat not in LEVEL:
            raise EngineError(
                f"rules.raise_table.{cat}", f"is not a combination ({', '.join(CATEGORIES[1:])})"
            )
        ratio(value, f"rules.raise_table.{cat}")
    for key, value in (rules.get("double_table") or {}).items():
        parts = key.split("+")
        if len(parts) != 2 or not all(p in LEVEL for p in parts) or LEVEL[parts[0]] < LEVEL[parts[1]]:
            raise EngineError(
                f"rules.double_table.{key}", 'a pair "higher+lower" of combinations such as "pair+ace_king"'
            )
        ratio(value, f"rules.double_table.{key}")
    return rules


def frac(value: Any, where: str) -> Fraction:
    return ratio(value, where)


def result(
    bet: Bet,
    status: str,
    returned: Decimal,
    winnings: Decimal,
    rule: str,
    category: str = BASE,
    notes: Sequence[str] = (),
    violations: Sequence[str] = (),
    added: Decimal = ZERO,
) -> BetResult:
    return BetResult(
        bet.index,
        status,
        returned=returned,
        winnings=winnings,
        rule=rule,
        category=category,
        note="; ".join(notes),
        added_stake=added,
        violations=tuple(violations),
    )


class RussianPoker:
    """Russian poker and its 004 relatives (one object per rulebook and game)."""

    bet_types = ("ante", "bonus", "insurance")
    outcome_fields = (
        Field("dealer", "cards", "Dealer's five cards as dealt"),
        Boxes("boxes", "Boxes", keyed=False, fields=(
            BOX_CARDS,
            Field("actions", "steps", "Player's decisions in order", choices=ACTIONS,
                  steps={"exchange": ("out", "in"), "sixth_card": ("card",)}),
        )),
        Field("dealer_replacement", "cards", "Card that replaced the dealer's highest card (bought game)"),
        Field("bonus_jackpot", "amount", "Electronic jackpot shown"),
    )

    def __init__(self, rulebook: str, game: str, variants: Mapping[str, Mapping[str, Any]]):
        self.rulebook = rulebook
        self.game = game
        self.variants = variants

    # --- the contract

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        # The initial stakes (ante, bonus: Ambiguity 4) share the poker box limit; insurance is money
        # added during the round (never limited, 000-casino §2.5, Ambiguity 4): a class no venue lists.
        return "poker_insurance" if bet.type == "insurance" else "poker_box"

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        rules = check_rules(variant)
        antes: dict[int, Bet] = {}
        for bet in bets:
            if bet.type not in self.bet_types:
                raise EngineError(
                    f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(self.bet_types)}"
                )
            allowed = {"dark"} if bet.type == "ante" and rules.get("dark_boxes") else set()
            extra = set(bet.params) - allowed
            if extra:
                raise EngineError(f"{bet.where}.{sorted(extra)[0]}", f"is not a field of a {bet.type} bet")
            if "dark" in bet.params and not isinstance(bet.params["dark"], bool):
                raise EngineError(f"{bet.where}.dark", "true for a dark box (004 §5.10), else false")
            if bet.box is None:
                raise EngineError(f"{bet.where}.box", "required: the box whose hand settles the bet")
            if bet.type == "ante":
                if bet.box in antes:
                    raise EngineError(f"{bet.where}.box", f"box {bet.box} has two ante bets")
                antes[bet.box] = bet
        for bet in bets:
            if bet.type != "ante" and bet.box not in antes:
                raise EngineError(f"{bet.where}.box", f"there is no ante on box {bet.box}")
            if bet.type == "bonus":
                self._bonus_rules(rules)

    def _bonus_rules(self, rules: Mapping[str, Any]) -> Mapping[str, Any]:
        bonus = need(rules, "bonus", "rules")
        need(bonus, "table", "rules.bonus")
        if "jackpot_share" in bonus:
            for cat in bonus["jackpot_share"]:
                need(bonus["jackpot_share"], cat, "rules.bonus.jackpot_share")
        return bonus

    def settle(
        self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]
    ) -> list[BetResult]:
        rules = check_rules(variant)
        src = rules.get("source", self.rulebook)
        dark = {b.box for b in bets if b.type == "ante" and b.params.get("dark")}
        table = parse_table(rules, outcome, dark, src)
        antes = {b.box: b for b in bets if b.type == "ante"}
        for box in antes:
            if box not in table.boxes:
                raise EngineError("outcome.boxes", f"box {box} has an ante but no hand in the outcome")
        out = []
        for bet in bets:
            play = table.boxes[bet.box]
            ante = antes[bet.box]
            if bet.type == "ante":
                out.append(self.settle_ante(rules, src, bet, play, table))
            elif bet.type == "bonus":
                out.append(self.settle_bonus(rules, src, bet, ante, play, table))
            else:
                out.append(self.settle_insurance(rules, src, bet, ante, play, table))
        return out

    # --- the ante, the raise and the fees

    def settle_ante(self, rules, src: str, bet: Bet, play: BoxPlay, table: Table) -> BetResult:
        ante = bet.stake
        fee = to_cents_down(Fraction(ante) * frac(rules["fee_antes"], "rules.fee_antes"))
        fees = fee * play.fees
        notes = list(play.notes)
        if play.fees:
            what = [
                w
                for w, on in (
                    ("exchange", play.improvement == "exchange"),
                    ("sixth card", play.improvement == "sixth_card"),
                    ("dealer's game bought", play.bought),
                )
                if on
            ]
            notes.append(f"fee{'s' if play.fees > 1 else ''} {fees} ({', '.join(what)}) kept by the house")
        if play.decision == "fold":
            return result(
                bet,
                LOST,
                ZERO,
                ZERO,
                f"{src}: fold, the ante is lost",
                notes=notes,
                violations=play.violations,
                added=fees,
            )
        raise_stake = to_cents_down(Fraction(ante) * frac(rules["raise_antes"], "rules.raise_antes"))
        added = raise_stake + fees
        both = ante + raise_stake
        player = hand_rank(play.hand)
        dealer_cards, qualified = table.dealer, table.dealer_qualifies
        bought = ""
        if not qualified and play.bought:
            dealer_cards = table.bought_dealer
            qualified = LEVEL[classify5(dealer_cards)[0]] >= LEVEL[rules["bought_game_qualifies"]]
            bought = " after buying the dealer a game (" + " ".join(map(str, dealer_cards)) + ")"
            if not qualified:
                return result(
                    bet,
                    PUSH,
                    both,
                    ZERO,
                    f"{src}: the dealer still has no game{bought}: ante and raise neither win nor lose",
                    notes=notes,
                    violations=play.violations,
                    added=added,
                )
        elif not qualified:
            odds = frac(rules["no_game_ante"], "rules.no_game_ante")
            return result(
                bet,
                WON,
                both,
                win(ante, odds),
                f"{src}: the dealer has no game (worse than {LABEL[rules['dealer_qualifies']]}): "
                f"ante {fmt(odds)}, raise neither wins nor loses",
                notes=notes,
                violations=play.violations,
                added=added,
            )
        dealer_rank = hand_rank(dealer_cards)
        dealer_label = LABEL[classify5(dealer_cards)[0]]
        if player > dealer_rank:
            return result(
                bet,
                LOST,
                ZERO,
                ZERO,
                f"{src}: the dealer's {dealer_label}{bought} beats the player's "
                f"{LABEL[hand_category(play.hand)]}: ante and raise lost",
                notes=notes,
                violations=play.violations,
                added=added,
            )
        if player == dealer_rank:
            return result(
                bet,
                PUSH,
                both,
                ZERO,
                f"{src}: equal hands{bought}: ante and raise stay (tie)",
                notes=notes,
                violations=play.violations,
                added=added,
            )
        pay = raise_payout(rules, play.hand, dealer_rank)
        odds = pay.odds if pay else Fraction(0)
        what = "two combinations" if pay and pay.double else "raise table"
        return result(
            bet,
            WON,
            both,
            win(raise_stake, odds),
            f"{src} ({what}): the player's {pay.label if pay else 'hand'} beats the dealer's "
            f"{dealer_label}{bought}: raise {fmt(odds)}, ante neither wins nor loses",
            notes=notes,
            violations=play.violations,
            added=added,
        )

    # --- the bonus

    def bonus_hand(self, rules: Mapping[str, Any], cards: Sequence[Card]) -> str | None:
        """The best bonus-paying combination the five dealt cards hold (004: a suited ace & king counts
        even beside a higher combination that pays no bonus, A12)."""
        table = rules["bonus"]["table"]
        share = rules["bonus"].get("jackpot_share") or {}
        cat = classify5(cards)[0]
        if cat in table or cat in share:
            return cat
        if "ace_king_suited" in table and any(
            a.rank == 14 and k.rank == 13 and a.suit == k.suit for a in cards for k in cards
        ):
            return "ace_king_suited"
        return None

    def settle_bonus(self, rules, src: str, bet: Bet, ante: Bet, play: BoxPlay, table: Table) -> BetResult:
        bonus = self._bonus_rules(rules)
        clause = f"{src} bonus"
        minimum = bonus.get("min")
        max_antes = bonus.get("max_antes")
        if minimum is not None and bet.stake < parse_money(minimum, "rules.bonus.min"):
            return result(
                bet,
                VOID,
                bet.stake,
                ZERO,
                clause,
                SIDE,
                violations=(f"{src}: the bonus stake is at least {minimum}; the bet is void and returned",),
            )
        if max_antes is not None and bet.stake > ante.stake * Decimal(
            str(frac(max_antes, "rules.bonus.max_antes"))
        ):
            return result(
                bet,
                VOID,
                bet.stake,
                ZERO,
                clause,
                SIDE,
                violations=(
                    f"{src}: the bonus stake may not exceed the ante ({ante.stake}); "
                    "the bet is void and returned",
                ),
            )
        hand = self.bonus_hand(rules, play.dealt)
        if play.decision == "fold" and bonus.get("on_fold") == "lost" and not play.declared:
            return result(
                bet, LOST, ZERO, ZERO, f"{clause}: the player folded and loses the bonus stake", SIDE
            )
        if play.improvement and bonus.get("after_improvement") == "lost" and not play.declared:
            return result(
                bet,
                LOST,
                ZERO,
                ZERO,
                f"{clause}: no bonus after exchanging cards or buying a sixth card; the bonus stake is lost",
                SIDE,
            )
        notes = []
        if play.declared and hand is None:
            notes.append("a bonus hand was declared but the dealt cards hold none")
        if hand is None:
            return result(bet, LOST, ZERO, ZERO, f"{clause}: the dealt five hold no bonus hand", SIDE, notes)
        share = (bonus.get("jackpot_share") or {}).get(hand)
        if hand in (bonus.get("jackpot_share") or {}):
            jackpot = table.outcome.get("bonus_jackpot")
            if jackpot is None:
                raise EngineError(
                    "outcome.bonus_jackpot",
                    f"required: a bonus bet holds a {LABEL[hand]}, paid as a "
                    "share of the electronic jackpot (004 §5.9.4)",
                )
            amount = parse_money(jackpot, "outcome.bonus_jackpot")
            s = frac(share, f"rules.bonus.jackpot_share.{hand}")
            return result(
                bet,
                WON,
                bet.stake,
                to_cents_down(Fraction(amount) * s),
                f"{clause}: {LABEL[hand]} dealt, {s} of the electronic jackpot {amount} (§5.9.4, A11)",
                JACKPOT,
                notes,
            )
        odds = frac(bonus["table"][hand], f"rules.bonus.table.{hand}")
        label = "suited ace & king" if hand == "ace_king_suited" else LABEL[hand]
        when = " (declared before improving, paid at once)" if play.declared else ""
        return result(
            bet,
            WON,
            bet.stake,
            win(bet.stake, odds),
            f"{clause}: {label} in the dealt five{when}: {fmt(odds)}, whatever the dealer holds",
            SIDE,
            notes,
        )

    # --- insurance

    def settle_insurance(
        self, rules, src: str, bet: Bet, ante: Bet, play: BoxPlay, table: Table
    ) -> BetResult:
        ins = need(rules, "insurance", "rules")
        clause = f"{src} insurance"
        problem = None
        cat = hand_category(play.hand)
        if play.dark:
            problem = "a dark box cannot be insured (004 §5.7.6)"
        elif play.decision != "raise":
            problem = "insurance is for a hand that plays on (raised); the box folded"
        elif LEVEL[cat] < LEVEL[ins["min_hand"]]:
            problem = f"insurance needs {LABEL[ins['min_hand']]} or better, the hand is {LABEL[cat]}"
        else:
            low = to_cents_down(Fraction(ante.stake) * frac(ins["min_antes"], "rules.insurance.min_antes"))
            raise_stake = Fraction(ante.stake) * frac(rules["raise_antes"], "rules.raise_antes")
            best = raise_payout(rules, play.hand, None)
            high = to_cents_down(raise_stake * best.odds * frac(ins["max_of_raise_win"], "rules.insurance"))
            if not low <= bet.stake <= high:
                problem = f"the insurance must be from {low} to {high} for this hand ({best.label})"
        if problem:
            return result(
                bet,
                VOID,
                bet.stake,
                ZERO,
                clause,
                violations=(f"{src}: {problem}; the insurance is void and returned",),
            )
        if not table.dealer_qualifies:
            return result(
                bet,
                WON,
                bet.stake,
                win(bet.stake, 1),
                f"{clause}: the dealer has no game (worse than {LABEL[rules['dealer_qualifies']]}): 1:1",
            )
        if hand_rank(play.hand) < table.dealer_rank:
            return result(
                bet,
                LOST,
                ZERO,
                ZERO,
                f"{clause}: the dealer has a game and the player's hand beats it: the insurance is lost",
            )
        return result(
            bet,
            PUSH,
            bet.stake,
            ZERO,
            f"{clause}: the dealer's hand is equal or better: the insurance is returned",
        )


def fmt(odds: Fraction) -> str:
    return f"{odds.numerator}:{odds.denominator}"


def paytable_max_win(variant: Mapping[str, Any]) -> dict[str, Fraction | str]:
    """The largest winnings per unit of each bet's stake the variant's tables allow.

    House edge by enumeration is not feasible for this game (the player's exchange and sixth-card
    choices and the dealer's replaced card make the outcome space depend on strategy), so this is the
    figure a configuration report needs (000-casino Ambiguity 10(a)): ante = raise_antes x the best
    raise odds (single or two combinations); bonus = the best bonus odds (or "jackpot share").
    """
    rules = check_rules(variant)
    raise_best = max(
        [frac(v, "rules.raise_table") for v in rules["raise_table"].values()]
        + [frac(v, "rules.double_table") for v in rules.get("double_table", {}).values()]
    )
    if rules.get("unlisted_doubles") == "sum":
        top = sorted((frac(v, "rules.raise_table") for v in rules["raise_table"].values()), reverse=True)
        raise_best = max(raise_best, top[0] + top[1])
    out: dict[str, Fraction | str] = {
        "ante": max(
            raise_best * frac(rules["raise_antes"], "rules.raise_antes"),
            frac(rules["no_game_ante"], "rules.no_game_ante"),
        ),
    }
    if rules.get("bonus"):
        bonus = rules["bonus"]
        out["bonus"] = (
            "jackpot share"
            if bonus.get("jackpot_share")
            else max(frac(v, "rules.bonus.table") for v in bonus["table"].values())
        )
    if rules.get("insurance"):
        out["insurance"] = Fraction(1)
    return out


ENGINES = [
    RussianPoker("000", "russian_poker", VERSIONS_000),
    RussianPoker("004", "russian_poker", {"standard": RUSSIAN_004}),
    RussianPoker("004", "open_russian_poker", {"standard": OPEN_RUSSIAN_004}),
]
