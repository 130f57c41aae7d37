"""Ultimate Texas Hold'em (000-casino C-6, 004 Ch.4) and Texas Hold'em Ante/Bet (004 Ch.3): category counts,
house edges from the engine's own tables, violations, validation and properties."""

import copy
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from casino.rules.base import EngineError
from casino.rules.cards import category
from casino.rules.games import holdem
from casino.rules.jsonio import compute

# Published five- and seven-card category counts (e.g. Wikipedia, "Poker probability").
FIVE = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108,
        "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552, "pair": 1098240, "high_card": 1302540}
SEVEN = {"royal_flush": 4324, "straight_flush": 37260, "four_of_a_kind": 224848, "full_house": 3473184,
         "flush": 4047644, "straight": 6180020, "three_of_a_kind": 6461620, "two_pair": 31433400,
         "pair": 58627800, "high_card": 23294460}
RANKS = "23456789TJQKA"


def by_category(counts):
    out = Counter()
    for (name, _), n in counts.items():
        out[name] += n
    return dict(out)


def test_category_counts_match_the_published_counts():
    assert by_category(holdem.category_counts(5)) == FIVE
    assert by_category(holdem.category_counts(7)) == SEVEN


def test_category_counts_match_phevaluator_over_a_whole_small_deck():
    """Every 7-card hand of a 24-card deck (A, 2-6: wheels, straights, flushes, quads) through phevaluator."""
    ranks = (2, 3, 4, 5, 6, 14)
    ids = [(r - 2) * 4 + s for r in ranks for s in range(4)]  # phevaluator's card ids: rank * 4 + suit
    seen = Counter()
    for hand in combinations(ids, 7):
        rank = evaluate_cards(*hand)
        name = "royal_flush" if rank == 1 else category(rank)
        pair = 0
        if name == "pair":
            pair = next(r for r, n in Counter(c // 4 for c in hand).items() if n == 2) + 2
        seen[(name, pair)] += 1
    assert dict(seen) == holdem.category_counts(7, ranks)


def test_trips_house_edge_is_the_published_figure_and_follows_the_table():
    variant = holdem.UTH_000["standard"]
    edge = holdem.house_edge(variant)["trips"]
    assert round(float(edge) * 100, 2) == 3.50  # 50-40-30-8-7-4-3: 3.50 % (Wizard of Odds, UTH Trips)
    changed = copy.deepcopy(variant)
    changed["trips_paytable"]["full_house"] = "9"
    assert holdem.house_edge(changed)["trips"] == edge - Fraction(SEVEN["full_house"], comb(52, 7))
    assert holdem.house_edge(holdem.UTH_004["standard"])["trips"] == edge


def test_holdem_bonus_edge_from_the_published_five_card_counts():
    aces = 6 * comb(12, 3) * 4 ** 3  # a pair of aces, three other ranks
    better = sum(n for k, n in FIVE.items() if k not in ("pair", "high_card"))
    p = Fraction(aces + better, comb(52, 5))
    assert holdem.house_edge(holdem.HOLDEM_004["standard"])["bonus"] == 1 - 8 * p


def test_paytables_are_monotone():
    for variant in (holdem.UTH_000["standard"], holdem.UTH_004["standard"], holdem.HOLDEM_004["standard"]):
        for key in ("blind_paytable", "trips_paytable", "ante_paytable"):
            if key in variant:
                table = holdem.hand_table(variant, key)
                listed = [table[h] for h in holdem.HANDS if h in table]
                assert listed == sorted(listed, reverse=True), key
                # no gaps: once a hand is listed every better hand is listed too
                names = [h for h in holdem.HANDS if h in table]
                assert names == list(holdem.HANDS[: len(names)])


# ------------------------------------------------------------------------------------ rounds


def uth(bets, dealer, board, boxes, rulebook="000", venue="casino", rules=None, **extra):
    doc = {"kind": "round", "rulebook": rulebook, "venue": venue, "game": "ultimate_texas_holdem",
           "variant": "standard", "bets": bets, "outcome": {"dealer": dealer, "board": board, "boxes": boxes, **extra}}
    if rules is not None:
        doc["rules"] = rules
    return compute(doc)


def stakes(ante="50.00", play=None, trips=None, box=1, blind=None):
    out = [{"type": "ante", "stake": ante, "box": box}, {"type": "blind", "stake": blind or ante, "box": box}]
    if trips:
        out.append({"type": "trips", "stake": trips, "box": box})
    if play:
        out.append({"type": "play", "stake": play, "box": box})
    return out


FLUSH_WINS = dict(dealer="8s 4c", board="2h 5h Kh 8c 3d")


def test_a_4x_play_on_the_river_is_settled_as_1x_and_reported():
    answer = uth(stakes(play="200.00"), boxes={"1": {"cards": "Ah 9h", "actions": {"river": "play"}}}, **FLUSH_WINS)
    play = answer["bets"][2]
    assert play["winnings"] == "50.00" and play["returned"] == "200.00"
    assert "river" in play["violations"][0] and "settled as 1x" in play["violations"][0]


def test_a_2x_play_before_the_flop_is_not_a_casino_size():
    answer = uth(stakes(play="100.00"), boxes={"1": {"cards": "Ah 9h", "actions": {"preflop": "play"}}}, **FLUSH_WINS)
    play = answer["bets"][2]
    assert play["winnings"] == "100.00" and play["violations"]
    # The Billionaire's rules allow 1-4x before the flop: no violation.
    answer = uth(stakes(play="100.00"), rulebook="004", venue="billionaire",
                 boxes={"1": {"cards": "Ah 9h", "actions": {"preflop": "play"}}}, **FLUSH_WINS)
    assert "violations" not in answer["bets"][2]


def test_a_play_below_one_ante_is_void_and_the_hand_folds():
    answer = uth(stakes(play="20.00"), boxes={"1": {"cards": "Ah 9h", "actions": {"river": "play"}}}, **FLUSH_WINS)
    ante, blind, play = answer["bets"]
    assert play["status"] == "void" and play["payout"] == "20.00" and play["violations"]
    assert ante["status"] == blind["status"] == "lost"


def test_unequal_ante_and_blind_are_settled_on_the_smaller():
    answer = uth(stakes(ante="50.00", blind="80.00", play="200.00"),
                 boxes={"1": {"cards": "Ah 9h", "actions": {"preflop": "play"}}}, **FLUSH_WINS)
    ante, blind, play = answer["bets"]
    assert blind["winnings"] == "75.00" and blind["returned"] == "80.00" and blind["violations"]
    assert ante["winnings"] == "50.00"


def test_a_fold_before_the_river_is_reported_and_trips_still_settled():
    answer = uth(stakes(trips="10.00"), boxes={"1": {"cards": "2d 2c", "actions": {"preflop": "fold"}}},
                 dealer="8s 4c", board="2h 5h Kh 8c 3d")
    ante, blind, trips = answer["bets"]
    assert ante["status"] == "lost" and ante["violations"]
    assert trips["winnings"] == "30.00"  # three deuces 3:1 (E12 interpretation: trips regardless of the fold)
    rules = copy.deepcopy(holdem.UTH_000["standard"])
    rules["trips_on_fold"] = False
    answer = uth(stakes(trips="10.00"), boxes={"1": {"cards": "2d 2c", "actions": {"river": "fold"}}},
                 dealer="8s 4c", board="2h 5h Kh 8c 3d", rules=rules)
    assert answer["bets"][2]["status"] == "lost" and "violations" not in answer["bets"][0]


def test_trips_above_the_ante_in_the_billionaire():
    answer = uth(stakes(ante="20.00", trips="30.00", play="80.00"), rulebook="004", venue="billionaire",
                 boxes={"1": {"cards": "2d 2c", "actions": {"preflop": "play"}}}, dealer="8s 4c", board="2h 5h Kh 8c 3d")
    trips = answer["bets"][2]
    assert trips["winnings"] == "60.00" and trips["returned"] == "30.00" and trips["violations"]


def test_a_dark_box_plays_before_the_deal_in_the_billionaire_only():
    boxes = {"1": {"cards": "Ah 9h", "actions": {"dark": "play"}}}
    answer = uth(stakes(play="200.00"), rulebook="004", venue="billionaire", boxes=boxes, **FLUSH_WINS)
    assert answer["bets"][2]["winnings"] == "200.00" and "violations" not in answer["bets"][2]
    with pytest.raises(EngineError) as err:
        uth(stakes(play="200.00"), boxes=boxes, **FLUSH_WINS)
    assert err.value.field == "outcome.boxes.1.actions.dark"


def test_the_ante_is_limited_and_the_play_is_not():
    answer = uth(stakes(ante="8000.00", play="28000.00"),
                 boxes={"1": {"cards": "Ah 9h", "actions": {"preflop": "play"}}}, **FLUSH_WINS)
    ante, blind, play = answer["bets"]
    assert ante["voided_excess"] == "1000.00" and ante["winnings"] == "7000.00"
    assert play["winnings"] == "28000.00" and play["voided_excess"] == "0.00" and "violations" not in play


@pytest.mark.parametrize("bets, outcome, field", [
    (stakes(), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d", "boxes": {"1": {"cards": "Ah 9h"}}},
     "outcome.boxes.1.actions.river"),
    (stakes(), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d", "boxes": {"1": {"cards": "Ah 8s",
                                                                                "actions": {"river": "fold"}}}},
     "outcome.boxes.1.cards"),
    (stakes(), {"dealer": "8s 4c", "board": "2h 5h Kh 8c", "boxes": {"1": {"cards": "Ah 9h",
                                                                           "actions": {"river": "fold"}}}},
     "outcome.board"),
    (stakes(), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d", "boxes": {"1": {"cards": "Ah 9h",
                                                                             "actions": {"river": "check"}}}},
     "outcome.boxes.1.actions.river"),
    (stakes(), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d", "boxes": {"1": {"cards": "Ah 9h",
                                                                             "actions": {"river": "play"}}}},
     "outcome.boxes.1.actions.river"),
    (stakes(play="50.00"), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d",
                            "boxes": {"1": {"cards": "Ah 9h", "actions": {"river": "fold"}}}}, "bets[2].type"),
    (stakes(play="50.00"), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d",
                            "boxes": {"1": {"cards": "Ah 9h", "actions": {"preflop": "play", "river": "play"}}}},
     "outcome.boxes.1.actions.river"),
    (stakes(), {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d", "boxes": {"2": {"cards": "Ah 9h"}}},
     "outcome.boxes.1"),
    ([{"type": "trips", "stake": "5.00"}], {"dealer": "8s 4c", "board": "2h 5h Kh 8c 3d", "boxes": {}},
     "bets[0].type"),
    ([*stakes(), {"type": "raise", "stake": "5.00"}], {}, "bets[2].type"),
    ([{**stakes()[0], "street": "flop"}, stakes()[1]], {}, "bets[0].street"),
])
def test_malformed_rounds_name_the_field(bets, outcome, field):
    with pytest.raises(EngineError) as err:
        compute({"kind": "round", "rulebook": "000", "venue": "casino", "game": "ultimate_texas_holdem",
                 "variant": "standard", "bets": bets, "outcome": outcome})
    assert err.value.field == field, err.value


