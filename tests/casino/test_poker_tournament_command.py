"""python manage.py casino_compute with the tournament kinds: every worked example of
examples/poker_tournaments/ goes through the command; bad input exits 2 naming the field."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.casino.rules.support import partial_match

EXAMPLES = sorted((Path(__file__).parent / "rules" / "examples" / "poker_tournaments").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example_through_the_command(tmp_path, path):
    pair = json.loads(path.read_text())
    doc = tmp_path / "in.json"
    doc.write_text(json.dumps(pair["input"]))
    out, err = io.StringIO(), io.StringIO()
    if "expected_error" in pair:
        with pytest.raises(SystemExit) as exit_:
            call_command("casino_compute", "--input", str(doc), stdout=out, stderr=err)
        assert exit_.value.code == 2
        assert err.getvalue().startswith(f"error: {pair['expected_error']['field']}: ")
        return
    call_command("casino_compute", "--input", str(doc), stdout=out, stderr=err)
    partial_match(json.loads(out.getvalue()), pair["expected"])
