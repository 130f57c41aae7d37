"""RA I partial payout (W19, A18): the additional game's expected value is what is owed, for every cent."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from casino.rules.base import EngineError
from casino.rules.jsonio import compute


def game(venue, remaining, smallest, **kw):
    return compute({"kind": "partial_payout", "venue": venue, "remaining": remaining, "smallest_payable": smallest,
                    **kw})


@pytest.mark.parametrize("smallest_cents", [10, 20, 50, 100, 200])
def test_every_owed_amount_below_two_units_gets_its_exact_expected_value(smallest_cents):
    smallest = Decimal(smallest_cents) / 100
    for owed in range(1, 2 * smallest_cents + 1):  # enumeration over every cent
        remaining = Decimal(owed) / 100
        answer = game("arcade", f"{remaining:.2f}", f"{smallest:.2f}")
        other = Decimal(answer["paid_by_other_means"])
        if owed % smallest_cents == 0:
            assert not answer["applicable"] and other == remaining
            continue
        p = Fraction(answer["probability"])
        assert 0 < p < 1
        assert Fraction(other) + p * Fraction(smallest) == Fraction(remaining)  # expected value = amount owed
        assert Decimal(answer["prize"]) == smallest


@pytest.mark.parametrize("venue", ["gaming_point", "gaming_point_18", "arcade"])
def test_the_game_is_offered_outside_the_casino(venue):
    assert game(venue, "0.30", "1.00")["applicable"]


def test_a_game_played_on_a_casino_machine_is_reported():
    answer = game("casino", "0.30", "1.00", outcome="won")
    assert not answer["applicable"] and answer["violations"]


def test_a_won_game_pays_the_smallest_payable_amount():
    assert game("arcade", "0.30", "1.00", outcome="won")["paid_by_game"] == "1.00"


@pytest.mark.parametrize("doc,field", [({"remaining": "0"}, "remaining"), ({"smallest_payable": "-1"}, "smallest_payable"),
                                       ({"outcome": "maybe"}, "outcome"), ({"venue": "bar"}, "venue")])
def test_bad_input_names_the_field(doc, field):
    base = {"kind": "partial_payout", "venue": "arcade", "remaining": "0.30", "smallest_payable": "1.00"}
    with pytest.raises(EngineError) as err:
        compute({**base, **doc})
    assert err.value.field == field
