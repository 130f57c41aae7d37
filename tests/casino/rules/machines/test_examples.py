"""The worked examples (000-lottery W18, W19, W22, the RA tables; 004 Ch.11) as JSON pairs run through
casino_compute's core: examples/<name>.json = {"input", "expected" | "expected_error"}."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.casino.rules.support import run_example

EXAMPLES = sorted((Path(__file__).parent / "examples").glob("*.json"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 30


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example(path):
    run_example(path)
