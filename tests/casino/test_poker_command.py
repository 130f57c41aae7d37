"""python manage.py casino_compute with the poker cash kinds: 001 §4 Example 1 in, its pots out; bad
input exits 2 naming the field."""

from __future__ import annotations

import json
from pathlib import Path

from tests.json_commands import refused, run_command

EXAMPLE = Path(__file__).parent / "rules" / "examples" / "poker_cash" / "001_ex01_side_pots_rake_jackpot_fee.json"


def test_computes_the_side_pot_example(tmp_path):
    answer = run_command("casino_compute", tmp_path, json.loads(EXAMPLE.read_text())["input"])
    assert [p["net"] for p in answer["pots"]] == ["38.00", "43.00", "30.00"]
    assert [p["won"] for p in answer["players"]] == ["38.00", "0.00", "73.00", "0.00", "0.00"]


def test_a_float_amount_exits_2_naming_the_seat(tmp_path):
    doc = json.loads(EXAMPLE.read_text())["input"]
    doc["seats"][1]["contributed"] = 25.0
    assert refused("casino_compute", tmp_path, doc).startswith("error: seats[1].contributed: ")