def test_the_progressive_table_is_a_required_parameter():
    bets = [*stakes(play="200.00"), {"type": "progressive", "stake": "5.00"}]
    boxes = {"1": {"cards": "Ah 9h", "actions": {"preflop": "play"}}}
    with pytest.raises(EngineError) as err:
        uth(bets, boxes=boxes, **FLUSH_WINS)
    assert err.value.field == "rules.progressive"
    rules = copy.deepcopy(holdem.UTH_000["standard"])
    rules["progressive"] = {"hand": "best_five_of_seven", "stake_returned": False,
                            "paytable": {"royal_flush": {"pot_percent": "100"}, "flush": {"pot_percent": "1.5"},
                                         "straight": {"fixed": "50.00"}}}
    with pytest.raises(EngineError) as err:
        uth(bets, boxes=boxes, rules=rules, **FLUSH_WINS)
    assert err.value.field == "outcome.progressive_pot"
    answer = uth(bets, boxes=boxes, rules=rules, progressive_pot="10000.99", **FLUSH_WINS)
    progressive = answer["bets"][3]
    assert progressive["winnings"] == "150.01" and progressive["returned"] == "0.00"  # 1.5 % rounded down
    assert progressive["category"] == "jackpot"


def test_holdem_fold_keeps_the_bonus_and_a_short_bet_folds():
    def holdem_round(bets, actions, rules=None):
        doc = {"kind": "round", "rulebook": "004", "venue": "billionaire", "game": "texas_holdem",
               "variant": "standard", "bets": bets,
               "outcome": {"dealer": "4c 4h", "board": "Ac 7h 2s", "boxes": {"1": {"cards": "As Ad", "actions": actions}}}}
        if rules:
            doc["rules"] = rules
        return compute(doc)

    answer = holdem_round([{"type": "ante", "stake": "100.00"}, {"type": "bonus", "stake": "150.00"}],
                          {"flop": "fold"})
    ante, bonus = answer["bets"]
    assert ante["status"] == "lost"
    assert bonus["winnings"] == "700.00" and bonus["returned"] == "150.00" and bonus["violations"]  # 100 at 7:1
    answer = holdem_round([{"type": "ante", "stake": "100.00"}, {"type": "bet", "stake": "150.00"}],
                          {"flop": "play"})
    assert answer["bets"][0]["status"] == "lost" and answer["bets"][1]["status"] == "void"
    rules = copy.deepcopy(holdem.HOLDEM_004["standard"])
    rules["electronic_bonus"] = None
    with pytest.raises(EngineError) as err:
        holdem_round([{"type": "ante", "stake": "100.00"}, {"type": "electronic_bonus", "stake": "5.00"}],
                     {"flop": "fold"}, rules)
    assert err.value.field == "rules.electronic_bonus"


