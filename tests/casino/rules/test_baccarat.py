"""Punto Banco (000-casino C-10) and Billionaire baccarat (004 §4.8): worked examples, the drawing
tableau, validation, money properties and the exact house edge of every bet."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.base import EngineError
from casino.rules.cards import RANKS, SUITS, parse_card
from casino.rules.games import baccarat as bac
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, partial_match

EXAMPLES = examples("baccarat")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    pair = json.loads(path.read_text())
    answer = compute(pair["input"])
    partial_match(answer, pair["expected"])
    for bet in answer["bets"]:
        assert "violations" not in bet  # the examples' deals follow the tableau


def test_examples_cover_both_rulebooks():
    assert len(EXAMPLES) >= 11
    assert {json.loads(p.read_text())["input"]["rulebook"] for p in EXAMPLES} == {"000", "004"}


def _round(bets, player, banker, variant="commission", rulebook="000", game="punto_banco", venue="casino",
           rules=None):
    doc = {"kind": "round", "rulebook": rulebook, "venue": venue, "game": game, "variant": variant,
           "bets": bets, "outcome": {"player": player, "banker": banker}}
    if rules is not None:
        doc["rules"] = rules
    return compute(doc)


def _b(kind, stake="10.00", **kw):
    return {"type": kind, "stake": stake, **kw}


# ------------------------------------------------------------------------------------- the tableau

TAB = bac.parse_rules(bac.PUNTO_BANCO_VARIANTS["commission"]).tableau


@pytest.mark.parametrize(
    "player, banker, expected",
    [
        ([2, 3], [4, 3], (True, False)),  # player 5 draws; banker 7 stands (C-10)
        ([4, 2], [3, 2], (False, True)),  # player stands on 6: banker draws up to 5
        ([4, 2], [3, 3], (False, False)),  # player stands on 6: banker 6 stands
        ([4, 4], [0, 0], (False, False)),  # player natural 8: no card for either
        ([0, 0], [9, 0], (False, False)),  # banker natural 9: no card for either
        ([1, 1, 8], [1, 2], (True, False)),  # banker 3 stands when the player's third card is 8
        ([1, 1, 9], [1, 2], (True, True)),  # ... and draws on 9
        ([1, 1, 1], [2, 2], (True, False)),  # banker 4: 0-1 stand
        ([1, 1, 2], [2, 2], (True, True)),  # banker 4: 2-7 draw
        ([1, 1, 3], [2, 3], (True, False)),  # banker 5: 0-3 stand
        ([1, 1, 4], [2, 3], (True, True)),  # banker 5: 4-7 draw
        ([1, 1, 5], [3, 3], (True, False)),  # banker 6: 0-5 stand
        ([1, 1, 6], [3, 3], (True, True)),  # banker 6: 6-7 draw
        ([1, 1, 7], [3, 4], (True, False)),  # banker 7 stands
        ([1, 1, 8], [0, 2], (True, True)),  # banker 0-2 always draws
    ],
)
def test_drawing_rules(player, banker, expected):
    assert bac.drawing(TAB, player, banker) == expected


def test_deal_against_the_tableau_is_reported_and_settled_as_dealt():
    # Player 5 stands (should draw): reported on every bet, settled on the cards as dealt (banker 7 wins).
    answer = _round([_b("banco"), _b("punto")], "2c 3d", "4s 3h")
    for bet in answer["bets"]:
        assert bet["violations"] and "draws a third card, none was dealt" in bet["violations"][0]
        assert "settled on the cards as dealt" in bet["note"]
    assert [b["status"] for b in answer["bets"]] == ["won", "lost"]
    # Banker 6 drew after the player stood: reported.
    answer = _round([_b("punto")], "4c 2d", "3s 3h 2c")
    assert "stands, a third card was dealt" in answer["bets"][0]["violations"][0]
    # Player drew on a natural of the banker.
    answer = _round([_b("punto")], "2c 3d 4h", "4s 4h")
    assert answer["bets"][0]["violations"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS]), min_size=6, max_size=6))
def test_random_legal_deals_settle_without_violation(cards):
    c = [parse_card(x) for x in cards]
    p, b = [c[0], c[2]], [c[1], c[3]]
    pd, _ = bac.drawing(TAB, [bac.point(x) for x in p], [bac.point(x) for x in b])
    if pd:
        p.append(c[4])
    _, bd = bac.drawing(TAB, [bac.point(x) for x in p], [bac.point(x) for x in b])
    if bd:
        b.append(c[5])
    bets = [_b(t, "7.00") for t in bac.BACCARAT_VARIANTS["billionaire"]["bets"]]
    answer = _round(bets, [str(x) for x in p], [str(x) for x in b], "billionaire", "004", "baccarat",
                    "billionaire")
    pt, bt = sum(map(bac.point, p)) % 10, sum(map(bac.point, b)) % 10
    statuses = {t: r["status"] for t, r in zip(bac.BACCARAT_VARIANTS["billionaire"]["bets"], answer["bets"])}
    for r in answer["bets"]:
        assert "violations" not in r
        payout, winnings = Decimal(r["payout"]), Decimal(r["winnings"])
        assert Decimal(0) <= payout <= Decimal(r["valid_stake"]) + winnings
        assert winnings <= Decimal("7.00") * 40
    if pt == bt:
        assert statuses["tie"] == "won" and statuses["player"] == statuses["banker"] == "push"
    else:
        winner, loser = ("player", "banker") if pt > bt else ("banker", "player")
        assert statuses[winner] == "won" and statuses[loser] == "lost" and statuses["tie"] == "lost"
    assert (statuses["player_pair"] == "won") == (p[0].rank == p[1].rank)


@settings(max_examples=100, deadline=None)
@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("20000"), places=2),
       st.sampled_from(["game_hall", "casino"]))
def test_stake_limit_and_commission_never_overpay(stake, venue):
    answer = _round([_b("banco", str(stake))], "2c 3d Kh", "4s 3h", venue=venue)
    r = answer["bets"][0]
    limit = Decimal("30.00") if venue == "game_hall" else Decimal("7000.00")
    valid = min(stake, limit)
    assert Decimal(r["valid_stake"]) == valid and Decimal(r["voided_excess"]) == stake - valid
    # 95 % of the valid stake, rounded down to the cent, never more.
    assert Decimal(r["winnings"]) == (valid * Decimal("0.95")).quantize(Decimal("0.01"), rounding="ROUND_DOWN")
    assert Decimal(r["payout"]) == stake + Decimal(r["winnings"])


# -------------------------------------------------------------------------------- rule data options


def test_minimum_commission_is_a_rule_parameter():
    rules = copy.deepcopy(bac.PUNTO_BANCO_VARIANTS["commission"])
    rules["bets"]["banco"]["min_commission"] = "1.00"
    r = _round([_b("banco", "10.00")], "2c 3d Kh", "4s 3h", rules=rules)["bets"][0]
    assert r["winnings"] == "9.00" and "minimum commission" in r["note"]
    r = _round([_b("banco", "100.00")], "2c 3d Kh", "4s 3h", rules=rules)["bets"][0]
    assert r["winnings"] == "95.00"


def test_missing_rule_parameter_names_it():
    rules = copy.deepcopy(bac.PUNTO_BANCO_VARIANTS["commission"])
    del rules["bets"]["banco"]["min_commission"]
    with pytest.raises(EngineError) as err:
        _round([_b("banco")], "2c 3d Kh", "4s 3h", rules=rules)
    assert err.value.field == "rules.bets.banco.min_commission"


def test_changed_paytable_changes_the_edge():
    rules = copy.deepcopy(bac.PUNTO_BANCO_VARIANTS["commission"])
    rules["bets"]["egalite"]["ratio"] = "9"
    assert round(float(bac.house_edge(rules)["egalite"]) * 100, 2) == 4.84  # tie 9:1, 8 decks
    r = _round([_b("egalite")], "4c 2d", "3s 3h", rules=rules)["bets"][0]
    assert r["winnings"] == "90.00"


def test_side_bet_without_main_bet_is_void_and_reported():
    answer = _round([_b("player_pair", player="A"), _b("panda", player="B"), _b("tie", player="B")],
                    "7s 7h 5c", "Kd Qc 2s", "billionaire", "004", "baccarat", "billionaire")
    pp, panda, _ = answer["bets"]
    assert pp["status"] == "void" and pp["payout"] == "10.00" and pp["violations"]
    assert panda["status"] == "lost" and "violations" not in panda  # Panda beside a Tie bet plays


def test_table_differential_is_reported():
    rules = copy.deepcopy(bac.BACCARAT_VARIANTS["billionaire"])
    rules["differential"] = "50.00"
    answer = _round([_b("banker", "100.00"), _b("player", "20.00")], "2c 3d Kh", "4s 3h", "billionaire", "004",
                    "baccarat", "billionaire", rules=rules)
    assert answer["bets"][0]["violations"] and "violations" not in answer["bets"][1]
    assert answer["bets"][0]["winnings"] == "100.00"


@pytest.mark.parametrize(
    "bets, player, banker, field",
    [
        ([_b("banker")], "2c 3d Kh", "4s 3h", "bets[0].type"),  # not a 000 bet
        ([_b("banco", numbers=[1])], "2c 3d Kh", "4s 3h", "bets[0].numbers"),
        ([_b("banco")], "2c 3d Kh 4d", "4s 3h", "outcome.player"),
        ([_b("banco")], "2c", "4s 3h", "outcome.player"),
        ([_b("banco")], "2c 3d Kh", "4s 1h", "outcome.banker[1]"),
        ([_b("banco")], "2c 3d Kh", 7, "outcome.banker"),
    ],
)
def test_bad_input_names_the_field(bets, player, banker, field):
    with pytest.raises(EngineError) as err:
        _round(bets, player, banker)
    assert err.value.field == field


def test_unknown_outcome_field():
    with pytest.raises(EngineError) as err:
        compute({"kind": "round", "rulebook": "000", "venue": "casino", "game": "punto_banco",
                 "variant": "commission", "bets": [_b("banco")],
                 "outcome": {"player": "2c 3d Kh", "banker": "4s 3h", "winner": "banker"}})
    assert err.value.field == "outcome.winner"


# ---------------------------------------------------------------------------------------- house edge


@pytest.fixture(scope="module")
def edges8():
    return {
        "commission": bac.house_edge(bac.PUNTO_BANCO_VARIANTS["commission"]),
        "half_pay_6": bac.house_edge(bac.PUNTO_BANCO_VARIANTS["half_pay_6"]),
        "billionaire": bac.house_edge(bac.BACCARAT_VARIANTS["billionaire"]),
    }


def pct(x: Fraction) -> float:
    return round(float(x) * 100, 2)


def test_published_edges_8_decks(edges8):
    e = edges8["commission"]
    assert (pct(e["banco"]), pct(e["punto"]), pct(e["egalite"])) == (1.06, 1.24, 14.36)


def test_published_edges_6_decks():
    e = bac.house_edge(bac.PUNTO_BANCO_VARIANTS["commission"], bac.shoe_of_decks(6))
    assert (pct(e["banco"]), pct(e["punto"]), pct(e["egalite"])) == (1.06, 1.24, 14.44)


def test_side_bet_edges(edges8):
    """Published figures for 8 decks (Wizard of Odds): Banker-6 half pay 1.46 %, Panda 8 (25:1) 10.19 %,
    Dragon 7 (40:1) 7.61 %, pair 11:1 10.36 %."""
    e = edges8["billionaire"]
    assert pct(e["banker"]) == pct(edges8["half_pay_6"]["banco"]) == 1.46
    assert (pct(e["panda"]), pct(e["dragon"]), pct(e["player_pair"]), pct(e["banker_pair"])) == (
        10.19, 7.61, 10.36, 10.36)
    assert e["player"] == edges8["commission"]["punto"] and e["tie"] == edges8["commission"]["egalite"]


def test_enumeration_is_complete():
    rules = bac.parse_rules(bac.PUNTO_BANCO_VARIANTS["commission"])
    weights, denom = bac.outcome_weights(rules, bac.shoe_of_decks(8))
    assert sum(weights.values()) == denom
    # A one-deck shoe gives the well-known single-deck banker edge 1.01 %.
    assert pct(bac.house_edge(bac.PUNTO_BANCO_VARIANTS["commission"], bac.shoe_of_decks(1))["banco"]) == 1.01
