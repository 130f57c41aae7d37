"""python manage.py casino_compute: a worked example in, its answer out; bad input exits 2 naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.json_commands import command_output, refused

EXAMPLE = Path(__file__).parent / "rules" / "examples" / "roulette" / "004_E4_orphelins_17.json"


def test_computes_a_worked_example(tmp_path):
    text = command_output("casino_compute", tmp_path, json.loads(EXAMPLE.read_text())["input"])
    answer = json.loads(text)
    assert answer["payout_per_bet"] == ["720.00"]
    assert text.startswith("{\n  \"bets\"")  # indent 2


@pytest.mark.parametrize("text,message", [
    ('{"kind": "round", "rulebook": "000", "venue": "casino", "game": "roulette", "variant": "game_hall_a", '
     '"bets": [{"type": "split", "numbers": [1, 5], "stake": "1.00"}], "outcome": {"number": 1}}',
     "error: bets[0].numbers: "),
    ("{not json", "error: $: not valid JSON"),
])
def test_bad_input_exits_2_naming_the_field(tmp_path, text, message):
    assert refused("casino_compute", tmp_path, text).startswith(message)


def test_unreadable_file_exits_2(tmp_path):
    missing = tmp_path / "missing.json"
    assert refused("casino_compute", tmp_path, None, path=missing).startswith("error: --input: cannot read")
