"""Worked examples W1-W17 of the digest (spec/000-lottery.md §16), checked through calculate_round.

Each ``tests/lottery/examples/WNN*.input.json`` has a ``WNN*.expected.json`` holding the
figures the digest states (typed in from the text, not produced by the engine). The expected
document is a subset of the output: every key it names must match; lists must have the same
length and match element by element. ``{"error": {"field": ...}}`` expects a RoundInputError.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from lottery.rules.jsonio import RoundInputError, calculate_round

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
NAMES = sorted(p.name.removesuffix(".input.json") for p in EXAMPLES.glob("W*.input.json"))


def assert_subset(actual: Any, expected: Any, path: str = "$") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key}: missing from the output"
            assert_subset(actual[key], value, f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), f"{path}: expected {len(expected)} items, got {len(actual)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_subset(a, e, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def load(name: str, kind: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.{kind}.json").read_text(encoding="utf-8"))


def test_every_worked_example_w1_to_w17_has_an_input_and_expected_pair() -> None:
    numbers = {int(name[1:3]) for name in NAMES}
    assert numbers == set(range(1, 18))
    for name in NAMES:
        assert (EXAMPLES / f"{name}.expected.json").is_file(), name


@pytest.mark.parametrize("name", NAMES)
def test_worked_example_matches_the_digest_figures(name: str) -> None:
    data, expected = load(name, "input"), load(name, "expected")
    if "error" in expected:
        with pytest.raises(RoundInputError) as info:
            calculate_round(data)
        assert info.value.field == expected["error"]["field"]
        return
    assert_subset(calculate_round(data), expected)


@pytest.mark.parametrize("name", NAMES)
def test_worked_example_output_is_json_with_two_decimal_amount_strings(name: str) -> None:
    data, expected = load(name, "input"), load(name, "expected")
    if "error" in expected:
        return
    out = calculate_round(data)
    json.dumps(out)  # serialisable
    for key, value in out["totals"].items():
        assert isinstance(value, str) and value.count(".") == 1 and len(value.split(".")[1]) == 2, key
