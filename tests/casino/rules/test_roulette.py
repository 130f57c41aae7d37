"""Roulette of 000-casino (G-1, G-2, C-1), 002 §5.1 and 004 §4.1: worked examples, the layout,
chained en prison, call bets, validation, money properties and the exact house edge of every bet."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import venues
from casino.rules.base import Bet, EngineError, settle_round
from casino.rules.games import roulette as rl
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("roulette")
ENGINE = {e.rulebook: e for e in rl.ENGINES}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    run_example(path)


def test_examples_cover_every_worked_example():
    names = " ".join(p.stem for p in EXAMPLES)
    for tag in ("000_E1", "000_E2a", "000_E2b", "000_E2c", "000_E3", "000_E4", "000_E15b", "002_Ex1", "002_Ex2",
                "002_Ex3", "004_E1", "004_E2", "004_E3", "004_E4", "004_E5"):
        assert tag in names


# ------------------------------------------------------------------------------------------- layout


def test_layout_position_counts():
    single, double = rl.positions("single_zero"), rl.positions("double_zero")
    # 57 adjacent splits + 3 with zero; 12 streets + 2 trios; 22 corners + first four; 11 six lines.
    assert [len(single[k]) for k in "123456"] == [37, 60, 14, 23, 0, 11]
    # 0/00: splits 0-1, 0-2, 0-00, 00-2, 00-3; trios 0-1-2, 0-00-2, 00-2-3; the five-number bet.
    assert [len(double[k]) for k in "123456"] == [38, 62, 15, 22, 1, 11]


def test_every_number_is_covered_by_its_straight_and_colours_split_evenly():
    assert len(rl.RED) == 18
    reds = set(rl.RED)
    # red and black alternate around the wheel (0 aside): the 004 appendix's order and colours agree.
    order = rl.SINGLE_ZERO_ORDER[1:]
    assert all((a in reds) != (b in reds) for a, b in zip(order, order[1:]))


def test_call_bets_partition_the_wheel():
    calls = rl.VARIANTS_004["american"]["call_bets"]
    covered = {name: set().union(*(set(c["numbers"]) for c in comps)) for name, comps in calls.items()}
    assert [len(covered[n]) for n in ("big_series", "small_series", "orphelins", "zero_spiel")] == [17, 12, 8, 7]
    assert covered["zero_spiel"] <= covered["big_series"]
    big, small, orph = covered["big_series"], covered["small_series"], covered["orphelins"]
    assert big | small | orph == set(range(37)) and not (big & small or big & orph or small & orph)
    chips = {n: sum(c["chips"] for c in comps) for n, comps in calls.items()}
    assert chips == {"big_series": 9, "small_series": 6, "orphelins": 5, "zero_spiel": 4}


@pytest.mark.parametrize("numbers", [[1, 5], [3, 4], [0, 4], [34, 37], [1, 2, 4], [0, 1, 2, 3, 4]])
def test_illegal_positions_are_refused(numbers):
    kind = {2: "split", 3: "street", 5: "five_number"}[len(numbers)]
    with pytest.raises(EngineError) as err:
        ENGINE["000"].parse_bets([Bet(0, kind, Decimal("1.00"), params={"numbers": numbers})],
                                 rl.VARIANTS_000["single_zero_la_partage"])
    assert err.value.field.startswith("bets[0].numbers")


def test_double_zero_only_on_its_wheel():
    bet = Bet(0, "straight", Decimal("1.00"), params={"numbers": ["00"]})
    ENGINE["000"].parse_bets([bet], rl.VARIANTS_000["double_zero_zero_loses"])
    with pytest.raises(EngineError):
        ENGINE["000"].parse_bets([bet], rl.VARIANTS_000["single_zero_zero_loses"])


def test_game_hall_b_needs_the_drawn_table():
    doc = json.loads((Path(__file__).parent / "examples" / "roulette" / "000_E2a_game_hall_b.json").read_text())
    doc = doc["input"]
    del doc["outcome"]["payout_table"]
    with pytest.raises(EngineError) as err:
        compute(doc)
    assert err.value.field == "outcome.payout_table"


# --------------------------------------------------------------------------------- en prison chain


def spin(variant, bet_params, number):
    eng = ENGINE["000"]
    bet = Bet(0, "red", Decimal("100.00"), params=bet_params)
    eng.parse_bets([bet], rl.VARIANTS_000[variant])
    return eng.settle(rl.VARIANTS_000[variant], [bet], {"number": number})[0]


def test_en_prison_chain_follows_the_source_examples():
    v = "single_zero_en_prison"
    assert spin(v, {}, 0).status == "imprisoned"
    assert spin(v, {"prison": 1}, 0).note.endswith('"prison": 2')
    # two zeros in a row: red must win twice before the stake is released
    first = spin(v, {"prison": 2}, 3)
    assert first.status == "imprisoned" and first.note.endswith('"prison": 1')
    released = spin(v, {"prison": 1}, 3)
    assert (released.status, released.returned, released.winnings) == ("push", Decimal("100.00"), Decimal("0"))
    assert spin(v, {"prison": 2}, 2).status == "lost"
    assert spin(v, {"prison": 2}, 0).status == "lost"


def test_prison_refused_where_the_variant_has_no_en_prison():
    with pytest.raises(EngineError) as err:
        spin("single_zero_la_partage", {"prison": 1}, 3)
    assert err.value.field == "bets[0].prison"


def test_half_back_rounds_down_to_the_cent():
    eng = ENGINE["000"]
    bet = Bet(0, "even", Decimal("0.05"))
    r = eng.settle(rl.VARIANTS_000["single_zero_la_partage"], [bet], {"number": 0})[0]
    assert r.returned == Decimal("0.02")


# ---------------------------------------------------------------------------------------- house edge


@pytest.mark.parametrize("code", ["single_zero_zero_loses", "single_zero_en_prison", "single_zero_la_partage"])
def test_european_single_zero_edge_is_1_37_on_every_non_even_bet(code):
    edges = rl.house_edge(rl.VARIANTS_000[code], ENGINE["000"])
    for bet, edge in edges.items():
        if bet not in rl.EVEN_CHANCES:
            assert edge == Fraction(1, 37), bet
    assert set(edges) >= {"straight", "split", "street", "trio", "corner", "first_four", "six_line", "quarter",
                          "dozen", "column", *rl.EVEN_CHANCES}


def test_even_chances_on_zero():
    edges = {code: rl.house_edge(rl.VARIANTS_000[code], ENGINE["000"])["red"] for code in rl.VARIANTS_000}
    assert edges["single_zero_zero_loses"] == Fraction(1, 37)
    assert edges["single_zero_la_partage"] == Fraction(1, 74)  # la partage halves the edge
    assert edges["double_zero_la_partage"] == Fraction(1, 38)
    assert edges["double_zero_zero_loses"] == Fraction(2, 38)
    # en prison (third zero loses): a little above la partage; with both rules the player halves.
    assert Fraction(1, 74) < edges["single_zero_en_prison"] < Fraction(1, 37)
    assert edges["single_zero_la_partage_en_prison"] == Fraction(1, 74)


def test_en_prison_value_by_simulating_the_chain():
    """The closed form V1 = p / (1 - z p) against the chain played out spin by spin, exactly."""
    p, z = Fraction(18, 37), Fraction(1, 37)
    # distribution over states after k spins, starting at level 1
    dist = {1: Fraction(1)}
    released = Fraction(0)
    for _ in range(60):
        nxt: dict[int, Fraction] = {}
        for level, q in dist.items():
            if level == 1:
                released += q * p
                nxt[2] = nxt.get(2, 0) + q * z
            else:
                nxt[1] = nxt.get(1, 0) + q * p
        dist = nxt
    v1 = rl.zero_stake_value(p, z, half_back=False, en_prison=True)
    assert abs(float(v1 - released)) < 1e-12


def test_double_zero_edges():
    edges = rl.house_edge(rl.VARIANTS_000["double_zero_zero_loses"], ENGINE["000"])
    assert edges.pop("five_number") == Fraction(3, 38)
    assert set(edges.values()) == {Fraction(2, 38)}


def test_game_hall_and_ray_edges_from_their_reduced_odds():
    a = rl.house_edge(rl.VARIANTS_000["game_hall_a"], ENGINE["000"])
    assert a["straight"] == 1 - Fraction(31, 37) and a["six_line"] == 1 - Fraction(6 * 5, 37)
    assert a["dozen"] == a["red"] == Fraction(1, 37)
    assert rl.house_edge(rl.VARIANTS_002["ray"], ENGINE["002"]) == a
    b = rl.house_edge(rl.VARIANTS_000["game_hall_b"], ENGINE["000"])
    # table 2 one round in 30: straight (29 x 31 + 61) / 30 / 37
    assert b["straight"] == 1 - Fraction(29 * 31 + 61, 30 * 37)


def test_billionaire_call_bets_edge():
    edges = rl.house_edge(rl.VARIANTS_004["american"], ENGINE["004"])
    assert set(edges.values()) == {Fraction(1, 37)}
    assert {"big_series", "small_series", "orphelins", "zero_spiel", "neighbours"} <= set(edges)


def test_a_changed_paytable_changes_the_edge_and_the_payout():
    rules = copy.deepcopy(rl.VARIANTS_000["single_zero_zero_loses"])
    rules["payouts"]["straight"] = "34"
    assert rl.house_edge(rules, ENGINE["000"])["straight"] == Fraction(2, 37)
    answer = compute({"kind": "round", "rulebook": "000", "venue": "casino", "game": "roulette",
                      "variant": "single_zero_zero_loses", "rules": rules,
                      "bets": [{"type": "straight", "numbers": [7], "stake": "10.00"}], "outcome": {"number": 7}})
    assert answer["bets"][0]["winnings"] == "340.00"


# -------------------------------------------------------------------------------------- properties

CASINO = venues.LEGAL[("000", "casino")]


@cache
def any_bet(variant_code: str):
    wheel = rl.VARIANTS_000[variant_code]["wheel"]
    inside = []
    for n, kind in ((1, "straight"), (2, "split"), (3, "street"), (4, "corner"), (5, "five_number"),
                    (6, "six_line")):
        for pos in sorted(rl.positions(wheel)[str(n)], key=lambda s: sorted(map(rl._order, s))):
            inside.append((kind, {"numbers": [rl.show(x) if x == rl.DZ else x for x in sorted(pos, key=rl._order)]}))
    outside = [("dozen", {"dozen": d}) for d in (1, 2, 3)] + [("quarter", {"quarter": q}) for q in (1, 2, 3, 4)]
    outside += [(k, {}) for k in rl.EVEN_CHANCES]
    return st.sampled_from(inside + outside)


@settings(max_examples=150, deadline=None)
@given(code=st.sampled_from(sorted(c for c in rl.VARIANTS_000 if c.startswith(("single", "double")))),
       data=st.data(), number=st.integers(-1, 36))
def test_money_is_conserved_and_limits_hold(code, data, number):
    variant = rl.VARIANTS_000[code]
    if number == -1 and variant["wheel"] == "single_zero":
        number = 0
    picks = data.draw(st.lists(any_bet(code), min_size=1, max_size=6))
    stakes = data.draw(st.lists(st.integers(1, 1_200_000), min_size=len(picks), max_size=len(picks)))
    bets = []
    for i, ((kind, params), cents) in enumerate(zip(picks, stakes)):
        params = dict(params)
        if kind in rl.EVEN_CHANCES and variant["zero_rule"]["half_back"] and variant["zero_rule"]["en_prison"]:
            params["zero_choice"] = "half_back"
        bets.append(Bet(i, kind, Decimal(cents) / 100, player="P", params=params))
    result = settle_round(ENGINE["000"], variant, CASINO, bets, {"number": rl.show(number)})
    top = max(Fraction(v) for v in variant["payouts"].values())
    for bet, r in zip(bets, result.bets):
        limit = CASINO.max_stake[ENGINE["000"].limit_class(bet, variant)]
        assert r.valid_stake <= limit and r.valid_stake + r.voided_excess == bet.stake
        assert 0 <= r.payout <= Fraction(r.voided_excess) + Fraction(r.valid_stake) * (1 + top)
        assert r.returned <= r.valid_stake
    assert sum(r.winnings - r.capped_excess for r in result.bets) <= CASINO.win_cap


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(["big_series", "small_series", "orphelins", "zero_spiel", "neighbours"]),
       units=st.integers(1, 5000), number=st.integers(0, 36), centre=st.integers(0, 36),
       split_max=st.integers(1, 2000))
def test_call_bet_components_within_their_limits(name, units, number, centre, split_max):
    variant = rl.VARIANTS_004["american"]
    params = {"numbers": [centre]} if name == "neighbours" else {}
    chips = 5 if name == "neighbours" else sum(c["chips"] for c in variant["call_bets"][name])
    bet = Bet(0, name, Decimal(units * chips) / 100, params=params)
    venue = venues.venue_from_json("004", {"kind": "billionaire", "max_stake": {
        "roulette_inside_1": f"{split_max * 2 / 100:.2f}", "roulette_inside_2": f"{split_max / 100:.2f}",
        "roulette_inside_3": f"{split_max * 3 / 100:.2f}", "roulette_inside_4": f"{split_max * 4 / 100:.2f}"}})
    r = settle_round(ENGINE["004"], variant, venue, [bet], {"number": number}).bets[0]
    unit = r.valid_stake / chips
    assert unit == unit.quantize(Decimal("0.01")) and r.valid_stake + r.voided_excess == bet.stake
    placed = ENGINE["004"].placed(bet, variant)
    for _, nums, c in placed.parts:
        assert unit * c <= venue.max_stake[f"roulette_inside_{len(nums)}"]
    # every component pays 36 units per chip covering the number (35:1, 17:1 ... all give 36/n)
    hits = sum(c * 36 // len(nums) for _, nums, c in placed.parts if number in nums)
    assert r.payout == r.voided_excess + unit * hits
