"""The prize calculator: command and staff page give the same result, naming the rule version."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from compliance import roles

ROUND = {
    "game": "lotto",
    "turnover": "1000000.00",
    "jackpot": "2000000.00",
    "winners": {"1": 0, "2": 1, "3": 4, "4": 150, "5": 3000, "6": 9000},
}


def _command(data: dict, **options) -> dict:
    out = io.StringIO()
    path = Path(options.pop("tmp_path")) / "round.json"
    path.write_text(json.dumps(data))
    call_command("calculate_prizes", input=str(path), stdout=out, **options)
    return json.loads(out.getvalue())


def test_command_result_names_the_rule_version_used(db, tmp_path):
    assert _command(ROUND, tmp_path=tmp_path)["rules_version"] == "2024-1"


def test_command_computes_the_share_of_turnover(db, tmp_path):
    result = _command(ROUND, tmp_path=tmp_path)
    # Lotto class 3 (6 correct) is 2.5 % of the turnover, split between its 4 winners (§28).
    assert (result["classes"]["3"]["pool"], result["classes"]["3"]["prize"]) == ("25000.00", "6250.00")


def test_command_reads_standard_input(db, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(ROUND)))
    call_command("calculate_prizes", input="-")
    assert json.loads(capsys.readouterr().out)["classes"]["3"]["prize"] == "6250.00"


def test_command_exits_2_naming_the_bad_field(db, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({**ROUND, "winners": {"3": -1}})))
    with pytest.raises(SystemExit) as exit_info:
        call_command("calculate_prizes", input="-")
    assert exit_info.value.code == 2 and "error: winners.3:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text,field",
    [("{not json", "$"), ("[1, 2]", "$"), ('{"game": "bingo"}', "game"), ('{"game": "lotto", "rules_version": "1999-9"}', "rules_version")],
)
def test_malformed_input_exits_2_with_the_field(db, tmp_path, capsys, text, field):
    path = tmp_path / "round.json"
    path.write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        call_command("calculate_prizes", input=str(path))
    assert exit_info.value.code == 2 and f"error: {field}:" in capsys.readouterr().err


def test_page_shows_the_same_prizes_as_the_command(staff_client, db, tmp_path):
    expected = _command(ROUND, tmp_path=tmp_path)
    client = staff_client(roles.OPERATOR)
    response = client.get("/lottery/calculator/", {"game": "lotto", "calculate": "1", "round_json": json.dumps(ROUND)})
    assert response.context["result"] == expected


def test_page_builds_the_round_from_the_class_fields(staff_client, db, tmp_path):
    expected = _command(ROUND, tmp_path=tmp_path)
    fields = {"game": "lotto", "calculate": "1", "turnover": "1000000", "jackpot": "2000000"}
    fields.update({f"winners_{k}": v for k, v in ROUND["winners"].items()})
    response = staff_client(roles.AUDITOR).get("/lottery/calculator/", fields)
    assert response.context["result"]["classes"] == expected["classes"]


def test_page_explains_each_class(staff_client, db):
    response = staff_client(roles.OPERATOR).get(
        "/lottery/calculator/", {"game": "lotto", "calculate": "1", "round_json": json.dumps(ROUND)}
    )
    row = next(r for r in response.context["class_rows"] if r["key"] == "3")
    assert any("2.50 %" in note for note in row["notes"])


def test_page_reports_the_bad_field_of_an_invalid_round(staff_client, db):
    bad = {**ROUND, "winners": {"3": -1}}
    response = staff_client(roles.OPERATOR).get(
        "/lottery/calculator/", {"game": "lotto", "calculate": "1", "round_json": json.dumps(bad)}
    )
    assert response.context["error"]["field"] == "winners.3" and "result" not in response.context


def test_rule_versions_page_lists_every_game(staff_client, db):
    html = staff_client(roles.COMPLIANCE_OFFICER).get("/lottery/rules/").content.decode()
    assert all(name in html for name in ("Lotto", "Eurojackpot", "Keno", "Tähdenlento"))
