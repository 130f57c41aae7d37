"""Dynamic Poker (000-casino G-5, 002 §5.6), Dynamic Poker Pro (000-casino C-7) and Riverside Poker (002 §5.7)."""

import copy
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from casino.rules.base import EngineError
from casino.rules.cards import Card
from casino.rules.games import dynamic_poker as dp
from casino.rules.jsonio import compute

RAY = {"kind": "ray", "max_stake": {"poker_box": "100.00"}, "win_cap": None}
RANKS = "23456789TJQKA"


def play(game, rulebook, variant, bets, dealer, board, cards, actions, venue=None, rules=None):
    doc = {"kind": "round", "rulebook": rulebook, "venue": venue or {"000": "casino", "002": RAY}[rulebook],
           "game": game, "variant": variant, "bets": bets,
           "outcome": {"dealer": dealer, "board": board, "boxes": {"1": {"cards": cards, "actions": actions}}}}
    if rules is not None:
        doc["rules"] = rules
    return compute(doc)


def dpp(bets, dealer, board, cards, actions=None, **kw):
    return play("dynamic_poker_pro", "000", "casino", bets, dealer, board, cards,
                actions or {"preflop": "play", "flop": "play", "turn": "play"}, **kw)


def chips(blind="10.00", flop="20.00", turn="10.00", river="10.00", bonus=None):
    out = [{"type": "blind", "stake": blind}]
    for kind, stake in (("flop", flop), ("turn", turn), ("river", river), ("bonus", bonus)):
        if stake:
            out.append({"type": kind, "stake": stake})
    return out


# ------------------------------------------------------------------------------- two-card bonus


def independent_bonus_odds(a, b, table):
    """Read the printed tables directly: pairs by colour, suited / offsuit aces."""
    hi, lo = (a, b) if a.rank >= b.rank else (b, a)
    names = {14: "A", 13: "K", 12: "Q", 11: "J"}
    if hi.rank == lo.rank:
        red = {"h", "d"}
        colour = "same" if (hi.suit in red) == (lo.suit in red) else "different"
        return table.get(f"{names.get(hi.rank, '?')}{names.get(hi.rank, '?')}-{colour}-colour",
                         table.get(names.get(hi.rank, "?") * 2))
    if hi.rank != 14 or lo.rank not in names:
        return None
    key = "A" + names[lo.rank]
    return table.get(key + ("s" if hi.suit == lo.suit else "o"), table.get(key))


@pytest.mark.parametrize("variant", [dp.DYNAMIC_000["game_hall"], dp.DYNAMIC_002["standard"], dp.DPP_000["casino"]])
def test_two_card_bonus_over_all_1326_hands(variant):
    deck = [Card(r, s) for r in range(2, 15) for s in "cdhs"]
    table = {k: Fraction(v) for k, v in variant["bonus_paytable"].items()}
    expected = Fraction(0)
    for a, b in combinations(deck, 2):
        want = independent_bonus_odds(a, b, table)
        assert dp.bonus_odds(variant, (a, b))[1] == want, (a, b)
        expected += (want if want is not None else -1)
    assert dp.house_edge(variant)["bonus"] == -expected / 1326


def test_dpp_bonus_counts_and_the_for_one_reading():
    # AA of one colour: 2 of 6 pairs; A-K suited 4 of 16; A-Q / A-J offsuit 12 each (Ambiguity 5)
    variant = dp.DPP_000["casino"]
    win = (2 * 80 + 4 * 40 + 12 * 30 + 12 * 15 + 12 * 10 + 24 * 5)
    assert dp.house_edge(variant)["bonus"] == 1 - Fraction(win + 66, 1326)
    for_one = {**variant, "bonus_odds_kind": "for_one"}
    assert dp.house_edge(for_one)["bonus"] == dp.house_edge(variant)["bonus"] + Fraction(66, 1326)


def test_riverside_bonus_edge_from_the_published_five_card_counts():
    counts = {"straight_flush": 40, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108, "straight": 10200,
              "three_of_a_kind": 54912, "two_pair": 123552}
    odds = {"straight_flush": 30, "four_of_a_kind": 20, "full_house": 15, "flush": 10, "straight": 10,
            "three_of_a_kind": 10, "two_pair": 10}
    wins = sum(counts[k] * (odds[k] + 1) for k in counts)
    assert dp.house_edge(dp.RIVERSIDE_002["standard"])["bonus"] == 1 - Fraction(wins, comb(52, 5))


