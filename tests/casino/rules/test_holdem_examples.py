"""Every worked example of the digests for the Hold'em-style games, as JSON pairs through jsonio.compute
(000-casino §4 E12, E13; 002 §7 Ex 7, Ex 8; 004 §5 E6-E10). Each file: {"source", "input", "expected"}."""

import json
from pathlib import Path

import pytest

from casino.rules.jsonio import compute

EXAMPLES = sorted((Path(__file__).parent / "examples" / "holdem").glob("*.json"))


def matches(expected, actual, path="$"):
    """``expected`` is a partial answer: every key it names must be equal in ``actual``; lists match item by
    item. ``has_violations`` asks that the bet lists at least one violation."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        for key, value in expected.items():
            if key == "has_violations":
                assert bool(actual.get("violations")) is value, f"{path}.violations: {actual.get('violations')}"
                continue
            assert key in actual, f"{path}.{key} missing"
            matches(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual)):
            matches(e, a, f"{path}[{i}]")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"


def test_every_game_has_examples():
    games = {json.loads(p.read_text())["input"]["game"] for p in EXAMPLES}
    assert games == {"ultimate_texas_holdem", "texas_holdem", "dynamic_poker", "dynamic_poker_pro", "riverside_poker"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example(path):
    pair = json.loads(path.read_text())
    answer = compute(pair["input"])
    matches(pair["expected"], answer)
    assert json.loads(json.dumps(answer)) == answer  # JSON all the way


def test_the_documentation_rounds_compute():
    """Every complete round in docs/casino/holdem.md runs and wins something (the page stays usable)."""
    import re

    page = Path(__file__).parents[3] / "docs" / "casino" / "holdem.md"
    rounds = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", page.read_text(), re.S)
              if b.lstrip().startswith("{")]
    assert len(rounds) == 4
    for doc in rounds:
        assert any(b["winnings"] != "0.00" for b in compute(doc)["bets"])
