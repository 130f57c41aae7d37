"""OFC (the ``ofc`` kind): the digest's bonus table and fouls, A-36's legality reading, the
tournament settlement order and caps (001 §2.15, §3.8)."""

from __future__ import annotations

import pytest

from casino.rules.base import EngineError
from casino.rules.jsonio import compute
from casino.rules.poker import ofc

# A legal opponent with no bonus anywhere: front K-high, middle pair of twos, back pair of threes.
PLAIN = {"front": "Kc 9d 4c", "middle": "2c 2d 7c 8d Jc", "back": "3c 3d Tc Jd Qd"}


def _vs(hand, button="B"):
    return compute({"kind": "ofc", "mode": "cash", "point_value": "1.00", "button": button,
                    "players": [{"player": "A", **hand}, {"player": "B", **PLAIN}]})


@pytest.mark.parametrize("back,bonus", [
    ("As Ks Qs Js Ts", 25),  # royal flush (001: back 25)
    ("9h 8h 7h 6h 5h", 15),  # straight flush
    ("6s 6h 6c 6d 5h", 10),  # four of a kind
    ("5s 5h 5c 4s 4h", 6),  # full house
    ("Ah Th 8h 6h 5h", 4),  # flush
    ("Ah Kh Qs Jh Th", 2),  # straight
])
def test_back_bonus_table(back, bonus):
    hand = {"front": "7s 4d 2h", "middle": "Ac Ad 9c 9s 8c", "back": back}
    out = _vs(hand)
    # A loses the front (7-high to K-high) and wins the middle and back: +1, plus the bonus
    assert out["pairs"][0]["points"] == 1 + bonus


@pytest.mark.parametrize("front,bonus", [("6s 6h 3s", 1), ("Ts Th 3s", 5), ("As Ah 3s", 9), ("7s 7h 7d", 15),
                                         ("Qs Qh Qc", 20), ("As Ah Ac", 22)])
def test_front_bonus_table(front, bonus):
    hand = {"front": front, "middle": "4s 4d 4h Ks Kh", "back": "5s 5h 5c 5d 9c"}
    out = _vs(hand)
    # a middle full house (12) and back quads (10) ride along; all three rows won: 6
    assert out["pairs"][0]["points"] == 6 + bonus + 12 + 10


def test_foul_pays_six_plus_the_opponents_bonuses_and_collects_none():
    fouled = {"front": "As Ah Ad", "middle": "2s 3s 4s 5s 6s", "back": "Kh Ks 7h 8h 9h"}  # back below middle
    out = _vs(fouled)
    assert out["players"][0]["fouled"] and out["pairs"][0]["points"] == -6


def test_front_equal_to_middle_is_legal_unless_strict():
    hand = {"front": "6s 6h 5s", "middle": "6c 6d 5h 3h 2s", "back": "As Ks Qs Js 9s"}
    assert not _vs(hand)["players"][0]["fouled"]  # front <= middle
    strict = compute({"kind": "ofc", "mode": "cash", "point_value": "1.00", "button": "B", "strict_front": True,
                      "players": [{"player": "A", **hand}, {"player": "B", **PLAIN}]})
    assert strict["players"][0]["fouled"]


def test_digest_example_16_settlement_figures():
    """001 Example 16 with its own pairwise figures (A beats B by 12, C beats A by 4, B beats C by 5;
    10 chips a point): B pays 100 (his start stack) and is out; his 50 from C is never collected."""
    points = {("A", "B"): 12, ("B", "A"): -12, ("C", "A"): 4, ("A", "C"): -4, ("B", "C"): 5, ("C", "B"): -5}
    end, transfers = ofc.settle_tournament(["A", "B", "C"], {"A": 300, "B": 100, "C": 500}, points, 10)
    assert end == {"A": 360, "B": 0, "C": 540}
    assert [t["paid"] for t in transfers] == [100, 40, 0]


def test_winner_cannot_win_more_than_his_own_start_stack():
    points = {("A", "B"): 30, ("B", "A"): -30}
    end, transfers = ofc.settle_tournament(["A", "B"], {"A": 50, "B": 1000}, points, 10)
    assert end == {"A": 100, "B": 950} and "winner's start-of-hand stack" in transfers[0]["rule"]


def _high_card_hand(k: int) -> dict[str, str]:
    """13 distinct ranks, suits rotated by k: back A K Q J 9, middle T 8 7 6 4, front 5 3 2 (legal)."""
    suit = {r: "cdhs"[(v + k) % 4] for r, v in zip("23456789TJQKA", range(2, 15))}
    return {row: " ".join(r + suit[r] for r in ranks)
            for row, ranks in (("front", "532"), ("middle", "T8764"), ("back", "AKQJ9"))}


def test_five_seated_the_button_sits_out():
    seats = [{"player": "A", **_high_card_hand(0)}, {"player": "B", **_high_card_hand(1)}, {"player": "C"},
             {"player": "D", **_high_card_hand(2)}, {"player": "E", **_high_card_hand(3)}]
    out = compute({"kind": "ofc", "mode": "cash", "point_value": "1.00", "button": "C", "players": seats})
    assert out["order"] == ["D", "E", "A", "B"]
    assert {p["player"] for p in out["players"]} == {"A", "B", "D", "E"}
    seats[2] = {"player": "C", "front": "2c 3c 4c"}
    with pytest.raises(EngineError) as err:
        compute({"kind": "ofc", "mode": "cash", "point_value": "1.00", "button": "C", "players": seats})
    assert err.value.field == "players[2]"
