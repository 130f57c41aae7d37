"""Three-card poker (004 §4.9), RAY Fast Poker (002 §5.4) and Triple Bet Poker (002 §5.5): worked
examples, the own three-card ranking by complete enumeration, validation, money properties and the
exact house edge of every bet."""

from __future__ import annotations

import copy
import itertools
import json
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.base import EngineError
from casino.rules.cards import RANKS, SUITS, parse_cards
from casino.rules.games import three_card as tc
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, partial_match

EXAMPLES = examples("three_card")
DECK = [f"{r}{s}" for r in RANKS for s in SUITS]
RAY = {"kind": "ray", "max_stake": {"poker_box": "100.00"}, "win_cap": None}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    pair = json.loads(path.read_text())
    partial_match(compute(pair["input"]), pair["expected"])


def test_examples_cover_every_game():
    games = {json.loads(p.read_text())["input"]["game"] for p in EXAMPLES}
    assert games == {"three_card_poker", "fast_poker", "triple_bet_poker"}


def key(text):
    return tc.key3(parse_cards(text, "t", count=3))


# --------------------------------------------------------------------------------- the own ranking


def test_complete_enumeration_of_the_22100_hands():
    assert tc.category_counts() == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720,
                                    "flush": 1096, "pair": 3744, "high_card": 16440}


def test_distinct_hand_values():
    keys, _ = tc._all_hands()
    by_key = {}
    for k, (a, b, c) in zip(keys, tc._all_hands()[1]):
        ranks = tuple(sorted((DECK[a][0], DECK[b][0], DECK[c][0])))
        by_key.setdefault(k, set()).add(ranks)
    # Equal keys always mean the same ranks (suits never break ties, FP-09, Ch.10 §10.2.9).
    assert all(len(v) == 1 for v in by_key.values())


def test_ordering():
    ladder = ["5c 3d 2h", "7c 5d 4h", "Qc 3d 2h", "Ac Kd Jh", "2c 2d 3h", "2c 2d Ah", "3c 3d 2h", "Ac Ad Kh",
              "5h 3h 2h", "Ah Kh Jh", "Ac 2d 3h", "2c 3d 4h", "Qc Kd Ah", "2c 2d 2h", "Ac Ad Ah", "Ah 2h 3h",
              "2h 3h 4h", "Qh Kh Ah"]
    keys = [key(h) for h in ladder]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert tc.category3(key("Kc Ad 2h")) == "high_card"  # K-A-2 is no straight
    assert key("Ah Kd 9c") == key("As Kc 9d")  # suits have no rank
    assert key("Kh Kd 9c") > key("Kh Kd 8c")  # equal pairs: the third card decides
    assert key("Qc Jd 4h") >= tc.minimum_key("Q", "q") > key("Jc Td 8h")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True))
def test_higher_hand_never_pays_less(cards):
    """Same dealer, same stakes, both play: the better player hand never gets less (004 and 002)."""
    a, b = " ".join(cards[:3]), " ".join(cards[3:])
    rest = [c for c in DECK if c not in cards]
    dealer = " ".join(random.Random(" ".join(cards)).sample(rest, 3))
    if key(a) < key(b):
        a, b = b, a
    for game, main, side, variant, venue in (("three_card_poker", "ante", "pair_plus", "billionaire", "billionaire"),
                                            ("fast_poker", "bet", "bonus", "ray", RAY)):
        pays = []
        for hand in (a, b):
            answer = compute({"kind": "round", "rulebook": "004" if variant == "billionaire" else "002",
                              "venue": venue, "game": game, "variant": variant,
                              "bets": [{"type": main, "stake": "10.00", "box": 1},
                                       {"type": side, "stake": "10.00", "box": 1}],
                              "outcome": {"dealer": dealer, "boxes": [{"box": 1, "cards": hand, "action": "play"}]}})
            for r in answer["bets"]:
                assert Decimal(0) <= Decimal(r["payout"]) <= (
                    Decimal(r["valid_stake"]) + Decimal(r["added_stake"]) + Decimal(r["winnings"]))
            pays.append([Decimal(x) for x in answer["payout_per_bet"]])
        assert pays[0][0] >= pays[1][0] and pays[0][1] >= pays[1][1]


# --------------------------------------------------------------------------------------- settlement


