"""Hold'em-style games against the dealer (docs/casino/holdem.md), part 2:

* Dynamic Poker + Bonus: game halls (000-casino G-5) and RAY (002 §5.6);
* Dynamic Poker Pro + Bonus (000-casino C-7, Ambiguities 5 and 6);
* Riverside Poker + Bonus (002 §5.7).

The blind is the initial stake; the continuation bets (flop = 2 x blind, turn and river = 1 x blind;
Riverside's call = 2 x blind) are bets of their own whose street is the decision recorded in the
outcome (see holdem.py for the shared record and the settlement of stakes the rules do not allow).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from ..base import BASE, SIDE, ZERO, Bet, BetResult, EngineError
from ..cards import RANKS, SUITS, Card
from ..fields import BOX_CARDS, DEALER_CARDS, Boxes, Field
from .holdem import (
    BOARD,
    HANDS,
    INITIAL_CLASS,
    RAISE_CLASS,
    Box,
    Table,
    at_least,
    clause,
    compare,
    decide,
    edge_of,
    flag,
    group_bets,
    hand_table,
    need,
    odds_text,
    parse_table,
    play_part,
    probabilities,
    rank_value,
    ratio,
    settle_on,
)


def present(variant: Mapping[str, Any], key: str) -> Any:
    """A key the rule data must hold, whose value may be null (a rule the version does not have)."""
    if not isinstance(variant, Mapping) or key not in variant:
        raise EngineError(f"rules.{key}", "is required (null when the version has no such rule)")
    return variant[key]


# ------------------------------------------------------------------------------ two-card bonus hands

_RED = {"h", "d"}


def two_card_keys(cards: Sequence[Card]) -> list[str]:
    """The names a two-card hand answers to in a bonus table, most specific first:
    ``AA-same-colour`` / ``AA-different-colour`` then ``AA``; ``AKs`` / ``AKo`` then ``AK``."""
    hi, lo = sorted(cards, key=lambda c: c.rank, reverse=True)
    name = RANKS[hi.rank - 2] + RANKS[lo.rank - 2]
    if hi.rank == lo.rank:
        same = (hi.suit in _RED) == (lo.suit in _RED)
        return [f"{name}-{'same' if same else 'different'}-colour", name]
    return [name + ("s" if hi.suit == lo.suit else "o"), name]


def bonus_table(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    table = need(variant, "bonus_paytable")
    if not isinstance(table, Mapping):
        raise EngineError("rules.bonus_paytable", "an object: two-card hand (AA, AKs, AQo, ...) -> odds")
    out = {}
    for key, odds in table.items():
        where = f"rules.bonus_paytable.{key}"
        ok = isinstance(key, str) and len(key) >= 2 and key[0] in RANKS and key[1] in RANKS
        if ok and key[0] == key[1]:
            ok = key[2:] in ("", "-same-colour", "-different-colour")
        elif ok:
            ok = RANKS.index(key[0]) > RANKS.index(key[1]) and key[2:] in ("", "s", "o")
        if not ok:
            raise EngineError(where, "a two-card hand, high card first: AA, AA-same-colour, AKs, AKo, AK")
        out[key] = ratio(odds, where)
    return out


def bonus_odds(variant: Mapping[str, Any], cards: Sequence[Card]) -> tuple[str, Fraction | None]:
    """The bonus table's entry for two hole cards (odds N:1 after Ambiguity 5's reading) or None."""
    table = bonus_table(variant)
    kind = need(variant, "bonus_odds_kind")
    if kind not in ("to_one", "for_one"):
        raise EngineError("rules.bonus_odds_kind", "\"to_one\" (N:1, stake kept) or \"for_one\" (N for 1)")
    for key in two_card_keys(cards):
        if key in table:
            odds = table[key]
            return key, odds if kind == "to_one" else max(odds - 1, Fraction(0))
    return two_card_keys(cards)[-1], None


def _all_two_card_hands() -> list[tuple[Card, Card]]:
    deck = [Card(r, s) for r in range(2, 15) for s in SUITS]
    return list(combinations(deck, 2))


def two_card_edge(variant: Mapping[str, Any]) -> Fraction:
    """Exact house edge of a two-card bonus over all 1,326 hole-card pairs (the player keeps it valid)."""
    hands = _all_two_card_hands()
    outcomes = {}
    for i, cards in enumerate(hands):
        outcomes[i] = (Fraction(1, len(hands)), bonus_odds(variant, cards)[1])
    return edge_of(outcomes)


# ----------------------------------------------------------------------------- Dynamic Poker (Pro)

DP_STREETS = ("preflop", "flop", "turn")
DP_BET_OF = {"preflop": "flop", "flop": "turn", "turn": "river"}


class DynamicPoker:
    """Dynamic Poker and Dynamic Poker Pro: blind, continuation bets flop / turn / river, bonus."""

    TYPES = {"blind": BASE, "flop": BASE, "turn": BASE, "river": BASE, "bonus": SIDE}
    outcome_fields = (
        DEALER_CARDS,
        BOARD,
        Boxes("boxes", "Boxes", keyed=True, fields=(
            BOX_CARDS,
            Field("actions.preflop", "choice", "Decision before the flop", choices=("play", "fold")),
            Field("actions.flop", "choice", "Decision on the flop", choices=("play", "check")),
            Field("actions.turn", "choice", "Decision on the turn", choices=("play", "check")),
        )),
    )

    def __init__(self, rulebook: str, game: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.game = game
        self.variants = variants

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return INITIAL_CLASS if bet.type in ("blind", "bonus") else RAISE_CLASS

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        group_bets(bets, self.TYPES, ("blind",))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        by_box = group_bets(bets, self.TYPES, ("blind",))
        streets = {"preflop": {"play", "fold"}, "flop": {"play", "check"}, "turn": {"play", "check"}}
        table = parse_table(outcome, set(by_box), streets)
        results: dict[int, BetResult] = {}
        for number, box_bets in by_box.items():
            for r in self._box(variant, table, table.boxes[number], box_bets):
                results[r.index] = r
        return [results[b.index] for b in bets]

    def _box(self, variant, table: Table, box: Box, bets: Mapping[str, Bet]) -> list[BetResult]:
        blind = bets["blind"]
        multiples = need(variant, "raise_multiples")
        if not isinstance(multiples, Mapping):
            raise EngineError("rules.raise_multiples", "an object: flop / turn / river -> multiple of the blind")
        out: list[BetResult] = []
        if box.actions.get("preflop") is None:
            raise EngineError(f"{box.where}.actions.preflop", "is required: play (flop bet) or fold")
        folded = box.actions["preflop"] == "fold"
        if folded:
            for street in ("flop", "turn"):
                if street in box.actions:
                    raise EngineError(f"{box.where}.actions.{street}", "the hand was folded before the flop")
        placed: dict[str, Bet] = {}
        for street in DP_STREETS:
            kind = DP_BET_OF[street]
            played = box.actions.get(street) == "play"
            if played and kind not in bets:
                raise EngineError(f"{box.where}.actions.{street}", f"box {box.number} played but has no {kind} bet")
            if not played and kind in bets:
                raise EngineError(f"{bets[kind].where}.type",
                                  f"box {box.number} has a {kind} bet but no play recorded at {street}")
            if played:
                placed[kind] = bets[kind]
        flow = clause(variant, "flow")
        parts: dict[str, Any] = {}
        notes: dict[str, list[str]] = {}
        if "river" in placed and "turn" not in placed and flag(variant, "river_requires_turn"):
            river = placed.pop("river")
            out.append(settle_on(river, ZERO, "void", None, f"{flow}: no river raise without a turn raise",
                                 violations=["river raise without a turn raise: not allowed; the river bet is void "
                                             "and returned"]))
        for kind, bet in list(placed.items()):
            if kind not in multiples:
                raise EngineError(f"rules.raise_multiples.{kind}", "is required")
            m = ratio(multiples[kind], f"rules.raise_multiples.{kind}")
            part, more = play_part(bet, blind.stake, {kind: [m]}, kind, (kind,), flow)
            notes[kind] = more
            if not part:
                placed.pop(kind)
                out.append(settle_on(bet, ZERO, "void", None, f"{flow}: {kind} bet size not allowed",
                                     violations=more))
                if kind == "flop":
                    folded = True
                    for later in list(placed):
                        out.append(settle_on(placed.pop(later), ZERO, "void", None,
                                             f"{flow}: no continuation without the flop bet",
                                             violations=more))
                    break
            else:
                parts[kind] = part
        bonus = bets.get("bonus")
        if folded:
            rule = clause(variant, "fold")
            out.append(settle_on(blind, blind.stake, "lose", None, f"{rule}: fold, blind loses"))
            if bonus is not None:
                out.append(settle_on(bonus, bonus.stake, "lose", None, f"{rule}: fold, bonus loses", category=SIDE))
            return out
        player, dealer = table.hand(box), table.dealer_hand()
        note = f"player {player.category}, dealer {dealer.category}"
        result = compare(player, dealer)
        even = ratio(need(variant, "even_money"), "rules.even_money")
        if result > 0:
            rule = clause(variant, "win")
            river_bonus = present(variant, "river_bonus")
            for kind, bet in placed.items():
                odds, text = even, "1:1"
                if kind == "river" and river_bonus is not None and self._river_bonus(player, river_bonus):
                    odds = ratio(need(river_bonus, "odds"), "rules.river_bonus.odds")
                    text = f"{odds_text(odds)} ({player.category}; {clause(variant, 'river_bonus')})"
                out.append(settle_on(bet, parts[kind], "win", odds, f"{rule}: {kind} bet {text}", note=note,
                                     violations=notes[kind]))
            minimum = present(variant, "blind_win_minimum")
            if minimum is not None and at_least(player, minimum, "rules.blind_win_minimum"):
                odds = ratio(need(variant, "blind_odds"), "rules.blind_odds")
                out.append(settle_on(blind, blind.stake, "win", odds,
                                     f"{rule}: blind {odds_text(odds)}, winning hand {player.category}", note=note))
            else:
                out.append(settle_on(blind, blind.stake, "push", None, f"{rule}: blind neither wins nor loses",
                                     note=note))
        elif result < 0:
            rule = clause(variant, "lose")
            for kind, bet in placed.items():
                out.append(settle_on(bet, parts[kind], "lose", None, f"{rule}: dealer better, {kind} bet loses",
                                     note=note, violations=notes[kind]))
            out.append(settle_on(blind, blind.stake, "lose", None, f"{rule}: dealer better, blind loses", note=note))
        else:
            rule = clause(variant, "tie")
            for kind, bet in placed.items():
                out.append(settle_on(bet, parts[kind], "push", None, f"{rule}: equal hands", note=note,
                                     violations=notes[kind]))
            out.append(settle_on(blind, blind.stake, "push", None, f"{rule}: equal hands", note=note))
        if bonus is not None:
            key, odds = bonus_odds(variant, box.cards)
            out.append(settle_on(bonus, bonus.stake, "win" if odds is not None else "lose", odds,
                                 f"{clause(variant, 'bonus')}: {key} " + (f"{odds_text(odds)}" if odds is not None else "loses"),
                                 category=SIDE))
        return out

    @staticmethod
    def _river_bonus(player, spec) -> bool:
        if not isinstance(spec, Mapping):
            raise EngineError("rules.river_bonus", "an object with odds, minimum and three_of_a_kind")
        if at_least(player, need(spec, "minimum"), "rules.river_bonus.minimum"):
            return True
        ranks = spec.get("three_of_a_kind") or []
        return player.category == "three_of_a_kind" and player.of_a_kind(3) in {
            rank_value(r, "rules.river_bonus.three_of_a_kind") for r in ranks}


# -------------------------------------------------------------------------------- Riverside Poker


class RiversidePoker:
    """Riverside Poker (002 §5.7): blind, call = 2 x blind after the flop, bonus on the first five cards."""

    game = "riverside_poker"
    outcome_fields = (
        DEALER_CARDS,
        BOARD,
        Boxes("boxes", "Boxes", keyed=True, fields=(
            BOX_CARDS, Field("actions.flop", "choice", "Decision on the flop", choices=("play", "fold")))),
    )
    TYPES = {"blind": BASE, "call": BASE, "bonus": SIDE}

    def __init__(self, rulebook: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.variants = variants

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return RAISE_CLASS if bet.type == "call" else INITIAL_CLASS

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        group_bets(bets, self.TYPES, ("blind",))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        by_box = group_bets(bets, self.TYPES, ("blind",))
        table = parse_table(outcome, set(by_box), {"flop": {"play", "fold"}})
        results: dict[int, BetResult] = {}
        for number, box_bets in by_box.items():
            for r in self._box(variant, table, table.boxes[number], box_bets):
                results[r.index] = r
        return [results[b.index] for b in bets]

    def _box(self, variant, table: Table, box: Box, bets: Mapping[str, Bet]) -> list[BetResult]:
        blind, call, bonus = bets["blind"], bets.get("call"), bets.get("bonus")
        act, _, _ = decide(box, ("flop",), "flop")
        out: list[BetResult] = []
        violations: list[str] = []
        part = ZERO
        if act == "play":
            if call is None:
                raise EngineError(f"{box.where}.actions.flop", f"box {box.number} called but has no call bet")
            m = ratio(need(variant, "call_multiple"), "rules.call_multiple")
            part, violations = play_part(call, blind.stake, {"flop": [m]}, "flop", ("flop",), clause(variant, "flow"))
            if not part:
                act = "fold"
                out.append(settle_on(call, ZERO, "void", None, f"{clause(variant, 'flow')}: call size not allowed",
                                     violations=violations))
        elif call is not None:
            raise EngineError(f"{call.where}.type", f"box {box.number} folded but has a call bet")
        if act == "fold":
            rule = clause(variant, "fold")
            out.append(settle_on(blind, blind.stake, "lose", None, f"{rule}: fold, blind loses"))
            if bonus is not None:
                out.append(settle_on(bonus, bonus.stake, "lose", None, f"{rule}: fold, bonus loses", category=SIDE))
            return out
        if bonus is not None:
            first_five = table.hand(box, 3)
            odds = hand_table(variant, "bonus_paytable").get(first_five.category)
            out.append(settle_on(bonus, bonus.stake, "win" if odds is not None else "lose", odds,
                                 f"{clause(variant, 'bonus')}: first five cards {first_five.category} "
                                 + (f"{odds_text(odds)}" if odds is not None else "loses"), category=SIDE))
        player, dealer = table.hand(box), table.dealer_hand()
        qualifies = at_least(dealer, need(variant, "dealer_qualifies"), "rules.dealer_qualifies")
        note = f"player {player.category}, dealer {dealer.category}" + ("" if qualifies else " (does not qualify)")
        even = ratio(need(variant, "even_money"), "rules.even_money")
        result = compare(player, dealer)
        if not qualifies:
            rule = clause(variant, "no_game")
            odds = ratio(need(variant, "blind_odds_no_game"), "rules.blind_odds_no_game")
            out.append(settle_on(blind, blind.stake, "win", odds, f"{rule}: dealer has no pair, blind {odds_text(odds)}",
                                 note=note))
            out.append(settle_on(call, part, "push", None, f"{rule}: dealer has no pair, call push", note=note,
                                 violations=violations))
        elif result > 0:
            rule = clause(variant, "win")
            odds = hand_table(variant, "blind_paytable").get(player.category)
            out.append(settle_on(blind, blind.stake, "win" if odds is not None else "push", odds,
                                 f"{clause(variant, 'blind')}: blind "
                                 + (f"{player.category} {odds_text(odds)}" if odds is not None else "push below the table"),
                                 note=note))
            out.append(settle_on(call, part, "win", even, f"{rule}: call 1:1", note=note, violations=violations))
        elif result < 0:
            rule = clause(variant, "lose")
            out.append(settle_on(blind, blind.stake, "lose", None, f"{rule}: dealer better, blind loses", note=note))
            out.append(settle_on(call, part, "lose", None, f"{rule}: dealer better, call loses", note=note,
                                 violations=violations))
        else:
            rule = clause(variant, "tie")
            out.append(settle_on(blind, blind.stake, "push", None, f"{rule}: equal hands", note=note))
            out.append(settle_on(call, part, "push", None, f"{rule}: equal hands", note=note, violations=violations))
        return out


# ------------------------------------------------------------------------------------ rule versions

_DP_BONUS = {"AA": "50", "AKs": "40", "AQs": "30", "AJs": "30", "AKo": "20", "KK": "10", "QQ": "10", "JJ": "10"}

DYNAMIC_000 = {
    "game_hall": {
        "title": "Dynamic Poker + Bonus, game halls (000-casino G-5, L787-833)",
        "raise_multiples": {"flop": "2", "turn": "1", "river": "1"},
        "river_requires_turn": False,
        "even_money": "1",
        "blind_win_minimum": {"hand": "flush"},
        "blind_odds": "1",
        "river_bonus": None,
        "bonus_paytable": dict(_DP_BONUS),
        "bonus_odds_kind": "to_one",
        "clauses": {
            "flow": "000-casino G-5, the flow of C-7 (L1900-1908; Ambiguity 6)",
            "fold": "000-casino C-7 (L1900; Ambiguity 6)",
            "win": "000-casino G-5 (L803)",
            "lose": "000-casino G-5 (L803)",
            "tie": "000-casino G-5 (L803)",
            "bonus": "000-casino G-5 bonus (L807-833; Ambiguity 3)",
        },
    },
}

DYNAMIC_002 = {
    "standard": {
        "title": "Dynamic Poker + Bonus (002 §5.6)",
        "raise_multiples": {"flop": "2", "turn": "1", "river": "1"},
        "river_requires_turn": True,
        "even_money": "1",
        "blind_win_minimum": {"hand": "flush"},
        "blind_odds": "1",
        "river_bonus": None,
        "bonus_paytable": dict(_DP_BONUS),
        "bonus_odds_kind": "to_one",
        "clauses": {
            "flow": "002 §5.6 DP-05 (A11)",
            "fold": "002 §5.6 DP-05",
            "win": "002 §5.6 DP-06 (A10)",
            "lose": "002 §5.6 DP-06 (A10)",
            "tie": "002 §5.6 DP-06",
            "bonus": "002 §5.6 DP-07 (A3)",
        },
    },
}

DPP_000 = {
    "casino": {
        "title": "Dynamic Poker Pro + Bonus, casino (000-casino C-7, L1852-1984)",
        "raise_multiples": {"flop": "2", "turn": "1", "river": "1"},
        "river_requires_turn": False,
        "even_money": "1",
        "blind_win_minimum": None,
        "blind_odds": None,
        "river_bonus": {"odds": "2", "minimum": {"hand": "straight"}, "three_of_a_kind": ["J"]},
        "bonus_paytable": {"AA-same-colour": "80", "AA-different-colour": "40", "AKs": "30", "AQs": "30",
                           "AJs": "30", "AKo": "15", "QQ": "10", "JJ": "10", "AQo": "5", "AJo": "5"},
        "bonus_odds_kind": "to_one",
        "clauses": {
            "flow": "000-casino C-7 (L1900-1908)",
            "fold": "000-casino C-7 (L1900)",
            "win": "000-casino C-7 (L1866, L1924)",
            "river_bonus": "000-casino C-7 L1868, L1926 (Ambiguity 6)",
            "lose": "000-casino C-7 (L1870, L1928)",
            "tie": "000-casino C-7 (L1872, L1930)",
            "bonus": "000-casino C-7 bonus (L1874-1884, L1922; Ambiguity 5)",
        },
    },
}

RIVERSIDE_002 = {
    "standard": {
        "title": "Riverside Poker + Bonus (002 §5.7)",
        "call_multiple": "2",
        "dealer_qualifies": {"hand": "pair"},
        "even_money": "1",
        "blind_odds_no_game": "1",
        "blind_paytable": {"royal_flush": "20", "straight_flush": "15", "four_of_a_kind": "10", "full_house": "3",
                           "flush": "2", "straight": "1", "three_of_a_kind": "1", "two_pair": "1"},
        "bonus_paytable": {"royal_flush": "30", "straight_flush": "30", "four_of_a_kind": "20", "full_house": "15",
                           "flush": "10", "straight": "10", "three_of_a_kind": "10", "two_pair": "10"},
        "clauses": {
            "flow": "002 §5.7 RP-05",
            "fold": "002 §5.7 RP-05, RP-07",
            "no_game": "002 §5.7 RP-06",
            "win": "002 §5.7 RP-06",
            "blind": "002 §5.7 RP-06 blind table (A14)",
            "lose": "002 §5.7 RP-06",
            "tie": "002 §5.7 RP-06",
            "bonus": "002 §5.7 RP-07 (A13, A15)",
        },
    },
}


def house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """Exact house edge of the bonus of a Dynamic Poker, Dynamic Poker Pro or Riverside rule version,
    from its own table (the player keeps the bonus valid by paying the flop bet / the call)."""
    if "call_multiple" in variant:  # Riverside: a five-card hand (hole cards and flop)
        table = hand_table(variant, "bonus_paytable")
        return {"bonus": edge_of({k: (p, table.get(k[0])) for k, p in probabilities(5).items()})}
    return {"bonus": two_card_edge(variant)}


ENGINES = [
    DynamicPoker("000", "dynamic_poker", DYNAMIC_000),
    DynamicPoker("002", "dynamic_poker", DYNAMIC_002),
    DynamicPoker("000", "dynamic_poker_pro", DPP_000),
    RiversidePoker("002", RIVERSIDE_002),
]

__all__ = ["ENGINES", "HANDS", "house_edge", "two_card_keys"]
