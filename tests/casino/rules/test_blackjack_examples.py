"""Every blackjack worked example of the digests (000-casino §4 E5-E9, E15, E19; 002 §7 Ex 9-10;
004 §5 E19-E20) as a JSON pair run through :func:`casino.rules.jsonio.compute`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.rules.jsonio import compute

EXAMPLES = sorted((Path(__file__).parent / "examples" / "blackjack").glob("*.json"))


def _match(expected, actual, path="$"):
    """Every key of `expected` is in `actual` with the same value (lists by position)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            _match(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            _match(e, a, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def test_every_digest_example_is_present():
    names = {p.stem.split("_")[0] + "_" + p.stem.split("_")[1] for p in EXAMPLES}
    for wanted in ("000_E5a", "000_E6", "000_E7a", "000_E8", "000_E9a", "000_E9b", "000_E15a", "000_E15d",
                   "000_E19a", "000_E19b", "002_Ex9", "002_Ex10a", "004_E19a", "004_E20a"):
        assert wanted in names, wanted


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(path: Path):
    pair = json.loads(path.read_text())
    answer = compute(pair["input"])
    _match(pair["expected"], answer)
    # No worked example is a rule violation unless it says so.
    for i, bet in enumerate(answer["bets"]):
        expected_bet = pair["expected"].get("bets", [{}] * (i + 1))[i]
        if "violations" not in expected_bet and "not allowed" not in pair["source"]:
            assert "violations" not in bet, (pair["source"], bet)