def _tcp(bets, boxes, dealer="Qs Jd 4c", venue="billionaire", rules=None):
    doc = {"kind": "round", "rulebook": "004", "venue": venue, "game": "three_card_poker",
           "variant": "billionaire", "bets": bets, "outcome": {"dealer": dealer, "boxes": boxes}}
    if rules:
        doc["rules"] = rules
    return compute(doc)


def test_ante_bonus_is_paid_even_when_the_dealer_wins():
    answer = _tcp([{"type": "ante", "stake": "10.00", "box": 1}],
                  [{"box": 1, "cards": "5c 6d 7h", "action": "play"}], dealer="8s 9s Ts")
    r = answer["bets"][0]
    assert (r["returned"], r["winnings"], r["payout"]) == ("0.00", "10.00", "10.00")
    assert "beats straight: ante and Bet lose" in r["rule"] and "ante bonus straight 1:1" in r["rule"]


def test_equal_hands_push():
    r = _tcp([{"type": "ante", "stake": "10.00", "box": 1}],
             [{"box": 1, "cards": "Qc Jc 4d", "action": "play"}], dealer="Qs Jd 4h")["bets"][0]
    assert (r["status"], r["payout"], r["winnings"]) == ("push", "20.00", "0.00")


def test_fold_loses_pair_plus_but_fold_keep_keeps_it():
    bets = [{"type": "ante", "stake": "10.00", "box": 1}, {"type": "pair_plus", "stake": "5.00", "box": 1}]
    fold = _tcp(bets, [{"box": 1, "cards": "Jh 8h 3h", "action": "fold"}])
    assert fold["payout_per_bet"] == ["0.00", "0.00"]
    keep = _tcp(bets, [{"box": 1, "cards": "Jh 8h 3h", "action": "fold_keep_pair_plus"}])
    assert keep["payout_per_bet"] == ["0.00", "25.00"]


def test_pair_plus_alone_and_several_boxes():
    answer = _tcp([{"type": "pair_plus", "stake": "5.00", "box": 2}, {"type": "ante", "stake": "5.00", "box": 1}],
                  [{"box": 1, "cards": "2c 3c 4c", "action": "play"}, {"box": 2, "cards": "9h 9d 3s"}],
                  dealer="Qs Jd 5h")
    assert answer["payout_per_bet"][0] == "10.00"
    assert answer["bets"][1]["winnings"] == "30.00"  # ante 5 + bet 5 + ante bonus straight flush 4:1 = 20


def test_billionaire_box_cap():
    answer = _tcp([{"type": "ante", "stake": "100.00", "box": 1}, {"type": "pair_plus", "stake": "50.00", "box": 1}],
                  [{"box": 1, "cards": "8c 8d 8s", "action": "play"}], dealer="Jh 9c 4d",
                  venue={"kind": "billionaire", "win_cap": "1000.00"})
    assert answer["capped_excess"] == "400.00"  # 400 + 1000 won, 1000 payable; the side bet is cut first
    assert answer["bets"][1]["winnings"] == "600.00" and answer["bets"][0]["winnings"] == "400.00"


def _fp(bets, boxes, dealer="Kc Ks 4d"):
    return compute({"kind": "round", "rulebook": "002", "venue": RAY, "game": "fast_poker", "variant": "ray",
                    "bets": bets, "outcome": {"dealer": dealer, "boxes": boxes}})


def test_fast_poker_bonus_needs_the_main_game_and_one_seat():
    answer = _fp([{"type": "bonus", "stake": "5.00", "box": 2}], [{"box": 2, "cards": "7c 7d 7h"}])
    r = answer["bets"][0]
    assert r["status"] == "void" and r["payout"] == "5.00" and r["violations"]
    answer = _fp([{"type": "bet", "stake": "5.00", "box": 1, "player": "P"},
                  {"type": "bet", "stake": "5.00", "box": 2, "player": "P"}],
                 [{"box": 1, "cards": "7c 7d 7h", "action": "play"}, {"box": 2, "cards": "2c 5d 9h", "action": "fold"}])
    assert all("only one seat" in v for b in answer["bets"] for v in b["violations"])


def test_fast_poker_limit_from_the_venue():
    answer = _fp([{"type": "bet", "stake": "150.00", "box": 1}], [{"box": 1, "cards": "7c 7d 7h", "action": "play"}])
    r = answer["bets"][0]
    assert (r["valid_stake"], r["voided_excess"], r["added_stake"], r["winnings"]) == (
        "100.00", "50.00", "100.00", "400.00")


