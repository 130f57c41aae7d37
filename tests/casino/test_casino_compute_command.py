"""python manage.py casino_compute: a worked example in, its answer out; bad input exits 2 naming the field."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

EXAMPLE = Path(__file__).parent / "rules" / "examples" / "roulette" / "004_E4_orphelins_17.json"


def test_computes_a_worked_example(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(json.loads(EXAMPLE.read_text())["input"]))
    out = io.StringIO()
    call_command("casino_compute", "--input", str(path), stdout=out)
    answer = json.loads(out.getvalue())
    assert answer["payout_per_bet"] == ["720.00"]
    assert out.getvalue().startswith("{\n  \"bets\"")  # indent 2


@pytest.mark.parametrize("text,message", [
    ('{"kind": "round", "rulebook": "000", "venue": "casino", "game": "roulette", "variant": "game_hall_a", '
     '"bets": [{"type": "split", "numbers": [1, 5], "stake": "1.00"}], "outcome": {"number": 1}}',
     "error: bets[0].numbers: "),
    ("{not json", "error: $: not valid JSON"),
])
def test_bad_input_exits_2_naming_the_field(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("casino_compute", "--input", str(path), stderr=err)
    assert exit_.value.code == 2
    assert err.getvalue().startswith(message)


def test_unreadable_file_exits_2(tmp_path):
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("casino_compute", "--input", str(tmp_path / "missing.json"), stderr=err)
    assert exit_.value.code == 2 and err.getvalue().startswith("error: --input: cannot read")
