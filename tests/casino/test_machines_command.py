"""python manage.py casino_compute with the machine kinds: an example of each kind in, its answer out; bad
input exits 2 naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.json_commands import refused, run_command

EXAMPLES = Path(__file__).parent / "rules" / "machines" / "examples"
ONE_PER_KIND = ["W18ii_several_rounds_simple_mean", "004_malfunction_voids_round", "W19_partial_payout",
                "W22_4_casino_25_lines", "jackpot_refund_separate_stake", "jackpot_removal",
                "RA_III_poker_casino_fee"]


def run(tmp_path, doc):
    return run_command("casino_compute", tmp_path, doc)


@pytest.mark.parametrize("name", ONE_PER_KIND)
def test_each_machine_kind_runs_through_the_command(tmp_path, name):
    pair = json.loads((EXAMPLES / f"{name}.json").read_text())
    answer = run(tmp_path, pair["input"])
    for key, value in pair["expected"].items():
        if not isinstance(value, (dict, list)):
            assert answer[key] == value, key


def test_w18_free_games_over_several_rounds_through_the_command(tmp_path):
    answer = run(tmp_path, {"kind": "malfunction_compensation", "rulebook": "000", "case": "interruption",
                            "free_games": {"unplayed": 12, "won_on": [{"stake": "1.00", "games": 10},
                                                                      {"stake": "2.00", "games": 5}]}})
    assert answer["compensation"] == "18.00"


@pytest.mark.parametrize("doc,message", [
    ({"kind": "machine_config", "venue": "arcade", "product": "slot", "config": {"max_stake": "2.00"}},
     "error: config.max_round_total: is required"),
    ({"kind": "slot_tournament", "venue": "arcade", "machine": "slot", "team": False, "scoring": {"won": "1"},
      "heats": [{"results": [{"entrant": "A", "won": 1.5}]}]}, "error: heats[0].results[0].won: "),
    ({"kind": "malfunction_compensation", "rulebook": "004", "case": "malfunction"}, "error: last_stake: is required"),
])
def test_bad_machine_input_exits_2_naming_the_field(tmp_path, doc, message):
    assert refused("casino_compute", tmp_path, doc).startswith(message)
