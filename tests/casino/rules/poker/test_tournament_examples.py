"""The digests' worked examples for the tournament kinds (001 §4 Examples 3, 10-12, 14-17; 003 §4
Examples 9-18; 000-casino §2.4; 001 A-24) as JSON pairs under examples/poker_tournaments/."""

from __future__ import annotations

import pytest

from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("poker_tournaments")


def test_every_kind_has_a_worked_example():
    import json

    kinds = {json.loads(p.read_text())["input"]["kind"] for p in EXAMPLES}
    assert kinds == {"tournament_payout", "bounty", "disqualification", "hexapro", "cancellation", "icm",
                     "chip_race", "ofc"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example(path):
    run_example(path)
