"""Shared by the casino engines' tests: the worked examples as JSON pairs under `examples/<family>/`,
each `{"input": ..., "expected": {...partial answer...}}` or `{"input": ..., "expected_error": {"field"}}`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.rules.base import EngineError
from casino.rules.jsonio import compute
from tests.jsonpairs import partial_match  # noqa: F401  (also used by the example modules)

EXAMPLES_DIR = Path(__file__).parent / "examples"


def examples(family: str) -> list[Path]:
    return sorted((EXAMPLES_DIR / family).glob("*.json"))


def run_example(path: Path) -> dict | None:
    """Compute the pair's input and check the answer (or the field of the expected error); the answer."""
    pair = json.loads(path.read_text())
    if "expected_error" in pair:
        with pytest.raises(EngineError) as err:
            compute(pair["input"])
        assert err.value.field == pair["expected_error"]["field"], err.value
        return None
    assert pair["expected"]
    answer = compute(pair["input"])
    partial_match(answer, pair["expected"])
    return answer
