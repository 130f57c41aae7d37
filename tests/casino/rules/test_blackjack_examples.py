"""Every blackjack worked example of the digests (000-casino §4 E5-E9, E15, E19; 002 §7 Ex 9-10;
004 §5 E19-E20) as a JSON pair run through :func:`casino.rules.jsonio.compute`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, partial_match

EXAMPLES = examples("blackjack")


def test_every_digest_example_is_present():
    names = {p.stem.split("_")[0] + "_" + p.stem.split("_")[1] for p in EXAMPLES}
    for wanted in ("000_E5a", "000_E6", "000_E7a", "000_E8", "000_E9a", "000_E9b", "000_E15a", "000_E15d",
                   "000_E19a", "000_E19b", "002_Ex9", "002_Ex10a", "004_E19a", "004_E20a"):
        assert wanted in names, wanted


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(path: Path):
    pair = json.loads(path.read_text())
    answer = compute(pair["input"])
    partial_match(answer, pair["expected"])
    # No worked example is a rule violation unless it says so.
    for i, bet in enumerate(answer["bets"]):
        expected_bet = pair["expected"].get("bets", [{}] * (i + 1))[i]
        if "violations" not in expected_bet and "not allowed" not in pair["source"]:
            assert "violations" not in bet, (pair["source"], bet)