# ------------------------------------------------------------------------------------ settlement


def test_dpp_river_pays_2_to_1_on_three_jacks_not_on_three_queens():
    jacks = dpp(chips(), dealer="9d 8c", board="Jd Jc 4h 7s 2c", cards="Js 3h")
    assert [b["winnings"] for b in jacks["bets"]] == ["0.00", "20.00", "10.00", "20.00"]
    queens = dpp(chips(), dealer="9d 8c", board="Qd Qc 4h 7s 2c", cards="Qs 3h")
    assert queens["bets"][3]["winnings"] == "10.00"


def test_dynamic_poker_blind_wins_only_with_a_flush_or_better():
    straight = play("dynamic_poker", "000", "game_hall", chips(), "9d 8c", "Qd Jc Th 4s 2c", "As Kh",
                    {"preflop": "play", "flop": "play", "turn": "play"}, venue="game_hall")
    assert straight["bets"][0]["status"] == "push"
    flush = play("dynamic_poker", "000", "game_hall", chips(), "9d 8c", "Qs 7s 2s 9h 3c", "As Ks",
                 {"preflop": "play", "flop": "play", "turn": "play"}, venue="game_hall")
    assert flush["bets"][0]["winnings"] == "10.00"


def test_game_hall_box_limit_applies_to_blind_and_bonus_only():
    answer = play("dynamic_poker", "000", "game_hall", chips(blind="40.00", flop="60.00", turn="30.00",
                                                             river="30.00", bonus="40.00"),
                  "9d 8c", "Qs 7s 2s 9h 3c", "As Ks", {"preflop": "play", "flop": "play", "turn": "play"},
                  venue="game_hall")
    blind, flop, turn, river, bonus = answer["bets"]
    assert blind["valid_stake"] == "30.00" and bonus["valid_stake"] == "30.00"
    assert flop["valid_stake"] == "60.00" and flop["winnings"] == "60.00" and "violations" not in flop
    assert bonus["winnings"] == "1200.00"  # A-K suited 40:1 on 30


def test_ray_needs_the_tables_maximum():
    with pytest.raises(EngineError) as err:
        play("dynamic_poker", "002", "standard", chips(), "9d 8c", "Qs 7s 2s 9h 3c", "As Ks",
             {"preflop": "play"}, venue={"kind": "ray", "win_cap": None})
    assert err.value.field == "venue.max_stake.poker_box"


def test_continuation_bets_of_the_wrong_size():
    big = dpp(chips(flop="30.00"), dealer="9d 8c", board="Qd Jc 4h 7s 2c", cards="Qs 3h")
    flop = big["bets"][1]
    assert flop["winnings"] == "20.00" and flop["returned"] == "30.00" and flop["violations"]
    short = dpp(chips(flop="15.00"), dealer="9d 8c", board="Qd Jc 4h 7s 2c", cards="Qs 3h")
    assert [b["status"] for b in short["bets"]] == ["lost", "void", "void", "void"]
    assert short["bets"][0]["payout"] == "0.00" and short["bets"][1]["violations"]


def test_dpp_allows_a_river_bet_without_a_turn_bet():
    answer = dpp(chips(turn=None), dealer="9d 8c", board="Qd Jc 4h 7s 2c", cards="Qs 3h",
                 actions={"preflop": "play", "turn": "play"})
    assert answer["bets"][2]["winnings"] == "10.00" and "violations" not in answer["bets"][2]


def test_folds_lose_blind_and_bonus():
    answer = dpp([{"type": "blind", "stake": "10.00"}, {"type": "bonus", "stake": "5.00"}], dealer="9d 8c",
                 board="", cards="As Ah", actions={"preflop": "fold"})
    assert [b["payout"] for b in answer["bets"]] == ["0.00", "0.00"]
    answer = play("riverside_poker", "002", "standard",
                  [{"type": "blind", "stake": "10.00"}, {"type": "bonus", "stake": "5.00"}],
                  "9d 8c", "Ac Ad 4h", "As Ah", {"flop": "fold"})
    assert [b["payout"] for b in answer["bets"]] == ["0.00", "0.00"]  # four aces, but folded (RP-07)


