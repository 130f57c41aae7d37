"""RA IV maxima (000-lottery §13.1-13.2): every venue type x product, the casino line tiers by enumeration."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.rules.base import EngineError
from casino.rules.jsonio import compute
from casino.rules.machines.limits import casino_line_limit


def config(venue, product, **cfg):
    return compute({"kind": "machine_config", "venue": venue, "product": product, "config": cfg})


# The digest's table, written out by line count (RA IV-PK): 1-6 -> 200, 7-19 -> 50, 20+ -> 20.
@pytest.mark.parametrize("lines", range(1, 121))
def test_casino_per_line_maximum_by_line_count(lines):
    expected = Decimal(200) if lines <= 6 else Decimal(50) if lines <= 19 else Decimal(20)
    assert casino_line_limit(lines) == expected
    at = config("casino", "slot", lines=lines, max_stake_per_line=str(expected))
    over = config("casino", "slot", lines=lines, max_stake_per_line=str(expected + Decimal("0.01")))
    assert at["ok"] and not over["ok"]


# (venue, ordinary slot stake, round total) from RA IV-PS: 18+ premises 2/8, other premises 1/2.
@pytest.mark.parametrize("venue,stake,total", [("gaming_point", "1.00", "2.00"), ("gaming_point_18", "2.00", "8.00"),
                                               ("arcade", "2.00", "8.00")])
def test_ordinary_slot_limits_by_venue(venue, stake, total):
    assert config(venue, "slot", max_stake=stake, max_round_total=total)["ok"]
    over_stake = config(venue, "slot", max_stake=str(Decimal(stake) + Decimal("0.01")), max_round_total=total)
    over_total = config(venue, "slot", max_stake=stake, max_round_total=str(Decimal(total) + Decimal("0.01")))
    assert [v["field"] for v in over_stake["violations"]] == ["config.max_stake"]
    assert [v["field"] for v in over_total["violations"]] == ["config.max_round_total"]


@pytest.mark.parametrize("k", range(1, 7))
def test_casino_terminal_roulette_maximum_grows_with_the_numbers_covered(k):
    ok = config("casino", "terminal_roulette", placements={f"number_{k}": str(200 * k)})
    over = config("casino", "terminal_roulette", placements={f"number_{k}": f"{200 * k}.01"})
    assert ok["ok"] and not over["ok"]


@pytest.mark.parametrize("venue", ["gaming_point_18", "arcade"])
def test_arcade_terminal_roulette_number_field_2_side_10(venue):
    if venue == "gaming_point_18":  # automated table games: arcades and the casino only
        assert config(venue, "terminal_roulette", placements={"number_1": "2.00"})["violations"][0]["field"] == "venue"
        return
    assert config(venue, "terminal_roulette", placements={"number_6": "2.00", "side": "10.00"})["ok"]
    bad = config(venue, "terminal_roulette", placements={"number_6": "2.50", "side": "10.50"})
    assert sorted(v["field"] for v in bad["violations"]) == ["config.placements.number_6", "config.placements.side"]


def test_electronic_poker_initial_stake_and_fee():
    assert config("arcade", "electronic_poker", max_initial_stake="2.00")["ok"]
    assert not config("arcade", "electronic_poker", max_initial_stake="2.01")["ok"]
    assert config("casino", "electronic_poker", max_initial_stake="4000.00", max_tournament_fee="4000.00")["ok"]
    assert not config("casino", "electronic_poker", max_initial_stake="4000.01")["ok"]


def test_automated_blackjack_side_game_limit_is_2_within_6():
    assert config("arcade", "automated_blackjack", max_base_stake="4.00", max_side_stake="2.00")["ok"]
    bad = config("arcade", "automated_blackjack", max_base_stake="3.00", max_side_stake="2.50")
    assert [v["field"] for v in bad["violations"]] == ["config.max_side_stake"]


def test_casino_automated_card_game_200_and_side_200():
    assert config("casino", "automated_blackjack", max_base_stake="200.00", max_side_stake="200.00")["ok"]
    assert not config("casino", "automated_card_game", max_base_stake="200.00", max_side_stake="200.01")["ok"]


def test_pajatso_in_the_casino_is_limited_per_betting_option():
    assert not config("casino", "pajatso", lines=1, max_stake_per_line="200.01")["ok"]


@pytest.mark.parametrize("doc,field", [
    ({"venue": "pub", "product": "slot", "config": {}}, "venue"),
    ({"venue": "arcade", "product": "bingo", "config": {}}, "product"),
    ({"venue": "arcade", "product": "slot", "config": {"max_stake": "2.00"}}, "config.max_round_total"),
    ({"venue": "arcade", "product": "slot", "config": {"max_stake": 2.0, "max_round_total": "8.00"}}, "config.max_stake"),
    ({"venue": "casino", "product": "slot", "config": {"max_stake": "2.00"}}, "config.max_stake"),
    ({"venue": "casino", "product": "slot", "config": {"lines": 0, "max_stake_per_line": "1.00"}}, "config.lines"),
    ({"venue": "casino", "product": "terminal_roulette", "config": {"placements": {"number_7": "1.00"}}},
     "config.placements.number_7"),
])
def test_bad_configuration_names_the_field(doc, field):
    with pytest.raises(EngineError) as err:
        compute({"kind": "machine_config", **doc})
    assert err.value.field == field
