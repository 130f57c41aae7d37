"""Billionaire's slot-machine gamble (004 Ch.11 §11.5): the worked example, violations, properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.base import EngineError
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("gamble")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    run_example(path)


def gamble(**kw):
    doc = {"kind": "slot_gamble", "win": 40, "max_attempts": 5, "max_win": 1000, "attempts": []}
    doc.update(kw)
    return compute(doc)


def test_the_maximum_win_ends_the_gamble():
    right = [{"guess": "black", "card": "As"}] * 6
    answer = gamble(win=300, attempts=right)
    assert [s["win_after"] for s in answer["steps"]] == [600, 1000]  # cut to the maximum, then no more
    assert answer["final_win"] == 1000 and len(answer["violations"]) == 4


@pytest.mark.parametrize("attempts,field", [([{"guess": "green", "card": "As"}], "attempts[0].guess"),
                                            ([{"guess": "red", "card": "Zz"}], "attempts[0].card"),
                                            ([{"guess": "red", "card": "Jk"}], "attempts[0].card"),
                                            ([{"guess": "red", "card": "As"}, {"guess": "red", "card": "Ah"}],
                                             "attempts[1]")])
def test_bad_attempts(attempts, field):
    with pytest.raises(EngineError) as err:
        gamble(attempts=attempts)
    assert err.value.field == field


@settings(max_examples=150, deadline=None)
@given(win=st.integers(1, 5000), max_win=st.integers(1, 100_000), max_attempts=st.integers(1, 7),
       guesses=st.lists(st.tuples(st.sampled_from(["red", "black"]), st.sampled_from(["Ah", "Kd", "2c", "Qs"])),
                        max_size=10))
def test_gamble_properties(win, max_win, max_attempts, guesses):
    attempts = []
    for guess, card in guesses:
        attempts.append({"guess": guess, "card": card})
        if guess != ("red" if card[1] in "hd" else "black"):
            break
    answer = gamble(win=win, max_win=max_win, max_attempts=max_attempts, attempts=attempts)
    assert 0 <= answer["final_win"] <= max(max_win, 0)
    assert len(answer["steps"]) <= max_attempts
    if answer["result"] == "collected":
        assert answer["final_win"] >= min(win, max_win)
    else:
        assert answer["final_win"] == 0
