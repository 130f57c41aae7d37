"""Worked examples W1-W17 of the digest, through `manage.py calculate_prizes` and the rule
versions stored in the database (the same pairs tests/lottery/rules checks on the pure engine)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from tests.lottery.rules.test_rules_worked_examples import EXAMPLES, NAMES, assert_subset, load


@pytest.mark.parametrize("name", NAMES)
def test_worked_example_through_the_command(db, capsys, name):
    expected = load(name, "expected")
    path = str(EXAMPLES / f"{name}.input.json")
    if "error" in expected:
        with pytest.raises(SystemExit) as info:
            call_command("calculate_prizes", input=path)
        assert info.value.code == 2 and f"error: {expected['error']['field']}:" in capsys.readouterr().err
        return
    out = io.StringIO()
    call_command("calculate_prizes", input=path, stdout=out)
    assert_subset(json.loads(out.getvalue()), expected)