@pytest.mark.parametrize("bets, actions, field", [
    (chips(), {"flop": "play", "turn": "play"}, "outcome.boxes.1.actions.preflop"),
    (chips(turn=None), {"preflop": "play", "flop": "play", "turn": "play"}, "outcome.boxes.1.actions.flop"),
    (chips(), {"preflop": "play", "turn": "play"}, "bets[2].type"),
    (chips(), {"preflop": "fold", "flop": "play"}, "outcome.boxes.1.actions.flop"),
    (chips(), {"preflop": "play", "flop": "raise"}, "outcome.boxes.1.actions.flop"),
    ([{"type": "bonus", "stake": "5.00"}], {"preflop": "play"}, "bets[0].type"),
])
def test_malformed_dynamic_rounds(bets, actions, field):
    with pytest.raises(EngineError) as err:
        dpp(bets, dealer="9d 8c", board="Qd Jc 4h 7s 2c", cards="Qs 3h", actions=actions)
    assert err.value.field == field, err.value


def test_riverside_tie_is_a_push_and_the_bonus_stands():
    answer = play("riverside_poker", "002", "standard",
                  [{"type": "blind", "stake": "10.00"}, {"type": "call", "stake": "20.00"},
                   {"type": "bonus", "stake": "5.00"}], "2d 3c", "Ah Ad Kc Kd Qs", "4s 5h", {"flop": "play"})
    blind, call, bonus = answer["bets"]
    assert blind["status"] == call["status"] == "push"
    assert bonus["status"] == "lost"  # the first five (4s 5h Ah Ad Kc) hold only a pair
    richer = copy.deepcopy(dp.RIVERSIDE_002["standard"])
    richer["bonus_paytable"]["pair"] = "1"
    answer = play("riverside_poker", "002", "standard", [{"type": "blind", "stake": "10.00"},
                                                         {"type": "call", "stake": "20.00"},
                                                         {"type": "bonus", "stake": "5.00"}],
                  "2d 3c", "Ah Ad Kc Kd Qs", "4s 5h", {"flop": "play"}, rules=richer)
    assert answer["bets"][2]["winnings"] == "5.00"  # a published version's table changes the result


# -------------------------------------------------------------------------------------- properties

DECK = [r + s for r in RANKS for s in "cdhs"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(DECK), st.integers(1, 50), st.booleans(), st.booleans(),
       st.sampled_from(["dynamic_poker_pro", "dynamic_poker", "riverside_poker"]))
def test_money_and_monotonicity(cards, blind, turn, river, game):
    """Two boxes, same stakes and decisions: payouts never negative; the better final hand never gets less
    on the base bets (the bonus is decided by other cards)."""
    bets, boxes = [], {}
    for box, hole in ((1, cards[0:2]), (2, cards[2:4])):
        if game == "riverside_poker":
            bets += [{"type": "blind", "stake": f"{blind}.00", "box": box},
                     {"type": "call", "stake": f"{2 * blind}.00", "box": box}]
            actions = {"flop": "play"}
        else:
            bets += [{"type": "blind", "stake": f"{blind}.00", "box": box},
                     {"type": "flop", "stake": f"{2 * blind}.00", "box": box}]
            actions = {"preflop": "play"}
            if turn:
                bets.append({"type": "turn", "stake": f"{blind}.00", "box": box})
                actions["flop"] = "play"
                if river:
                    bets.append({"type": "river", "stake": f"{blind}.00", "box": box})
                    actions["turn"] = "play"
        boxes[str(box)] = {"cards": hole, "actions": actions}
    rulebook, variant = {"dynamic_poker_pro": ("000", "casino"), "dynamic_poker": ("002", "standard"),
                         "riverside_poker": ("002", "standard")}[game]
    answer = compute({"kind": "round", "rulebook": rulebook, "venue": {"000": "casino", "002": RAY}[rulebook],
                      "game": game, "variant": variant, "bets": bets,
                      "outcome": {"dealer": cards[4:6], "board": cards[6:11], "boxes": boxes}})
    for r in answer["bets"]:
        assert Decimal(r["payout"]) >= 0 and Decimal(r["returned"]) <= Decimal(r["stake"])
        assert "violations" not in r
    pay = {1: Decimal(0), 2: Decimal(0)}
    for bet, r in zip(bets, answer["bets"]):
        pay[bet["box"]] += Decimal(r["payout"])
    ranks = [evaluate_cards(*cards[0:2], *cards[6:11]), evaluate_cards(*cards[2:4], *cards[6:11])]
    if ranks[0] < ranks[1]:
        assert pay[1] >= pay[2]
    elif ranks[1] < ranks[0]:
        assert pay[2] >= pay[1]
    else:
        assert pay[1] == pay[2]