def _tb(bets, boxes, community="9h 5d", rules=None):
    doc = {"kind": "round", "rulebook": "002", "venue": RAY, "game": "triple_bet_poker", "variant": "ray",
           "bets": bets, "outcome": {"community": community, "boxes": boxes}}
    if rules:
        doc["rules"] = rules
    return compute(doc)


def _circles(stake="10.00"):
    return [{"type": "circle", "circle": i, "stake": stake, "box": 1} for i in (1, 2, 3)]


def test_triple_bet_withdrawals_and_unequal_stakes():
    answer = _tb(_circles(), [{"box": 1, "cards": "Tc Td 5s", "withdrawn": [3, 2]}], community="Kh 2d")
    assert [b["status"] for b in answer["bets"]] == ["won", "push", "push"]  # pair of tens pays 1:1
    with pytest.raises(EngineError) as err:
        _tb(_circles(), [{"box": 1, "cards": "Tc Td 5s", "withdrawn": [3, 3]}])
    assert err.value.field == "outcome.boxes[0].withdrawn[1]"
    bets = _circles()
    bets[2]["stake"] = "20.00"
    answer = _tb(bets, [{"box": 1, "cards": "Tc Td 5s"}])
    assert all("three equal stakes" in b["violations"][0] for b in answer["bets"])


def test_triple_bet_bonus_four_card_hands_and_fixed_stake():
    bonus = [{"type": "bonus", "stake": "5.00", "box": 1}]
    assert _tb(bonus, [{"box": 1, "cards": "Ac 2d 3h"}], community="4s 9c")["bets"][0]["winnings"] == "15.00"
    assert _tb(bonus, [{"box": 1, "cards": "Ac Jc 3c"}], community="4c 9d")["bets"][0]["winnings"] == "15.00"
    assert _tb(bonus, [{"box": 1, "cards": "Ac Qd 3h"}], community="4s 9c")["bets"][0]["status"] == "lost"
    rules = copy.deepcopy(tc.TRIPLE_BET_VARIANTS["ray"])
    rules["bonus_fixed_stake"] = "2.00"
    r = _tb(bonus, [{"box": 1, "cards": "Ac 2d 3h"}], community="4s 9c", rules=rules)["bets"][0]
    assert r["violations"] and r["winnings"] == "15.00"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True))
def test_four_card_helpers_against_a_brute_force(cards):
    hand = parse_cards(cards, "t")
    straight4 = False
    flush4 = False
    for four in itertools.combinations(hand, 4):
        if len({c.suit for c in four}) == 1:
            flush4 = True
        for low_ace in (False, True):
            r = sorted((1 if low_ace and c.rank == 14 else c.rank) for c in four)
            if r == list(range(r[0], r[0] + 4)):
                straight4 = True
    assert tc.four_card_straight(hand) == straight4 and tc.four_card_flush(hand) == flush4


@pytest.mark.parametrize(
    "bets, boxes, dealer, field",
    [
        ([{"type": "ante", "stake": "5.00", "box": 1}], [{"box": 1, "cards": "2c 3c 4c"}], "Qs Jd 4h",
         "outcome.boxes[0].action"),
        ([{"type": "ante", "stake": "5.00", "box": 1}], [{"box": 1, "cards": "2c 3c", "action": "play"}],
         "Qs Jd 4h", "outcome.boxes[0].cards"),
        ([{"type": "ante", "stake": "5.00", "box": 1}], [{"box": 1, "cards": "2c 3c 4c", "action": "play"}],
         "Qs Jd 4c", "outcome.boxes[0].cards"),
        ([{"type": "ante", "stake": "5.00", "box": 2}], [{"box": 1, "cards": "2c 3c 4c", "action": "play"}],
         "Qs Jd 4h", "bets[0].box"),
        ([{"type": "ante", "stake": "5.00"}], [{"box": 1, "cards": "2c 3c 4c", "action": "play"}],
         "Qs Jd 4h", "bets[0].box"),
        ([{"type": "bet", "stake": "5.00", "box": 1}], [{"box": 1, "cards": "2c 3c 4c", "action": "play"}],
         "Qs Jd 4h", "bets[0].type"),
        ([{"type": "ante", "stake": "5.00", "box": 1}, {"type": "ante", "stake": "5.00", "box": 1}],
         [{"box": 1, "cards": "2c 3c 4c", "action": "play"}], "Qs Jd 4h", "bets[1].type"),
    ],
)
def test_bad_input_names_the_field(bets, boxes, dealer, field):
    with pytest.raises(EngineError) as err:
        _tcp(bets, boxes, dealer)
    assert err.value.field == field


