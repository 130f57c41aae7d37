"""RA I jackpot-stake refund and removed jackpots: every combination of the refund's two conditions."""

from __future__ import annotations

import itertools

import pytest

from casino.rules.base import EngineError
from casino.rules.jsonio import compute


@pytest.mark.parametrize("required,took_part", list(itertools.product([True, False], repeat=2)))
def test_refund_only_for_a_separate_stake_without_the_draw(required, took_part):
    answer = compute({"kind": "jackpot_stake_refund", "separate_jackpot_stake_required": required,
                      "jackpot_stake": "0.25", "took_part_in_draw": took_part})
    assert answer["refund"] == ("0.25" if required and not took_part else "0.00")


def test_a_separate_jackpot_stake_must_be_named():
    with pytest.raises(EngineError) as err:
        compute({"kind": "jackpot_stake_refund", "separate_jackpot_stake_required": True, "took_part_in_draw": False})
    assert err.value.field == "jackpot_stake"


def test_removed_jackpot_levels_named_twice_are_refused():
    with pytest.raises(EngineError) as err:
        compute({"kind": "jackpot_removal", "jackpot": "J", "levels": [{"level": "a", "contributions": "1.00"},
                                                                      {"level": "a", "contributions": "2.00"}]})
    assert err.value.field == "levels[1].level"
