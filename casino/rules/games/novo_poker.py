"""Novo poker (004 §4.5, Ch.6): Russian poker (Ch.5) with the Express Bonus, bonuses on other boxes
and on the dealer, and the Novo Jackpot paid on the ante. Docs: docs/casino/russian_poker.md.

Bets: ``ante`` (the box, Russian poker rules), ``express_bonus`` (mandatory, on the player's own box,
at least the ante), ``bonus`` with ``"on": 1|2|3|"D"`` (another box or the dealer), ``insurance``.
All bonuses pay table 6.1.13 on the five cards as dealt, the single highest category (A20). A box
dealt a straight flush or royal flush is paid the Novo Jackpot on its ante, its game ends and the
bonuses on it are returned (§6.1.10, A21); a dealer straight or royal flush returns the bonuses on "D"
(§6.1.11). The table's maximum payouts (posted per table) are the rule data's ``table_max_payout``
(ante and insurance of a box) and ``bonus_max_payout`` (all bonus wins and the Novo Jackpot of a box,
§6.1.15); null: none posted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..base import (
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
from ..cards import Card, parse_cards
from .russian_poker import (
    LABEL,
    RUSSIAN_004,
    RussianPoker,
    check_rules,
    classify5,
    fmt,
    frac,
    need,
    parse_table,
    result,
)

NOVO_BONUS = {
    "five_same_colour": "2",
    "ace_king_queen": "5",
    "three_of_a_kind": "8",
    "straight": "30",
    "flush": "50",
    "full_house": "70",
    "five_pictures": "120",
    "four_of_a_kind": "200",
}
NOVO_LABEL = {
    "five_same_colour": "five cards of one colour",
    "ace_king_queen": "ace-king-queen",
    "five_pictures": "five picture cards",
}
NOVO_004: dict[str, Any] = {
    **RUSSIAN_004,
    "source": "004 Ch.6 (Ch.5 rules)",
    "max_boxes": 3,
    "max_boxes_with_dark": 3,
    "dark_boxes": False,
    "bonus": None,
    "novo_bonus_table": NOVO_BONUS,
    "novo_jackpot": {"straight_flush": "250", "royal_flush": "500"},
    "express_min_antes": "1",
    "table_max_payout": None,
    "bonus_max_payout": None,
}
RED = ("h", "d")


def novo_bonus_hand(table: Mapping[str, Any], cards: Sequence[Card]) -> str | None:
    """The single highest category of table 6.1.13 the five cards hold (A20), or None."""
    cat = classify5(cards)[0]
    held = {cat} & {"three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind"}
    ranks = {c.rank for c in cards}
    if all(c.rank in (11, 12, 13) for c in cards):
        held.add("five_pictures")  # the ace is not a picture card (table 6.1.13)
    if {12, 13, 14} <= ranks:
        held.add("ace_king_queen")
    if len({c.suit in RED for c in cards}) == 1:
        held.add("five_same_colour")
    held &= set(table)
    if not held:
        return None
    return max(held, key=lambda h: frac(table[h], f"rules.novo_bonus_table.{h}"))


class NovoPoker(RussianPoker):
    bet_types = ("ante", "express_bonus", "bonus", "insurance")

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "poker_insurance" if bet.type == "insurance" else "poker_box"

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        rules = check_rules(variant)
        need(rules, "novo_bonus_table", "rules")
        need(rules, "novo_jackpot", "rules")
        antes: dict[int, Bet] = {}
        for bet in bets:
            if bet.type not in self.bet_types:
                raise EngineError(
                    f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(self.bet_types)}"
                )
            allowed = {"on"} if bet.type == "bonus" else set()
            extra = set(bet.params) - allowed
            if extra:
                raise EngineError(f"{bet.where}.{sorted(extra)[0]}", f"is not a field of a {bet.type} bet")
            if bet.type == "bonus":
                on = bet.params.get("on")
                if on != "D" and (isinstance(on, bool) or not isinstance(on, int) or not 1 <= on <= 99):
                    raise EngineError(
                        f"{bet.where}.on", 'the box number the bonus is on, or "D" for the dealer'
                    )
            elif bet.box is None:
                raise EngineError(f"{bet.where}.box", "required: the box whose hand settles the bet")
            if bet.type == "ante":
                if bet.box in antes:
                    raise EngineError(f"{bet.where}.box", f"box {bet.box} has two ante bets")
                antes[bet.box] = bet
        for bet in bets:
            if bet.type in ("express_bonus", "insurance") and bet.box not in antes:
                raise EngineError(f"{bet.where}.box", f"there is no ante on box {bet.box}")

    def settle(
        self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]
    ) -> list[BetResult]:
        rules = check_rules(variant)
        src = rules.get("source", "004 Ch.6")
        jackpot_table = need(rules, "novo_jackpot", "rules")
        bonus_table = need(rules, "novo_bonus_table", "rules")
        # Boxes dealt a straight or royal flush: the Novo Jackpot ends their game (§6.1.10).
        jackpot_boxes = _jackpot_boxes(outcome, jackpot_table)
        table = parse_table(rules, outcome, set(), src, skip_play=jackpot_boxes)
        antes = {b.box: b for b in bets if b.type == "ante"}
        for box in antes:
            if box not in table.boxes:
                raise EngineError("outcome.boxes", f"box {box} has an ante but no hand in the outcome")
        has_express = {b.box for b in bets if b.type == "express_bonus"}
        out: list[BetResult] = []
        for bet in bets:
            if bet.type == "ante":
                play = table.boxes[bet.box]
                if bet.box in jackpot_boxes:
                    cat = classify5(play.dealt)[0]
                    odds = frac(jackpot_table[cat], f"rules.novo_jackpot.{cat}")
                    r = result(
                        bet,
                        WON,
                        bet.stake,
                        win(bet.stake, odds),
                        f"{src} §6.1.10, §6.1.14: {LABEL[cat]} dealt, Novo Jackpot {fmt(odds)} on the ante; "
                        "the box's game ends",
                        JACKPOT,
                        violations=play.violations,
                    )
                else:
                    r = self.settle_ante(rules, src, bet, play, table)
                if bet.box not in has_express:
                    r = dataclasses.replace(
                        r,
                        violations=r.violations
                        + (f"{src} §6.1.8: the Express Bonus is mandatory on every box; none was recorded",),
                    )
                out.append(r)
            elif bet.type == "insurance":
                play = table.boxes[bet.box]
                if bet.box in jackpot_boxes:
                    out.append(
                        result(
                            bet,
                            VOID,
                            bet.stake,
                            ZERO,
                            f"{src} §6.1.10",
                            violations=(
                                f"{src} §6.1.10: the box's game ended with the Novo Jackpot; "
                                "the insurance is returned",
                            ),
                        )
                    )
                else:
                    out.append(self.settle_insurance(rules, src, bet, antes[bet.box], play, table))
            else:
                out.append(self.settle_novo_bonus(rules, src, bet, antes, table, jackpot_boxes, bonus_table))
        return self.apply_caps(rules, src, bets, out)

    def settle_novo_bonus(self, rules, src, bet: Bet, antes, table, jackpot_boxes, bonus_table) -> BetResult:
        express = bet.type == "express_bonus"
        target = bet.box if express else bet.params["on"]
        name = (
            "Express Bonus" if express else f"bonus on {'the dealer' if target == 'D' else f'box {target}'}"
        )
        clause = f"{src} §6.1.13 {name}"
        if express:
            minimum = to_cents_down(
                Fraction(antes[bet.box].stake)
                * frac(rules.get("express_min_antes", "1"), "rules.express_min_antes")
            )
            if bet.stake < minimum:
                return result(
                    bet,
                    VOID,
                    bet.stake,
                    ZERO,
                    clause,
                    SIDE,
                    violations=(
                        f"{src} §6.1.8: the Express Bonus is at least the ante ({minimum}); "
                        "void and returned",
                    ),
                )
            cards = table.boxes[target].dealt
        elif target == "D":
            cards = table.dealer
            cat = classify5(cards)[0]
            if cat in ("straight_flush", "royal_flush"):
                return result(
                    bet,
                    PUSH,
                    bet.stake,
                    ZERO,
                    f"{src} §6.1.11: the dealer holds a {LABEL[cat]}: bonuses on the dealer are returned",
                    SIDE,
                )
        else:
            if target not in table.boxes:
                raise EngineError(f"bets[{bet.index}].on", f"box {target} has no hand in the outcome")
            own = antes.get(target)
            if own is not None and (bet.box == target or (bet.player and bet.player == own.player)):
                return result(
                    bet,
                    VOID,
                    bet.stake,
                    ZERO,
                    clause,
                    SIDE,
                    violations=(
                        f"{src} §6.1.12: a player may not place a bonus on his own box; void and returned",
                    ),
                )
            cards = table.boxes[target].dealt
        if target in jackpot_boxes:
            return result(
                bet,
                PUSH,
                bet.stake,
                ZERO,
                f"{src} §6.1.10: box {target} won the Novo Jackpot; bonuses on it are returned",
                SIDE,
            )
        hand = novo_bonus_hand(bonus_table, cards)
        if hand is None:
            return result(bet, LOST, ZERO, ZERO, f"{clause}: the dealt five hold no bonus combination", SIDE)
        odds = frac(bonus_table[hand], f"rules.novo_bonus_table.{hand}")
        return result(
            bet,
            WON,
            bet.stake,
            win(bet.stake, odds),
            f"{clause}: {NOVO_LABEL.get(hand, LABEL.get(hand, hand))} dealt, {fmt(odds)} (A20: the "
            "single highest category)",
            SIDE,
        )

    def apply_caps(self, rules, src, bets: Sequence[Bet], results: list[BetResult]) -> list[BetResult]:
        """The table's maximum payouts per box (§5.5, §5.7.3, §6.1.15): the base game's and the bonuses'
        (the Novo Jackpot counted with the bonuses), each apart; the excess comes off the jackpot first,
        then the largest win."""
        groups: dict[tuple[str, Any], list[int]] = {}
        for i, (bet, r) in enumerate(zip(bets, results)):
            if r.winnings <= 0:
                continue
            if bet.type == "bonus":
                key = ("bonus_max_payout", (bet.params["on"], bet.player or bet.box))
            elif bet.type == "express_bonus" or r.category == JACKPOT:
                key = ("bonus_max_payout", (bet.box, bet.player or bet.box))
            else:
                key = ("table_max_payout", (bet.box, bet.player or bet.box))
            groups.setdefault(key, []).append(i)
        results = list(results)
        for (param, _), members in groups.items():
            if rules.get(param) is None:
                continue
            cap = parse_money(rules[param], f"rules.{param}")
            over = sum((results[i].winnings for i in members), ZERO) - cap
            for i in sorted(members, key=lambda i: (results[i].category != JACKPOT, -results[i].winnings)):
                if over <= 0:
                    break
                cut = min(over, results[i].winnings)
                r = results[i]
                note = f"{src} §6.1.15, §5.5: the table's {param.replace('_', ' ')} {cap}: {cut} not payable"
                results[i] = dataclasses.replace(
                    r, winnings=r.winnings - cut, note="; ".join(x for x in (r.note, note) if x)
                )
                over -= cut
        return results


def _jackpot_boxes(outcome: Mapping[str, Any], jackpot_table: Mapping[str, Any]) -> set[int]:
    """Box numbers whose five cards as dealt hold a Novo Jackpot combination (read leniently; the full
    check of the outcome is parse_table's)."""
    found = set()
    for i, item in enumerate(outcome.get("boxes") or []):
        if isinstance(item, Mapping) and isinstance(item.get("box"), int):
            try:
                cards = parse_cards(item.get("cards"), f"outcome.boxes[{i}].cards", count=5)
            except EngineError:
                continue
            if classify5(cards)[0] in jackpot_table:
                found.add(item["box"])
    return found


ENGINES = [NovoPoker("004", "novo_poker", {"standard": NOVO_004})]
