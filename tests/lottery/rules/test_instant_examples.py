"""The lottery-side worked examples (000-lottery W20, W21, §39, RP §9-§18, NA §4-§15, §40-§43) as JSON pairs
run through lottery_compute's core: instant_examples/<name>.json = {"input", "expected" | "expected_error"}."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lottery.rules.compute import compute
from lottery.rules.errors import RoundInputError
from tests.jsonpairs import partial_match

EXAMPLES = sorted((Path(__file__).parent / "instant_examples").glob("*.json"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example(path):
    pair = json.loads(path.read_text())
    if "expected_error" in pair:
        with pytest.raises(RoundInputError) as err:
            compute(pair["input"])
        assert err.value.field == pair["expected_error"]["field"], err.value
        return
    partial_match(compute(pair["input"]), pair["expected"])


def test_unknown_kind_is_refused_naming_kind():
    with pytest.raises(RoundInputError) as err:
        compute({"kind": "lotto"})
    assert err.value.field == "kind"
