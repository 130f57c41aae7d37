"""ICM (Malmuth-Harville) over subsets against a brute-force sum over every finishing order."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.poker import icm


def brute_force(stacks, prizes):
    """Sum over all finishing orders of P(order) x prize, exactly (003 §3.7's definition)."""
    n = len(stacks)
    eq = [Fraction(0)] * n
    for order in permutations(range(n)):
        p = Fraction(1)
        left = sum(stacks)
        for i in order:
            p *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            if place < len(prizes):
                eq[i] += p * prizes[place]
    return eq


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 10_000), min_size=2, max_size=6), st.data())
def test_subsets_equal_every_finishing_order_exactly(stacks, data):
    prizes = sorted(data.draw(st.lists(st.integers(0, 100_000), min_size=1, max_size=len(stacks))), reverse=True)
    assert icm.equities(stacks, prizes) == brute_force(stacks, prizes)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 10**9), min_size=1, max_size=9), st.data())
def test_equities_add_up_to_the_prizes(stacks, data):
    prizes = sorted(data.draw(st.lists(st.integers(1, 10**7), min_size=1, max_size=len(stacks))), reverse=True)
    assert sum(icm.equities(stacks, prizes)) == sum(prizes)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=8), st.integers(1, 10**8))
def test_distributed_cents_add_up_and_follow_the_stacks(stacks, amount):
    prizes = [5000, 3000, 2000][: len(stacks)]
    _, cents = icm.distribute(stacks, prizes, amount)
    assert sum(cents) == amount
    by_stack = sorted(range(len(stacks)), key=lambda i: -stacks[i])
    assert all(cents[a] >= cents[b] for a, b in zip(by_stack, by_stack[1:]))


def test_one_prize_is_proportional_to_chips():
    assert icm.equities([800, 450, 250], [1500]) == [800, 450, 250]


def test_ten_player_final_table_is_exact():
    stacks = [1000 * (i + 1) for i in range(10)]
    prizes = [4000, 2500, 1500, 1000, 800, 600, 500, 400, 300, 200]
    eq = icm.equities(stacks, prizes)
    assert sum(eq) == sum(prizes)
    assert eq == sorted(eq)  # the larger stack, the larger equity
