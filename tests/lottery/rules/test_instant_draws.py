"""Draws from a recorded seed (000-lottery §7, §8, §9; RP §15-§17, A24, W21): the generator against the NIST
vectors, W21's probabilities by enumerating every random value, reproducibility, one prize per ticket."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lottery.rules.compute import compute
from lottery.rules.drbg import HmacDrbg, weighted_draw

# NIST CAVP HMAC_DRBG.rsp, [SHA-256], no reseed, no prediction resistance: the second 1,024-bit generate.
NIST = [
    ("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488", "659ba96c601dc69fc902940805ec0ca8", "",
     "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89d54fbb978a15b5c443c9ec21036d2460b6f73eba"
     "d0dc2aba6e624abf07745bc107694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668961df86803482cb3"
     "7ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8"),
    ("5cacc68165a2e2ee20812f35ec73a79dbf30fd475476ac0c44fc6174cdac2b55", "6f885496c1e63af620becd9e71ecb824",
     "e72dd8590d4ed5295515c35ed6199e9d211b8f069b3058caa6670b96ef1208d0",
     "f1012cf543f94533df27fedfbf58e5b79a3dc517a9c402bdbfc9a0c0f721f9d53faf4aafdc4b8f7a1b580fcaa52338d4bd95f589"
     "66a243cdcd3f446ed4bc546d9f607b190dd69954450d16cd0e2d6437067d8b44d19a6af7a7cfa8794e5fbd728e8fb2f2e8db5dd4"
     "ff1aa275f35886098e80ff844886060da8b1e7137846b23b"),
]
SEED = "5eed" * 16


@pytest.mark.parametrize("entropy,nonce,perso,expected", NIST)
def test_generator_matches_the_nist_hmac_drbg_vectors(entropy, nonce, perso, expected):
    drbg = HmacDrbg(bytes.fromhex(entropy), bytes.fromhex(nonce), bytes.fromhex(perso))
    drbg.generate(128)
    assert drbg.generate(128).hex() == expected


class Scripted:
    """A generator that returns given values: to run the draw on every possible random value."""

    def __init__(self, values):
        self.values = list(values)

    def below(self, n):
        value = self.values.pop(0)
        assert 0 <= value < n
        return value


def test_w21_probabilities_by_enumerating_every_random_value():
    weights = [1, 2, 5, 2]  # T1 1 €, T2 2 €, T3 5 €, T4 2 € (the unit does not matter: weights are relative)
    one, two = Counter(), Counter()
    for u1 in range(10):
        first = weighted_draw(weights, 1, Scripted([u1]))[0]
        one[first] += Fraction(1, 10)
        left = 10 - weights[first]
        for u2 in range(left):
            pair = weighted_draw(weights, 2, Scripted([u1, u2]))
            assert pair[0] == first and pair[1] != first  # at most one prize per ticket
            for ticket in pair:
                two[ticket] += Fraction(1, 10) * Fraction(1, left)
    assert [one[i] for i in range(4)] == [Fraction(1, 10), Fraction(2, 10), Fraction(5, 10), Fraction(2, 10)]
    assert [two[i] for i in range(4)] == [Fraction(1, 4), Fraction(17, 36), Fraction(29, 36), Fraction(17, 36)]


def test_below_discards_values_outside_the_range_and_stays_uniform():
    drbg = HmacDrbg(bytes.fromhex(SEED))
    counts = Counter(drbg.below(3) for _ in range(30_000))  # 2 bits per try; 3 is discarded
    assert set(counts) == {0, 1, 2}
    assert all(9_500 < c < 10_500 for c in counts.values())


def draw(seed=SEED, ref="RP-1", tickets=None, prizes=("10.00", "5.00")):
    tickets = tickets or [{"ticket": f"T{i}", "price": f"{i}.00"} for i in range(1, 6)]
    return compute({"kind": "rahapika_draw", "draw_ref": ref, "seed": seed, "prizes": list(prizes), "tickets": tickets})


def test_the_same_seed_and_entries_give_the_same_winners_whatever_the_input_order():
    tickets = [{"ticket": f"T{i}", "price": f"{i}.00"} for i in range(1, 30)]
    a = draw(tickets=tickets, prizes=["1.00"] * 10)
    b = draw(tickets=list(reversed(tickets)), prizes=["1.00"] * 10)
    assert a["winners"] == b["winners"] and a["entries_sha256"] == b["entries_sha256"]


def test_the_draw_reference_personalises_the_stream():
    tickets = [{"ticket": f"T{i:03d}", "price": "1.00"} for i in range(200)]
    assert draw(ref="A", tickets=tickets)["winners"] != draw(ref="B", tickets=tickets)["winners"]


@settings(max_examples=120, deadline=None)
@given(seed=st.binary(min_size=16, max_size=48), prices=st.lists(st.integers(1, 2000), min_size=1, max_size=40),
       prizes=st.integers(1, 45))
def test_weighted_draw_never_picks_a_ticket_twice_and_is_reproducible(seed, prices, prizes):
    tickets = [{"ticket": f"T{i:02d}", "price": f"{p // 100}.{p % 100:02d}"} for i, p in enumerate(prices)]
    first = draw(seed=seed.hex(), tickets=tickets, prizes=["1.00"] * prizes)
    again = draw(seed=seed.hex(), tickets=tickets, prizes=["1.00"] * prizes)
    names = [w["entry"] for w in first["winners"]]
    assert len(names) == len(set(names)) == min(prizes, len(prices))
    assert first == again
    assert len(first["unawarded"]) == max(0, prizes - len(prices))


def test_additional_draw_with_replacement_may_award_an_entry_again():
    doc = {"kind": "additional_draw", "draw_ref": "X", "seed": SEED, "conditions": {}, "weighting": "entry",
           "one_prize_per_entry": False, "prizes": ["1.00"] * 5, "funding": "turnover",
           "entries": [{"entry": "W1"}, {"entry": "W2"}]}
    names = [w["entry"] for w in compute(doc)["winners"]]
    assert len(names) == 5 and len(set(names)) < 5


def test_additional_draw_weighted_by_stake_uses_cents():
    doc = {"kind": "additional_draw", "draw_ref": "X", "seed": SEED, "conditions": {}, "weighting": "stake",
           "one_prize_per_entry": True, "prizes": ["1.00"], "funding": "turnover",
           "entries": [{"entry": "W1", "stake": "0.50"}, {"entry": "W2", "stake": "2.00"}]}
    assert compute(doc)["total_weight"] == 250


def test_additional_draw_dates_are_inclusive():
    doc = {"kind": "additional_draw", "draw_ref": "X", "seed": SEED, "weighting": "entry", "one_prize_per_entry": True,
           "prizes": ["1.00"], "funding": "turnover",
           "conditions": {"purchased_from": "2028-05-01", "purchased_to": "2028-05-31"},
           "entries": [{"entry": f"W{d}", "purchased_on": day} for d, day in
                       enumerate(["2028-04-30", "2028-05-01", "2028-05-31", "2028-06-01"])]}
    answer = compute(doc)
    assert answer["entries"] == 2 and [r["entry"] for r in answer["not_eligible"]] == ["W0", "W3"]


def pool_state(counts):
    return [{"batch": f"B{b}", "classes": [{"class": f"c{c}", "prize": f"{c}.00", "left": n} for c, n in
                                           enumerate(batch)]} for b, batch in enumerate(counts)]


def test_every_recorded_value_draws_a_distinct_ticket_of_the_pool():
    counts = [[3, 2], [0, 4, 1]]
    drawn = Counter()
    for u in range(10):
        answer = compute({"kind": "nettiarvat_draw", "random_value": u, "pool": pool_state(counts)})
        d = answer["drawn"][0]
        drawn[(d["batch"], d["class"])] += 1
        assert answer["tickets_left_after"] == 9
    expected = {(f"B{b}", f"c{c}"): n for b, batch in enumerate(counts) for c, n in enumerate(batch) if n}
    assert drawn == expected  # each ticket exactly once: the pool's composition


@settings(max_examples=80, deadline=None)
@given(counts=st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=3), min_size=1, max_size=3),
       seed=st.binary(min_size=16, max_size=32))
def test_a_seeded_purchase_depletes_the_pool_ticket_by_ticket(counts, seed):
    total = sum(itertools.chain.from_iterable(counts))
    if total == 0:
        return
    answer = compute({"kind": "nettiarvat_draw", "seed": seed.hex(), "draw_ref": "sale-1", "tickets": total,
                      "pool": pool_state(counts)})
    assert answer["tickets_left_after"] == 0
    drawn = Counter((d["batch"], d["class"]) for d in answer["drawn"])
    assert drawn == {(f"B{b}", f"c{c}"): n for b, batch in enumerate(counts) for c, n in enumerate(batch) if n}
