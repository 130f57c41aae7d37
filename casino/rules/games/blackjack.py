"""Blackjack: one engine per rulebook (000 game halls and casino, 002 RAY, 004 Billionaire).

The outcome is what the table recorded: the dealer's cards and each box's cards in deal order with
the box holder's decisions (``hit``, ``stand``, ``double``, ``split``, ``surrender``). The engine replays
the box (which card went to which split hand), works out totals, busts and naturals, checks every
decision and the dealer's drawing against the version's rules, and settles main, back, insurance and
side bets. A play the rules did not allow is reported in ``violations`` and settled as if it had not
been made (docs/casino/blackjack.md, "Plays the rules did not allow").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from ..base import (
    BASE,
    HALF_BACK,
    LOST,
    PUSH,
    SIDE,
    VOID,
    WON,
    Bet,
    BetResult,
    EngineError,
    to_cents_down,
)
from ..cards import Card, no_duplicates, parse_cards
from ..fields import BOX_CARDS, DEALER_CARDS, Boxes, Field
from ._data import ratio
from .blackjack_rules import VARIANTS_000, VARIANTS_002, VARIANTS_004

ACTIONS = ("hit", "stand", "double", "split", "surrender")
BET_TYPES = ("main", "back", "insurance", "side")
BET_PARAMS = {"main": {"even_money"}, "back": {"even_money", "declines"}, "insurance": set(), "side": {"game"}}
SIDE_PREDICATES = (
    "pair", "mixed_pair", "coloured_pair", "perfect_pair", "suited", "blackjack",
    "flush", "straight", "three_of_a_kind", "straight_flush", "suited_three_of_a_kind",
)


# ------------------------------------------------------------------------------------- card values


def card_value(card: Card) -> int:
    """Blackjack points with the ace as 1 (picture cards 10)."""
    return 1 if card.rank == 14 else min(card.rank, 10)


def label(value: int) -> str:
    """A point value as the rule data names up-cards: "A", "T" (any ten-valued card), "2".."9"."""
    return "A" if value == 1 else "T" if value == 10 else str(value)


def best_total(values: Sequence[int]) -> tuple[int, bool]:
    """The best total (one ace as 11 when that stays at 21 or less) and whether it is soft."""
    low = sum(values)
    if 1 in values and low + 10 <= 21:
        return low + 10, True
    return low, False


def is_natural(values: Sequence[int]) -> bool:
    return len(values) == 2 and sorted(values) == [1, 10]


def dealer_stands(values: Sequence[int], soft17: str) -> bool:
    """The dealer rule: draw to 17; with ``soft17 == "hit"`` also draw on a soft 17 (casino D, E)."""
    if len(values) < 2:
        return False
    total, soft = best_total(values)
    if total < 17:
        return False
    return not (total == 17 and soft and soft17 == "hit")


def need(variant: Mapping[str, Any], key: str) -> Any:
    """A rule value; one the source lost (absent from the data) must come from a published version."""
    if not isinstance(variant, Mapping) or key not in variant:
        raise EngineError(
            f"rules.{key}",
            "is required: this rule version does not give it (the source lost it, e.g. 002 BJB-04); "
            "give the published rule version's data in `rules`",
        )
    return variant[key]


def clause(variant: Mapping[str, Any], topic: str) -> str:
    clauses = need(variant, "clauses")
    return clauses.get(topic) or clauses["*"]


# ------------------------------------------------------------------------------------------- hands


@dataclass
class Hand:
    cards: list[Card]
    origin: str = "deal"  # deal | paid_split | free_split
    split: bool = False  # part of a split box
    split_aces: bool = False
    double: str | None = None  # paid | free | refused (a double the rules did not allow: played as a hit)
    ace_one: bool = False  # doubled with "the ace stays 1 point" (GH A, B, D; RAY A)
    surrendered: bool = False
    void: bool = False  # made by a split the rules did not allow
    swapped: bool = False  # casino C/D: this box's second card was swapped
    actions: list[str] = field(default_factory=list)

    @property
    def values(self) -> list[int]:
        return [card_value(c) for c in self.cards]

    def total(self) -> int:
        values = self.values
        if self.ace_one and len(values) >= 3:
            t = sum(values[:2]) + sum(values[2:])
            return t + 10 if 1 in values[2:] and t + 10 <= 21 else t
        return best_total(values)[0]

    def natural(self, index: int) -> bool:
        return index == 0 and not self.split and not self.swapped and is_natural(self.values)

    def text(self) -> str:
        return " ".join(str(c) for c in self.cards)


@dataclass
class Box:
    number: int
    hands: list[Hand]
    violations: list[str]
    up: int

    @property
    def was_split(self) -> bool:
        return len(self.hands) > 1


def _double_problems(v: Mapping[str, Any], h: Hand, insured: bool) -> tuple[list[str], bool]:
    """Why a double is not allowed (empty: allowed) and whether it is free (casino E)."""
    rules = need(v, "double")
    values = h.values
    problems = []
    if len(values) != 2:
        problems.append("a double is made on the first two cards of a hand, before any other card")
    if h.split and not rules.get("after_split", False):
        problems.append("this version does not allow doubling a split hand")
    if h.split_aces and need(v, "split").get("aces_one_card", False):
        problems.append("hands from split aces may not be doubled")
    free = rules.get("free")
    is_free = bool(
        free and len(values) == 2 and sum(values) in free["totals"] and not (free.get("no_ace") and 1 in values)
    )
    totals = rules.get("totals", "any")
    if totals != "any" and not is_free and len(values) == 2:
        low = sum(values)
        if low not in totals and not (1 in values and low + 10 in totals):
            problems.append(f"this version allows doubling only on two-card totals {', '.join(map(str, totals))}")
    if insured and need(v, "insurance") and need(v, "insurance").get("insured_hand_no_double_split"):
        problems.append("an insured hand may not be doubled")
    return problems, is_free


def _split_problems(v: Mapping[str, Any], h: Hand, hands: list[Hand], insured: bool) -> tuple[list[str], bool]:
    rules = need(v, "split")
    values = h.values
    problems = []
    if len(values) != 2:
        problems.append("only the first two cards of a hand can be split")
    elif rules.get("pairs") == "rank":
        if h.cards[0].rank != h.cards[1].rank:
            problems.append("only two cards of the same rank can be split")
    elif values[0] != values[1]:
        problems.append("only two cards of equal point value can be split")
    max_hands = rules.get("max_hands")
    if max_hands is not None and len(hands) >= max_hands:
        problems.append(f"this version allows at most {max_hands} hands from one box")
    if h.split_aces and not rules.get("resplit_aces", False):
        problems.append("split aces may not be split again")
    if insured and need(v, "insurance") and need(v, "insurance").get("insured_hand_no_double_split"):
        problems.append("an insured hand may not be split")
    free = rules.get("free")
    is_free = bool(free and len(values) == 2 and values[0] not in free.get("except_values", []))
    return problems, is_free


def play_box(
    v: Mapping[str, Any], number: int, cards: list[Card], actions: Sequence[str], up: int,
    *, insured: bool = False, swapped: bool = False, where: str = "outcome.boxes",
) -> tuple[Box, int]:
    """Replay a box: the cards in deal order and the holder's decisions give the hands.

    After a split the first hand gets its second card and is played out, then the next hand gets its
    second card (the deal order of every rulebook's "each hand is played to the end in turn"). A hand
    is complete without a decision when it busts, reaches 21, is a natural, is doubled (one card),
    surrendered, holds split aces (one card each where the version says so) or reaches the Charlie count.
    Returns the box and the number of cards used (the rest is an error for the caller).
    """
    charlie = v.get("charlie")
    split_rules = v.get("split") or {}
    aces_one = bool(split_rules.get("aces_one_card", False))
    hands = [Hand(cards=list(cards[:2]), swapped=swapped)]
    violations: list[str] = []
    pos, ai = 2, 0

    def draw(what: str) -> Card:
        nonlocal pos
        if pos >= len(cards):
            raise EngineError(f"{where}.{number}.cards", f"the recorded actions need more cards ({what})")
        pos += 1
        return cards[pos - 1]

    def complete(h: Hand, i: int) -> bool:
        total = h.total()
        if h.natural(i) or total >= 21 or h.double or h.surrendered:
            return True
        return bool(charlie and len(h.cards) >= charlie["cards"])

    i = 0
    while i < len(hands):
        h = hands[i]
        while True:
            if len(h.cards) < 2:
                h.cards.append(draw(f"the second card of hand {i + 1}"))
                if h.split_aces and aces_one:
                    next_split = ai < len(actions) and actions[ai] == "split"
                    if not (card_value(h.cards[1]) == 1 and next_split):
                        break  # split aces: one card only
            if complete(h, i) or ai >= len(actions):
                break  # no recorded decision left: the hand stands
            action = actions[ai]
            ai += 1
            tag = f"hand {i + 1} ({h.text()})"
            if action not in ACTIONS:
                raise EngineError(f"{where}.{number}.actions[{ai - 1}]", f"{action!r} is not one of: {', '.join(ACTIONS)}")
            h.actions.append(action)
            if action == "stand":
                break
            if action == "hit":
                h.cards.append(draw(f"a hit on hand {i + 1}"))
                continue
            if action == "double":
                problems, free = _double_problems(v, h, insured)
                if problems:
                    violations.append(f"{tag}: double not allowed ({'; '.join(problems)}): played as a hit on the "
                                      "stake before the double, and the doubled money is returned")
                    h.double = "refused"
                else:
                    h.double = "free" if free else "paid"
                    h.ace_one = bool(need(v, "double").get("ace_counts_one")) and 1 in h.values
                h.cards.append(draw(f"the double card of hand {i + 1}"))
                break
            if action == "split":
                problems, free = _split_problems(v, h, hands, insured)
                aces = len(h.cards) == 2 and all(c == 1 for c in h.values)
                new = Hand(cards=h.cards[1:2], origin="free_split" if free else "paid_split", split=True, split_aces=aces)
                if problems:
                    violations.append(f"{tag}: split not allowed ({'; '.join(problems)}): the new hand is void "
                                      "and its stake returned; this hand plays on with its own cards")
                    new.void = True
                h.cards = h.cards[:1]
                h.split, h.split_aces = True, aces
                hands.insert(i + 1, new)
                continue
            # surrender
            sur = need(v, "surrender")
            problems = []
            if not sur:
                problems.append("this version has no surrender")
            else:
                if i != 0 or h.split or len(h.cards) != 2:
                    problems.append("surrender is allowed only on the first two cards, before any other play")
                if label(up) in sur.get("not_vs", []):
                    problems.append(f"surrender is not allowed against a dealer's {label(up)}")
            if problems:
                violations.append(f"{tag}: surrender not allowed ({'; '.join(problems)}): settled as a stand")
                break
            h.surrendered = True
            break
        i += 1
    if ai < len(actions):
        raise EngineError(f"{where}.{number}.actions[{ai}]", "no hand of the box is left to play for this decision")
    return Box(number=number, hands=hands, violations=violations, up=up), pos


# --------------------------------------------------------------------------------------- the dealer


@dataclass
class Dealer:
    values: list[int]  # the cards that count (the rule's stopping point)
    text: str
    total: int
    blackjack: bool
    complete: bool  # reached the rule's stopping point
    extra: int  # recorded cards after the stopping point (disregarded)


def read_dealer(v: Mapping[str, Any], cards: list[Card]) -> Dealer:
    rules = need(v, "dealer")
    values = [card_value(c) for c in cards]
    stop = next((k for k in range(2, len(values) + 1) if dealer_stands(values[:k], rules["soft17"])), None)
    used = values if stop is None else values[:stop]
    return Dealer(
        values=used,
        text=" ".join(str(c) for c in cards[: len(used)]),
        total=best_total(used)[0],
        blackjack=is_natural(used[:2]) and len(used) >= 2,
        complete=stop is not None,
        extra=0 if stop is None else len(values) - stop,
    )


@cache
def _dealer_tree(low: int, ace: bool, n: int, soft17: str, push_on: int | None) -> tuple[tuple[str, Fraction], ...]:
    """Final-hand distribution from a dealer state (hard total, holds an ace, cards: 1, 2 or 3+)."""
    values = [1, low - 1] if ace else [low, 0]  # stands for the state: dealer_stands reads only the totals
    if n >= 2 and dealer_stands(values, soft17):
        total = best_total(values)[0]
        if n == 2 and ace and low == 11:
            key = "blackjack"
        elif push_on is not None and total == push_on:
            key = str(total)
        else:
            key = "bust" if total > 21 else str(total)
        return ((key, Fraction(1)),)
    out: dict[str, Fraction] = {}
    for card in range(1, 11):
        p = Fraction(4, 13) if card == 10 else Fraction(1, 13)
        for key, q in _dealer_tree(low + card, ace or card == 1, min(n + 1, 3), soft17, push_on):
            out[key] = out.get(key, Fraction(0)) + p * q
    return tuple(sorted(out.items()))


def dealer_outcomes(variant: Mapping[str, Any]) -> dict[str, dict[str, Fraction]]:
    """Exact distribution of the dealer's final hand per up-card, infinite deck, no hole-card peek.

    Keys: "17".."21", "blackjack", "bust" (and "22" where the version pushes on it). Uses the same
    drawing rule as settlement (:func:`dealer_stands`).
    """
    rules = need(variant, "dealer")
    out = {}
    for up in [2, 3, 4, 5, 6, 7, 8, 9, 10, 1]:
        out[label(up)] = dict(_dealer_tree(up, up == 1, 1, rules["soft17"], rules.get("push_on")))
    return out


# ------------------------------------------------------------------------------------------ the engine


@dataclass
class HandResult:
    kind: str  # win | lose | push | surrender | void | takes_original
    ratio: Fraction
    topic: str  # the clause topic (natural, win, tie, bust, ...)
    rule: str  # what the rule says for this hand
    text: str  # the hand and the rule, for the note


class BlackjackEngine:
    game = "blackjack"
    outcome_fields = (
        DEALER_CARDS,
        Boxes("boxes", "Boxes", keyed=True, fields=(
            BOX_CARDS, Field("actions", "actions", "Player's actions in order", choices=ACTIONS))),
        Field("swaps", "pairs", "Boxes that swapped their second cards (casino C/D)"),
    )

    def __init__(self, rulebook: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.variants = variants

    # ------------------------------------------------------------------------------------ bets

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        """Main, back and side bets: ``blackjack_box`` each on its own stake (Ambiguity 4); insurance
        is a raise the rules allow (not limited): ``blackjack_insurance`` is no venue's class."""
        return "blackjack_insurance" if bet.type == "insurance" else "blackjack_box"

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        holders: dict[int, int] = {}
        for bet in bets:
            if bet.type not in BET_TYPES:
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(BET_TYPES)}")
            if bet.box is None:
                raise EngineError(f"{bet.where}.box", "a blackjack bet names its box")
            unknown = set(bet.params) - BET_PARAMS[bet.type]
            if unknown:
                allowed = ", ".join(sorted(BET_PARAMS[bet.type])) or "none"
                raise EngineError(f"{bet.where}.{sorted(unknown)[0]}", f"is not a field of a {bet.type} bet ({allowed})")
            if "even_money" in bet.params and not isinstance(bet.params["even_money"], bool):
                raise EngineError(f"{bet.where}.even_money", "true or false")
            if bet.type == "main":
                if bet.box in holders:
                    raise EngineError(f"{bet.where}.box", f"box {bet.box} already has a main bet (bets[{holders[bet.box]}]); "
                                                          "other players' stakes on it are `back` bets")
                holders[bet.box] = bet.index
            if bet.type == "back":
                if not bet.player:
                    raise EngineError(f"{bet.where}.player", "a back bet names its player")
                declines = bet.params.get("declines", [])
                if not isinstance(declines, list) or any(d not in ("double", "split") for d in declines):
                    raise EngineError(f"{bet.where}.declines", "a list of \"double\" and/or \"split\"")
            if bet.type == "side":
                game = bet.params.get("game")
                games = need(variant, "side_games")
                if game not in games:
                    raise EngineError(f"{bet.where}.game", f"{game!r} is not a side game of this version: "
                                                           f"{', '.join(games) or 'none posted'}")
        for bet in bets:
            if bet.type in ("back", "insurance", "side") and bet.box not in holders:
                raise EngineError(f"{bet.where}.box", f"box {bet.box} has no main bet (the box holder's)")

    # ------------------------------------------------------------------------------------ settle

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        v = variant
        for key in ("clauses", "decks", "blackjack_pays", "ties", "dealer", "natural_after_split"):
            need(v, key)
        dealer_cards = parse_cards(outcome.get("dealer"), "outcome.dealer", minimum=1, maximum=20)
        hole = need(v, "dealer").get("hole_card", "none")
        if hole != "none" and len(dealer_cards) < 2:
            raise EngineError("outcome.dealer", f"this version deals the dealer two cards ({hole} hole card)")
        raw_boxes = outcome.get("boxes")
        if not isinstance(raw_boxes, Mapping) or not raw_boxes:
            raise EngineError("outcome.boxes", "an object: box number -> {\"cards\": ..., \"actions\": [...]}")
        box_cards: dict[int, list[Card]] = {}
        box_actions: dict[int, list[str]] = {}
        for key, raw in raw_boxes.items():
            where = f"outcome.boxes.{key}"
            if not str(key).isdigit() or not 1 <= int(key) <= 99:
                raise EngineError(where, "a box number from 1 to 99")
            if not isinstance(raw, Mapping):
                raise EngineError(where, "an object with `cards` (deal order) and `actions`")
            extra = set(raw) - {"cards", "actions"}
            if extra:
                raise EngineError(f"{where}.{sorted(extra)[0]}", "is not a box field (cards, actions)")
            box_cards[int(key)] = parse_cards(raw.get("cards"), f"{where}.cards", minimum=2, maximum=40)
            actions = raw.get("actions", [])
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise EngineError(f"{where}.actions", "a list of decisions: hit, stand, double, split, surrender")
            box_actions[int(key)] = actions
        no_duplicates(
            [("outcome.dealer", dealer_cards)] + [(f"outcome.boxes.{n}.cards", c) for n, c in box_cards.items()],
            decks=int(need(v, "decks")),
        )
        for bet in bets:
            if bet.box not in box_cards:
                raise EngineError("outcome.boxes", f"box {bet.box} has a bet ({bet.where}) but no cards")
        up = card_value(dealer_cards[0])
        round_violations: list[str] = []

        # casino C/D: swapped second cards of two adjacent boxes
        swapped: set[int] = set()
        swaps = outcome.get("swaps", [])
        if not isinstance(swaps, list):
            raise EngineError("outcome.swaps", "a list of box pairs such as [[1, 2]]")
        for k, pair in enumerate(swaps):
            where = f"outcome.swaps[{k}]"
            if (not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(b, int) for b in pair)
                    or pair[0] not in box_cards or pair[1] not in box_cards or abs(pair[0] - pair[1]) != 1):
                raise EngineError(where, "two adjacent boxes of the outcome, such as [1, 2]")
            if set(pair) & swapped:
                raise EngineError(where, "a box swaps its card once")
            if not v.get("swap"):
                round_violations.append(f"boxes {pair[0]} and {pair[1]} swapped cards: this version has no swap; "
                                        "settled on the cards as dealt")
                continue
            a, b = box_cards[pair[0]], box_cards[pair[1]]
            a[1], b[1] = b[1], a[1]
            swapped.update(pair)

        holder_of = {bet.box: bet for bet in bets if bet.type == "main"}
        insured_boxes = {
            bet.box for bet in bets
            if bet.type == "insurance" and bet.player in (None, holder_of[bet.box].player)
        }
        unpaired = set()
        if v.get("paired_boxes"):  # casino C/D: equal stakes on two adjacent boxes
            for bet in holder_of.values():
                if not any(o.box in (bet.box - 1, bet.box + 1) and o.player == bet.player and o.stake == bet.stake
                           for o in holder_of.values()):
                    unpaired.add(bet.box)
        boxes: dict[int, Box] = {}
        for number, cards in box_cards.items():
            box, used = play_box(v, number, cards, box_actions[number], up,
                                 insured=number in insured_boxes, swapped=number in swapped)
            if used < len(cards):
                raise EngineError(f"outcome.boxes.{number}.cards",
                                  f"{len(cards) - used} card(s) left over after the recorded actions")
            if number in unpaired:
                box.violations.append("this version is played with equal stakes on two adjacent boxes of one "
                                      "player; settled as recorded")
            boxes[number] = box

        dealer = read_dealer(v, dealer_cards)
        peek_end = hole == "peek" and dealer.blackjack
        for box in boxes.values():
            if peek_end and any(h.actions for h in box.hands):
                box.violations.append("the dealer's blackjack ends the deal (hole card checked): no player "
                                      "decision was possible; every hand is settled on its first two cards")
        # Does any hand still need the dealer's total (or his second card)?
        need_full = need_two = False
        charlie = v.get("charlie")
        for box in boxes.values():
            for i, h in enumerate(box.hands):
                if h.void or h.surrendered or h.total() > 21 or self._three_sevens(v, box, i):
                    continue
                if h.natural(i) or (charlie and len(h.cards) >= charlie["cards"]):
                    need_two = need_two or up in (1, 10)
                    continue
                need_full = True
        if any(b.type == "insurance" for b in bets):
            need_two = True
        if dealer.extra:
            round_violations.append(
                f"the dealer drew {dealer.extra} card(s) after reaching {dealer.total} ({dealer.text}); the dealer rule "
                f"stops there ({clause(v, 'dealer')}): the extra card(s) are disregarded")
        if not peek_end and not dealer.complete and (need_full or (need_two and len(dealer.values) < 2)):
            what = "soft 17" if dealer.total == 17 else str(dealer.total)
            round_violations.append(
                f"the dealer stood on {what} ({dealer.text}); the dealer rule requires another card "
                f"({clause(v, 'dealer')}): settled on the recorded cards")

        ctx = {"dealer": dealer, "peek_end": peek_end, "up": up}
        results = []
        for bet in bets:
            if bet.type in ("main", "back"):
                r = self._settle_box_bet(v, bet, boxes[bet.box], ctx)
            elif bet.type == "insurance":
                r = self._settle_insurance(v, bet, bets, boxes[bet.box], ctx)
            else:
                r = self._settle_side(v, bet, box_cards[bet.box], dealer_cards[0])
            violations = list(r.violations)
            if bet.type in ("main", "back"):
                violations = list(boxes[bet.box].violations) + violations
            violations += round_violations
            if violations:
                note = "; ".join(x for x in [r.note, "rule violations: " + " | ".join(violations)] if x)
                r = dataclasses.replace(r, violations=tuple(violations), note=note)
            results.append(r)
        return results

    # ------------------------------------------------------------------------------ box bets

    @staticmethod
    def _three_sevens(v: Mapping[str, Any], box: Box, i: int) -> Fraction | None:
        for special in v.get("specials") or []:
            if special.get("kind") != "three_sevens":
                continue
            h = box.hands[i]
            if not box.was_split and len(h.cards) >= 3 and all(c.rank == 7 for c in h.cards[:3]):
                return ratio(special["pays"], "rules.specials.pays")
        return None

    def _hand_result(self, v: Mapping[str, Any], box: Box, i: int, ctx: Mapping[str, Any]) -> HandResult:
        h = box.hands[i]
        dealer: Dealer = ctx["dealer"]
        total = h.total()
        desc = f"hand {i + 1} ({h.text()}) {total}" if len(box.hands) > 1 else f"{h.text()} = {total}"

        def res(kind: str, r: Fraction | int, topic: str, rule: str) -> HandResult:
            return HandResult(kind, Fraction(r), topic, rule, f"{desc}: {rule}")

        if h.void:
            return res("void", 0, "split", "void, a split the rules did not allow")
        if ctx["peek_end"]:
            if h.natural(i):
                return res("push", 0, "natural", "blackjack against the dealer's blackjack, push")
            return res("lose", 0, "dealer_blackjack", "the dealer's blackjack ends the deal, the stake loses")
        if h.surrendered:
            return res("surrender", 0, "surrender", "surrendered, half the stake lost")
        if total > 21:
            return res("lose", 0, "bust", "over 21, the stake loses")
        sevens = self._three_sevens(v, box, i)
        if sevens is not None:
            return res("win", sevens, "special", f"three sevens, paid {sevens}:1 at once")
        if h.natural(i):
            if dealer.blackjack:
                return res("push", 0, "natural", "both have blackjack, push")
            pays = need(v, "blackjack_pays")
            return res("win", ratio(pays, "rules.blackjack_pays"), "natural", f"blackjack pays {pays}")
        charlie = v.get("charlie")
        if charlie and len(h.cards) >= charlie["cards"]:
            if not (dealer.blackjack and charlie.get("loses_to_dealer_blackjack")):
                pays = charlie.get("pays", "1")
                return res("win", ratio(pays, "rules.charlie.pays"), "charlie",
                           f"{charlie['cards']}-card Charlie wins {pays}:1")
        if dealer.blackjack:
            if v.get("ten_up_blackjack_takes_original_only") and ctx["up"] == 10 and h.double == "paid":
                return res("takes_original", 0, "dealer_blackjack",
                           "the dealer's blackjack with a ten up takes only the stake before the double; "
                           "the double is returned")
            return res("lose", 0, "dealer_blackjack", f"the dealer's blackjack ({dealer.text}) beats every other hand")
        push_on = need(v, "dealer").get("push_on")
        if dealer.total > 21:
            if push_on is not None and dealer.total == push_on:
                return res("push", 0, "push22", f"the dealer ends on {push_on} ({dealer.text}), push")
            return res("win", 1, "win", f"the dealer is over 21 ({dealer.text}), wins 1:1")
        if total > dealer.total:
            return res("win", 1, "win", f"beats the dealer's {dealer.total}, wins 1:1")
        if total < dealer.total:
            return res("lose", 0, "win", f"loses to the dealer's {dealer.total}")
        ties = need(v, "ties")
        if ties["default"] == "push" or total in ties.get("push_totals", []):
            return res("push", 0, "tie", f"equal totals ({total}), push")
        return res("lose", 0, "tie", f"equal totals ({total}), the dealer wins")

    def _settle_box_bet(self, v: Mapping[str, Any], bet: Bet, box: Box, ctx: Mapping[str, Any]) -> BetResult:
        stake = Fraction(bet.stake)
        declines = set(bet.params.get("declines", [])) if bet.type == "back" else set()
        violations: list[str] = []
        h0 = box.hands[0]
        if bet.params.get("even_money"):
            em = need(v, "even_money")
            problems = []
            if not em:
                problems.append("this version has no even money")
            elif label(ctx["up"]) not in em.get("up_cards", []):
                problems.append(f"even money is offered only against a dealer's {' or '.join(em['up_cards'])}")
            if not h0.natural(0):
                problems.append("even money is for a blackjack")
            if not problems:
                return BetResult(bet.index, WON, returned=bet.stake, winnings=to_cents_down(stake),
                                 rule=f"{clause(v, 'even_money')}: even money, the blackjack paid 1:1 at once",
                                 note=f"{h0.text()}: blackjack, even money taken")
            violations.append(f"even money not allowed ({'; '.join(problems)}): settled without it")
        returned = winnings = added = Fraction(0)
        texts: list[str] = []
        by_clause: dict[str, list[str]] = {}
        kinds: list[str] = []
        for i, h in enumerate(box.hands):
            if i > 0 and "split" in declines:
                continue  # a back bettor who did not split stays with the first hand (004 §8.3.5)
            # this bet's share of the hand, in units of its stake: money at risk (r), paid on a win (n)
            r = Fraction(1 if i == 0 or h.origin == "paid_split" else 0)
            n, refund, double_part = Fraction(1), Fraction(0), Fraction(0)
            if h.double == "paid" and "double" not in declines:
                r, n, double_part = r + 1, n + 1, Fraction(1)
            elif h.double == "free":
                n += 1
            elif h.double == "refused" and "double" not in declines:
                refund += 1
            if ctx["peek_end"]:  # nothing but the first two cards counts; extra stakes go back
                refund += r - (1 if i == 0 else 0)
                r = n = Fraction(1 if i == 0 else 0)
                if i > 0:
                    added += refund
                    returned += refund * stake
                    texts.append(f"hand {i + 1}: returned (the dealer's blackjack ended the deal)")
                    continue
            res = self._hand_result(v, box, i, ctx)
            added += r + refund
            returned += refund * stake
            if res.kind in ("void", "push"):
                returned += r * stake
            elif res.kind == "win":
                returned += r * stake
                winnings += res.ratio * n * stake
            elif res.kind == "surrender":
                loses = ratio((need(v, "surrender") or {}).get("loses", "1/2"), "rules.surrender.loses")
                returned += r * stake * (1 - loses)
            elif res.kind == "takes_original":
                returned += double_part * stake
            kinds.append(res.kind)
            texts.append(res.text)
            by_clause.setdefault(clause(v, res.topic), []).append(res.rule if len(box.hands) == 1 else res.text)
        added -= 1  # the recorded stake itself
        rules = [f"{c}: {'; '.join(t)}" for c, t in by_clause.items()]
        if len(box.hands) > 1:
            rules.insert(0, f"{clause(v, 'split')}: {len(box.hands)} hands")
        ret, won_amount = to_cents_down(returned), to_cents_down(winnings)
        if won_amount > 0:
            status = WON
        elif kinds == ["surrender"]:
            status = HALF_BACK
        elif kinds and all(k == "void" for k in kinds):
            status = VOID
        elif returned > 0 and returned >= stake * (1 + added):
            status = PUSH
        else:
            status = LOST
        who = ""
        if bet.type == "back":
            who = f"back bet of {bet.player}" + (f" (declined: {', '.join(sorted(declines))})" if declines else "") + "; "
        return BetResult(
            bet.index, status, returned=ret, winnings=won_amount, rule="; ".join(rules), category=BASE,
            note=who + f"dealer {ctx['dealer'].text}; " + "; ".join(texts),
            added_stake=to_cents_down(stake * added), violations=tuple(violations),
        )

    # ----------------------------------------------------------------------------- insurance

    def _settle_insurance(self, v: Mapping[str, Any], bet: Bet, bets: Sequence[Bet], box: Box,
                          ctx: Mapping[str, Any]) -> BetResult:
        rule = clause(v, "insurance")
        ins = need(v, "insurance")
        insured = next((b for b in bets if b.box == bet.box and b.type in ("main", "back")
                        and (b.player == bet.player or (bet.player is None and b.type == "main"))), None)
        if insured is None:
            raise EngineError(f"{bet.where}.player", f"no main or back bet of this player on box {bet.box} to insure")
        problems = []
        if not ins:
            problems.append("this version has no insurance")
        else:
            if ctx["up"] != 1:
                problems.append("insurance is offered only when the dealer's first card is an ace")
            h0 = box.hands[0]
            if h0.natural(0) and not ins.get("blackjack_insurable", True):
                problems.append("a blackjack cannot be insured")
        if problems:
            return BetResult(bet.index, VOID, returned=bet.stake, winnings=to_cents_down(0), rule=rule, category=BASE,
                             note="insurance returned", violations=(f"insurance not allowed ({'; '.join(problems)}): "
                                                                    "the insurance stake is returned",))
        half = Fraction(insured.stake) / 2
        stake = Fraction(bet.stake)
        violations = []
        excess = Fraction(0)
        if stake > half + Fraction(1, 200):
            excess = stake - half
            violations.append(f"the insurance {bet.stake} is above half the insured stake ({insured.stake}): the "
                              "excess is returned")
            stake = half
        elif ins["amount"] == "exactly_half" and abs(stake - half) >= Fraction(1, 100):
            violations.append(f"this version's insurance is exactly half the insured stake ({insured.stake}); "
                              f"{bet.stake} was placed: settled on the amount placed")
        pays = ratio(ins.get("pays", "2"), "rules.insurance.pays")
        dealer: Dealer = ctx["dealer"]
        if dealer.blackjack:
            return BetResult(bet.index, WON, returned=to_cents_down(stake + excess), winnings=to_cents_down(stake * pays),
                             rule=f"{rule}: the dealer has blackjack, insurance pays {ins.get('pays', '2')}:1",
                             note=f"dealer {dealer.text}", violations=tuple(violations))
        return BetResult(bet.index, LOST, returned=to_cents_down(excess), winnings=to_cents_down(0),
                         rule=f"{rule}: no dealer blackjack, the insurance loses", note=f"dealer {dealer.text}",
                         violations=tuple(violations))

    # ---------------------------------------------------------------------------------- side

    def _settle_side(self, v: Mapping[str, Any], bet: Bet, cards: list[Card], up: Card) -> BetResult:
        game = need(v, "side_games")[bet.params["game"]]
        rule = game.get("rule") or f"{clause(v, 'side')}: side game {bet.params['game']} (posted rules, Ambiguity 12)"
        best: tuple[Fraction, str] | None = None
        for k, entry in enumerate(game.get("paytable", [])):
            hand = entry.get("hand")
            if hand not in SIDE_PREDICATES:
                raise EngineError(f"rules.side_games.{bet.params['game']}.paytable[{k}].hand",
                                  f"{hand!r} is not one of: {', '.join(SIDE_PREDICATES)}")
            if side_hand(hand, cards[:2], up):
                r = ratio(entry.get("pays"), f"rules.side_games.{bet.params['game']}.paytable[{k}].pays")
                if best is None or r > best[0]:
                    best = (r, hand)
        shown = " ".join(str(c) for c in cards[:2]) + f" + dealer {up}"
        if best is None:
            return BetResult(bet.index, LOST, returned=to_cents_down(0), winnings=to_cents_down(0),
                             rule=f"{rule}: no paying hand", category=SIDE, note=shown)
        return BetResult(bet.index, WON, returned=bet.stake, winnings=to_cents_down(Fraction(bet.stake) * best[0]),
                         rule=f"{rule}: {best[1]} pays {best[0]}:1", category=SIDE, note=shown)


