"""Chinese Poker scoring between players (the `chinese_poker` kind): 000-casino C-4's 1-3 scoring and
001's Open Faced Chinese (rows, scoop, bonuses, fouls, the cash game's 50-point cap)."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import cards as C
from casino.rules.base import EngineError
from casino.rules.games import chinese_poker as cp
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, partial_match

EXAMPLES = examples("chinese_poker")
DECK = [C.Card(r, s) for r in range(2, 15) for s in C.SUITS]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    pair = json.loads(path.read_text())
    partial_match(compute(pair["input"]), pair["expected"])


def test_all_three_card_fronts():
    """All 22,100 fronts: straights and flushes do not count (52 trips, 3,744 pairs, 18,304 high
    cards), and the order matches phevaluator's on five-card hands of the same ranks padded with the
    same two low cards where the padding changes no category."""
    counts = Counter(cp.front_key(h)[0] for h in combinations(DECK, 3))
    assert counts == {3: 52, 1: 3744, 0: 18304}
    rng = random.Random(3)
    pad_pool = [c for c in DECK if c.rank in (2, 3)]
    checked = 0
    while checked < 3000:
        a, b = rng.sample([h for h in (tuple(rng.sample(DECK, 3)) for _ in range(2))], 2)
        pad = [c for c in pad_pool if c not in a and c not in b]
        pad = [pad[0]] + [c for c in pad if c.rank != pad[0].rank][:1]
        if len(pad) < 2 or any(c.rank in (2, 3) for c in (*a, *b)):
            continue
        ra, rb = C.rank_high([*a, *pad]), C.rank_high([*b, *pad])
        if C.category(ra) not in ("high_card", "pair", "three_of_a_kind") or \
                C.category(rb) not in ("high_card", "pair", "three_of_a_kind"):
            continue  # the padding made a straight or flush: not comparable
        ka, kb = cp.front_key(a), cp.front_key(b)
        assert (ka > kb) == (ra < rb) and (ka == kb) == (ra == rb), (a, b)
        checked += 1


def _ofc(players, **extra):
    return {"kind": "chinese_poker", "rulebook": "001", "game": "open_faced_chinese", "point_value": "2.50",
            "players": players, **extra}


def test_scoop_and_wrong_row_sizes():
    players = [
        {"player": "A", "front": "2s 3d 5c", "middle": "9h 9d 7c 6s 4c", "back": "Ac Tc 8c 6c 3c"},
        {"player": "B", "front": "Ks Qd 2c", "middle": "Jh Jc 3h 3s", "back": "4h 4d 4s 2h 2d Ad"},
    ]
    out = compute(_ofc(players))
    assert out["players"][1]["fouled"] and out["players"][1]["foul"] == "rows of 3/4/6 cards, not 3/5/5"
    assert out["pairs"][0]["points"] == 6 + 4  # 6 from the foul, plus A's flush bonus in the back
    players[1] = {"player": "B", "front": "Ks Qd 2c", "middle": "8h 8s 3h 3s Jc", "back": "4h 4d 4s 2h 2d"}
    out = compute(_ofc(players))
    assert out["pairs"][0]["points"] == -(3 + 3 + 6 - 4)  # B scoops; A's flush bonus 4 vs B's full house 6
    assert out["players"][0]["amount"] == "-20.00"


def test_fifty_point_cap_source_case_and_tie():
    """001 Example 15: A would lose 70 (B 25, C 20, D 25) and pays B 18, C 14, D 18; with 20 each
    and the button on D, the equal fractions go clockwise after the button: B 17, C 17, D 16."""
    names = ["A", "B", "C", "D"]

    def pts(b, c, d):
        table = {(x, y): 0 for x in names for y in names if x != y}
        for o, v in zip("BCD", (b, c, d)):
            table[("A", o)], table[(o, "A")] = -v, v
        return table

    paid, notes = cp.capped_losses(names, pts(25, 20, 25), 50, "D")
    assert [paid[("A", o)] for o in "BCD"] == [-18, -14, -18]
    paid, _ = cp.capped_losses(names, pts(20, 20, 20), 50, "D")
    assert [paid[(o, "A")] for o in "BCD"] == [17, 17, 16]
    paid, _ = cp.capped_losses(names, pts(20, 20, 20), 50, "B")
    assert [paid[(o, "A")] for o in "BCD"] == [16, 17, 17]


def test_one_three_scoring_needs_the_logged_scoring():
    doc = json.loads(EXAMPLES[0].read_text())["input"]
    del doc["scoring"]
    with pytest.raises(EngineError, match="^scoring"):
        compute(doc)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"front": "Ks Kd"}, "players[0]"),
        ({"front": "Ks Kd 9h"}, "players[0].middle"),
        ({"middle": "9h 8d 7c 6s Jk"}, "players[0].middle[4]"),
        ({"colour": "red"}, "players[0].colour"),
    ],
)
def test_malformed_players_name_the_field(change, field):
    doc = json.loads(EXAMPLES[0].read_text())["input"]
    doc["players"][0].update(change)
    with pytest.raises(EngineError) as err:
        compute(doc)
    assert err.value.field == field


@settings(max_examples=120, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=2, max_value=4), st.sampled_from(["000", "001"]))
def test_points_are_zero_sum_and_capped(rnd, n, rulebook):
    cards = rnd.sample(DECK, 13 * n)
    players = []
    for i in range(n):
        hand = [str(c) for c in cards[13 * i:13 * i + 13]]
        players.append({"player": f"P{i}", "front": hand[:3], "middle": hand[3:8], "back": hand[8:]})
    doc = {"kind": "chinese_poker", "rulebook": rulebook, "point_value": "1.00", "players": players}
    if rulebook == "000":
        doc.update(game="chinese_poker", scoring=dict(cp.ONE_THREE_EXAMPLE))
    else:
        doc.update(game="open_faced_chinese")
    out = compute(doc)
    assert out["total_points"] == 0
    for p in out["players"]:
        if rulebook == "001":
            assert p["points"] >= -50 or any(q["points"] < -50 for q in out["players"] if q is not p)
        else:
            assert abs(p["points"]) <= 3 * (n - 1)
