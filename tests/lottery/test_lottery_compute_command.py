"""python manage.py lottery_compute: an example of each kind in, its answer out; the same seed re-runs a
draw exactly; bad input exits 2 naming the field; calculate_prizes' own inputs are untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.json_commands import refused, run_command

EXAMPLES = Path(__file__).parent / "rules" / "instant_examples"
ONE_PER_KIND = ["pool_39_partly_sold", "W20a_refund_netting", "NA4_draw_from_recorded_value", "W21_eligibility",
                "W21_draw_two_prizes", "additional_draw_conditions"]


def run(tmp_path, doc):
    return run_command("lottery_compute", tmp_path, doc)


@pytest.mark.parametrize("name", ONE_PER_KIND)
def test_each_kind_runs_through_the_command(tmp_path, name):
    pair = json.loads((EXAMPLES / f"{name}.json").read_text())
    answer = run(tmp_path, pair["input"])
    assert answer["kind"] == pair["input"]["kind"]
    for key, value in pair["expected"].items():
        if not isinstance(value, (dict, list)):
            assert answer[key] == value, key


def test_a_recorded_draw_is_reproduced_by_the_command(tmp_path):
    doc = json.loads((EXAMPLES / "W21_draw_two_prizes.json").read_text())["input"]
    first, again = run(tmp_path, doc), run(tmp_path, doc)
    assert first["winners"] == again["winners"] and len(first["winners"]) == 2
    assert first["method"].startswith("NIST SP 800-90A HMAC_DRBG/SHA-256")


@pytest.mark.parametrize("text,message", [
    ('{"kind": "nettiarvat_refund", "reason": "ticket_error", "fee": 5.0, "prize_kept": "0.00"}', "error: fee: "),
    ('{"kind": "pool_shares"}', "error: share_price: is required"),
    ('{"kind": "lotto"}', "error: kind: "),
    ("[1, 2]", "error: $: "),
    ("{not json", "error: $: not valid JSON"),
])
def test_bad_input_exits_2_naming_the_field(tmp_path, text, message):
    assert refused("lottery_compute", tmp_path, text).startswith(message)