def side_hand(name: str, two: Sequence[Card], up: Card) -> bool:
    """The side-game hands a posted paytable may name: on the box's first two cards, or (three-card
    hands) the first two cards and the dealer's first card."""
    a, b = two
    red = {"h", "d"}
    if name == "pair":
        return a.rank == b.rank
    if name == "perfect_pair":
        return a.rank == b.rank and a.suit == b.suit
    if name == "coloured_pair":
        return a.rank == b.rank and a.suit != b.suit and (a.suit in red) == (b.suit in red)
    if name == "mixed_pair":
        return a.rank == b.rank and (a.suit in red) != (b.suit in red)
    if name == "suited":
        return a.suit == b.suit
    if name == "blackjack":
        return is_natural([card_value(a), card_value(b)])
    three = [a, b, up]
    ranks = sorted(c.rank for c in three)
    flush = len({c.suit for c in three}) == 1
    trips = len(set(ranks)) == 1
    straight = len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [2, 3, 14])
    return {
        "flush": flush,
        "straight": straight,
        "three_of_a_kind": trips,
        "straight_flush": straight and flush,
        "suited_three_of_a_kind": trips and flush,
    }[name]


ENGINES = [
    BlackjackEngine("000", VARIANTS_000),
    BlackjackEngine("002", VARIANTS_002),
    BlackjackEngine("004", VARIANTS_004),
]