def test_holdem_dealer_qualifies_with_fours():
    def dealer_cards(dealer):
        return compute({"kind": "round", "rulebook": "004", "venue": "billionaire", "game": "texas_holdem",
                        "variant": "standard",
                        "bets": [{"type": "ante", "stake": "100.00"}, {"type": "bet", "stake": "200.00"}],
                        "outcome": {"dealer": dealer, "board": "2h 9c Jd Qs 7c",
                                    "boxes": {"1": {"cards": "3s 5d", "actions": {"flop": "play"}}}}})
    assert dealer_cards("3h 3d")["bets"][0]["winnings"] == "100.00"  # threes: no game, ante 1:1
    assert dealer_cards("4h 4d")["bets"][0]["status"] == "lost"  # fours qualify and win


# -------------------------------------------------------------------------------------- properties

DECK = [r + s for r in RANKS for s in "cdhs"]


@st.composite
def uth_round(draw):
    cards = draw(st.permutations(DECK))
    ante = draw(st.integers(1, 7000))
    street = draw(st.sampled_from(["preflop", "flop", "river", "fold"]))
    multiple = {"preflop": 4, "flop": 2, "river": 1, "fold": 0}[street]
    trips = draw(st.integers(1, 100))
    return cards, ante, street, multiple, trips


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uth_round())
def test_uth_money_and_monotonicity(case):
    """Two boxes with the same stakes and decisions against one dealer: payouts are never negative,
    returned stakes never exceed the valid stake, limits hold, and the better hand never gets less."""
    cards, ante, street, multiple, trips = case
    bets, boxes = [], {}
    for box, hole in ((1, cards[0:2]), (2, cards[2:4])):
        bets += stakes(ante=f"{ante}.00", trips=f"{trips}.00", box=box,
                       play=f"{ante * multiple}.00" if multiple else None)
        boxes[str(box)] = {"cards": hole, "actions": {"river" if street == "fold" else street:
                                                       "fold" if street == "fold" else "play"}}
    answer = uth(bets, dealer=cards[4:6], board=cards[6:11], boxes=boxes)
    for bet, r in zip(bets, answer["bets"]):
        assert Decimal(r["payout"]) >= 0
        assert Decimal(r["valid_stake"]) <= Decimal("7000.00") or bet["type"] == "play"
        assert Decimal(r["returned"]) <= Decimal(r["stake"])
        assert "violations" not in r
    half = len(bets) // 2
    pay = [sum(Decimal(r["payout"]) for r in answer["bets"][i * half:(i + 1) * half]) for i in (0, 1)]
    ranks = [evaluate_cards(*cards[0:2], *cards[6:11]), evaluate_cards(*cards[2:4], *cards[6:11])]
    if ranks[0] < ranks[1]:
        assert pay[0] >= pay[1]
    elif ranks[1] < ranks[0]:
        assert pay[1] >= pay[0]
    else:
        assert pay[0] == pay[1]