def test_missing_rule_parameter_names_it():
    rules = copy.deepcopy(tc.THREE_CARD_VARIANTS["billionaire"])
    del rules["side_bet"]["paytable"]
    with pytest.raises(EngineError) as err:
        _tcp([{"type": "ante", "stake": "5.00", "box": 1}], [{"box": 1, "cards": "2c 3c 4c", "action": "play"}],
             rules=rules)
    assert err.value.field == "rules.side_bet.paytable"


# ---------------------------------------------------------------------------------------- house edge


def pct(x: Fraction) -> float:
    return round(float(x) * 100, 2)


def _with(variant, **changes):
    v = copy.deepcopy(variant)
    for k, val in changes.items():
        if k == "side_paytable":
            v["side_bet"]["paytable"] = val
        else:
            v[k] = val
    return v


BILL = tc.THREE_CARD_VARIANTS["billionaire"]


def test_pair_plus_published_edges():
    """1-3-6-30-40 (pair, flush, straight, trips, straight flush): 7.28 %; 1-4-6-30-40: 2.32 %."""
    pp = lambda table: pct(tc._paytable_edge(tc._paytable(table, "t", tc.CATEGORIES3)))  # noqa: E731
    keys = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")
    assert pp(dict(zip(keys, ("1", "3", "6", "30", "40")))) == 7.28
    assert pp(dict(zip(keys, ("1", "4", "6", "30", "40")))) == 2.32
    assert pct(tc.house_edge(BILL)["pair_plus"]) == 7.93  # the Billionaire table 1-4-5-20-40


def test_ante_play_published_edge():
    """Ante bonus 1-4-5 with the posted Q-6-4 rule: 3.37 %; Q-6-4 is the optimal rule."""
    standard = _with(BILL, ante_bonus={"straight": "1", "three_of_a_kind": "4", "straight_flush": "5"})
    q64 = tc.ante_play_edge(standard, "Q 6 4")
    assert pct(q64) == 3.37
    assert tc.ante_play_edge(standard, "optimal") == q64
    assert tc.ante_play_edge(standard, "Q 6 4") < tc.ante_play_edge(standard, "2 3 5")  # play everything
    assert pct(tc.ante_play_edge(BILL)) == 3.83  # the Billionaire ante bonus 1-3-4


def test_fast_poker_edges():
    e = tc.house_edge(tc.FAST_POKER_VARIANTS["ray"])
    assert pct(e["bonus"]) == 7.75  # (48*31 + 52*31 + 720*6 + 1096*5 + 3744*2) / 22100 - 1
    assert e["bet"] <= tc.ante_play_edge(tc.FAST_POKER_VARIANTS["ray"], "Q 6 4")
    assert pct(e["bet"]) == 8.03


def test_triple_bet_enumeration():
    dist = tc.triple_bet_distribution(tc.TRIPLE_BET_VARIANTS["ray"])
    main = dist["main"]
    assert sum(main.values()) == sum(dist["bonus"].values()) == 2598960
    F = Fraction
    # The standard five-card counts, category by category, through the engine's own paytable.
    assert main == {F(30): 40, F(15): 624, F(10): 3744, F(7): 5108, F(5): 10200, F(3): 54912, F(2): 123552,
                    F(1): 5 * 84480, None: 2598960 - 40 - 624 - 3744 - 5108 - 10200 - 54912 - 123552 - 422400}
    e = tc.triple_bet_house_edge(tc.TRIPLE_BET_VARIANTS["ray"])
    expected_circle = 1 - F(40 * 31 + 624 * 16 + 3744 * 11 + 5108 * 8 + 10200 * 6 + 54912 * 4 + 123552 * 3
                            + 422400 * 2, 2598960)
    assert e["circle"] == expected_circle
    assert pct(e["bonus"]) == 21.11
