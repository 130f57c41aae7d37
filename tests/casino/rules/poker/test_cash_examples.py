"""The digests' worked examples for the cash-game kinds (001 §4 Examples 1-6 and 13, 003 §4 Examples
1-7, 000-casino E20) as JSON pairs under examples/poker_cash, computed as ``casino_compute`` does."""

from __future__ import annotations

import pytest

from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("poker_cash")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example(path):
    run_example(path)
