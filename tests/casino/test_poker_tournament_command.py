"""python manage.py casino_compute with the tournament kinds: every worked example of
examples/poker_tournaments/ goes through the command; bad input exits 2 naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.casino.rules.support import partial_match
from tests.json_commands import refused, run_command

EXAMPLES = sorted((Path(__file__).parent / "rules" / "examples" / "poker_tournaments").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example_through_the_command(tmp_path, path):
    pair = json.loads(path.read_text())
    if "expected_error" in pair:
        stderr = refused("casino_compute", tmp_path, pair["input"])
        assert stderr.startswith(f"error: {pair['expected_error']['field']}: ")
        return
    partial_match(run_command("casino_compute", tmp_path, pair["input"]), pair["expected"])
