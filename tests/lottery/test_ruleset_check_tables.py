"""Rule versions and the settlement's check computation (issue 16 item 4).

The check computation (path B) holds its tables as code; a rule version whose tables it does not have,
or has differently, is refused when published, naming the cells. Values the check computation follows
from the rule version (prizes, caps, ...) may change freely and settle end to end."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import load_command_class
from django.core.management.base import CommandError
from django.utils import translation

from compliance import roles
from compliance.models import AuditEvent
from lottery.check_tables import check_cells, differences
from lottery.models import RuleSet, RunState, Winning
from lottery.rules.rulesets import GAMES, default_params
from lottery.services import RuleSetRefused, params_fingerprint, ruleset_publish
from lottery.services.rulesets import check_tables_message
from lottery.services.settlement import run_settlement
from tests.factories import DrawFactory
from tests.lottery.game_support import add_lines, engine_line_prizes, stored_lines
from tests.lottery.support import add_line

KENO_RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 64, 65, 66, 67, 70], "kunkku": 66}


# ------------------------------------------------------------------------------------------------
# the comparison (no database)
# ------------------------------------------------------------------------------------------------

def _set_cell(params: dict, cell: str, value) -> None:
    """Set one cell (named as `lottery.check_tables` names it) in a rule version's parameters."""
    parts = cell.split(".")
    if parts[0] == "classes" and len(parts) == 3:
        item = next(c for c in params["classes"] if c["class"] == parts[1])
        item[parts[2]] = value
        return
    target = params
    for key in parts[:-1]:
        target = target[key]
    target[parts[-1]] = value


def _other(value):
    """A value that differs from `value` as the computations would read it."""
    if value is None:
        return "7"
    if isinstance(value, list):
        return [*value[:-1], value[-1] - 1]
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return str(int(value) + 1)
    return "half_up" if value == "down" else value + "X"


def _all_cells():
    return [(game, cell) for game in GAMES for cell in check_cells(game) if cell != "classes"]


@pytest.mark.parametrize("game", GAMES)
def test_every_digest_rule_version_has_the_tables_of_the_check_computation(game):
    assert differences(game, default_params(game)) == []


def test_every_table_cell_of_the_check_computation_is_compared():
    changed = []
    for game, cell in _all_cells():
        params = default_params(game)
        _set_cell(params, cell, _other(check_cells(game)[cell]))
        changed.append([d.cell for d in differences(game, params)] == [cell])
    # Keno 67 rows x 2 columns + levels + rounding, Kaikki 13 x 2 + 2, Synttärit 8 x 2 + 1, Jokeri 6 + 1,
    # Tähdenlento 24 x 2 + 2, the number games' formats 2 + 2 + 1 + 2
    assert (len(changed), all(changed)) == (136 + 28 + 17 + 7 + 50 + 7, True)


@pytest.mark.parametrize("game", ["lotto", "eurojackpot", "vikinglotto", "milli", "lomatonni"])
def test_a_class_list_the_check_computation_does_not_have_is_a_difference(game):
    params = default_params(game)
    params["classes"] = params["classes"][:-1]
    assert [d.cell for d in differences(game, params)] == ["classes"]


def test_a_class_the_check_computation_does_not_have_is_named_by_its_key():
    params = default_params("synttarit")
    params["classes"].append({"class": "9", "match": "D", "multiplier": "1"})
    assert [(d.cell, d.ruleset, d.check) for d in differences("synttarit", params)] == [
        ("classes.9.match", "D", None), ("classes.9.multiplier", "1", None)]


def test_a_multiplier_written_with_decimals_is_the_same_multiplier():
    params = default_params("keno")
    params["multipliers"]["10"]["7"]["kunkku"] = "50.00"
    assert differences("keno", params) == []


def test_values_the_check_computation_follows_are_not_compared():
    params = default_params("keno")
    params["caps"] = {**params["caps"], "base_cell": "150.00", "overall": "1000.00"}
    params["stake_basis"] = "with_addon_fee"
    milli = default_params("milli")
    milli["classes"][3]["prize"] = "12.00"
    assert (differences("keno", params), differences("milli", milli)) == ([], [])


# ------------------------------------------------------------------------------------------------
# refusal at publish time
# ------------------------------------------------------------------------------------------------

def _keno_with(cell: str, value) -> dict:
    params = default_params("keno")
    _set_cell(params, cell, value)
    return params


def test_publishing_a_multiplier_the_check_computation_does_not_have_is_refused_naming_the_cell(db, make_staff):
    with pytest.raises(RuleSetRefused) as refused:
        ruleset_publish(actor=make_staff(roles.ADMINISTRATOR), game="keno", version="2030-1",
                        effective_from=dt.date(2030, 1, 1), params=_keno_with("multipliers.10.7.kunkku", "500"))
    assert "Keno multipliers.10.7.kunkku: rule set says 500, the check computation has 50" in str(refused.value)


def test_a_refused_version_changes_nothing(db, make_staff):
    admin = make_staff(roles.ADMINISTRATOR)
    before = (RuleSet.objects.count(), AuditEvent.objects.count())
    with pytest.raises(RuleSetRefused):
        ruleset_publish(actor=admin, game="keno", version="2030-1", effective_from=dt.date(2030, 1, 1),
                        params=_keno_with("multipliers.11.4.base", "1"))
    assert (RuleSet.objects.count(), AuditEvent.objects.count()) == before


def test_the_refusal_says_what_to_do(db):
    message = str(RuleSetRefused("keno", "2030-1", differences("keno", _keno_with("rounding.mode", "half_up"))))
    assert "ship a release whose check tables include them" in message


def test_a_long_refusal_lists_twenty_cells_and_counts_the_rest():
    params = default_params("tahdenlento")
    for rows in params["multipliers"].values():
        for cell in rows.values():
            cell["bonus"] = str(int(cell["bonus"]) + 1)
    cells = differences("tahdenlento", params)
    lines = check_tables_message("tahdenlento", "x", cells).splitlines()
    assert (len(cells), sum(": rule set says " in line for line in lines), lines[-2]) == (
        24, 20, "… and 4 more cells")


@pytest.mark.parametrize("language", ["fi", "sv"])
def test_the_refusal_is_translated(db, language):
    cells = differences("keno", _keno_with("multipliers.10.7.kunkku", "500"))
    english = check_tables_message("keno", "2030-1", cells)
    with translation.override(language):
        translated = check_tables_message("keno", "2030-1", cells)
    assert translated != english and "multipliers.10.7.kunkku" in translated and "500" in translated


def _publish_from_the_command_line(tmp_path, monkeypatch, username: str, params: dict) -> int:
    """Run `manage.py publish_ruleset FILE --by USER` as the shell does; its exit status."""
    from django.core.management import base

    path = tmp_path / "version.json"
    path.write_text(json.dumps({"game": "keno", "version": "2030-1", "effective_from": "2030-01-01",
                                "params": params}))
    monkeypatch.setattr(base.connections, "close_all", lambda: None)  # keep the test's transaction open
    command = load_command_class("lottery", "publish_ruleset")
    try:
        command.run_from_argv(["manage.py", "publish_ruleset", str(path), "--by", username])
    except SystemExit as exc:
        return int(exc.code)
    return 0


def test_the_publish_command_exits_2_naming_the_differing_cell(db, make_staff, tmp_path, monkeypatch, capsys):
    admin = make_staff(roles.ADMINISTRATOR)
    status = _publish_from_the_command_line(tmp_path, monkeypatch, admin.username,
                                            _keno_with("multipliers.10.7.kunkku", "500"))
    err = capsys.readouterr().err
    assert (status, "multipliers.10.7.kunkku: rule set says 500, the check computation has 50" in err) == (2, True)


def test_the_publish_command_publishes_a_version_the_check_computation_can_settle(db, make_staff, tmp_path,
                                                                                   monkeypatch):
    admin = make_staff(roles.ADMINISTRATOR)
    params = default_params("keno")
    params["caps"]["base_cell"] = "2000000.00"
    status = _publish_from_the_command_line(tmp_path, monkeypatch, admin.username, params)
    assert (status, RuleSet.objects.filter(game="keno", version="2030-1").exists()) == (0, True)


def test_the_publish_command_exits_2_for_a_file_without_params(db, make_staff, tmp_path):
    from django.core.management import call_command

    path = tmp_path / "v.json"
    path.write_text(json.dumps({"game": "keno", "version": "2030-1", "effective_from": "2030-01-01"}))
    with pytest.raises(CommandError, match="params") as failed:
        call_command("publish_ruleset", str(path), by=make_staff(roles.ADMINISTRATOR).username)
    assert failed.value.returncode == 2


# ------------------------------------------------------------------------------------------------
# settlement: why the refusal, and a changed value the check computation follows
# ------------------------------------------------------------------------------------------------

def _unchecked_version(game: str, params: dict) -> RuleSet:
    """A version stored without the publish check, as one published before this release was."""
    return RuleSet.objects.create(game=game, version="old-1", effective_from=dt.date(2019, 1, 1), params=params,
                                  params_sha256=params_fingerprint(params), created_by="system:test")


KENO_LINES = [
    {"numbers": [1, 2, 3, 4, 5], "kunkku": False, "stake_cents": 100},                        # 5/5: 200 x
    {"numbers": [64, 65, 66, 1], "kunkku": True, "stake_cents": 200, "addon_cents": 100},   # 4/4 Kunkku: 200 x
    {"numbers": [1, 2, 3, 4, 5, 6, 7, 40, 41, 42], "kunkku": False, "stake_cents": 100},     # 7/10: 20 x
    {"numbers": [40, 41, 42], "kunkku": False, "stake_cents": 100},                          # nothing
]


def _keno_round(ruleset: RuleSet, confirm_result):
    draw = DrawFactory(game_code="keno", ruleset=ruleset)
    add_lines(draw, KENO_LINES)
    return draw, run_settlement(confirm_result(draw, KENO_RESULT).pk)


def test_a_version_stored_without_the_check_halts_every_settlement(db, confirm_result):
    # what publishing such a version did before this release: path B pays 20 x, the engine 25 x
    _, run = _keno_round(_unchecked_version("keno", _keno_with("multipliers.10.7.base", "25")), confirm_result)
    assert (run.state, AuditEvent.objects.filter(action="lottery.settlement_disagreement").exists()) == (
        RunState.HALTED, True)


def test_a_keno_version_with_lower_caps_settles_end_to_end_with_the_capped_prizes(db, confirm_result, make_staff):
    params = default_params("keno")
    params["caps"] = {**params["caps"], "base_cell": "150.00", "kunkku_cell": "300.00"}
    ruleset, _ = ruleset_publish(actor=make_staff(roles.ADMINISTRATOR), game="keno", version="2030-caps",
                                 effective_from=dt.date(2030, 1, 1), params=params)
    draw, run = _keno_round(ruleset, confirm_result)
    lines = stored_lines(draw)
    paid = dict(Winning.objects.filter(run=run).values_list("line_id", "prize_cents"))
    # 200 x 1 € capped at the cell's 150 €, 200 x 2 € Kunkku capped at 300 €, 20 x 1 € under the cap
    assert (run.state, [paid.get(line.pk) for line in lines]) == (RunState.SETTLED, [150_00, 300_00, 20_00, None])


def test_the_capped_keno_round_pays_what_the_engine_gives_under_that_version(db, confirm_result, make_staff):
    params = default_params("keno")
    params["caps"] = {**params["caps"], "base_cell": "150.00", "kunkku_cell": "300.00"}
    ruleset, _ = ruleset_publish(actor=make_staff(roles.ADMINISTRATOR), game="keno", version="2030-caps",
                                 effective_from=dt.date(2030, 1, 1), params=params)
    draw, run = _keno_round(ruleset, confirm_result)
    picks = [(line.pk, {"picks": spec["numbers"], "kunkku": spec["kunkku"]}, spec["stake_cents"])
             for line, spec in zip(stored_lines(draw), KENO_LINES)]
    assert dict(Winning.objects.filter(run=run).values_list("line_id", "prize_cents")) == engine_line_prizes(
        "keno", KENO_RESULT, picks, params)


def test_a_milli_version_with_another_fixed_prize_settles_end_to_end(db, confirm_result, make_staff):
    params = default_params("milli")
    next(c for c in params["classes"] if c["class"] == "4")["prize"] = "12.00"
    ruleset, _ = ruleset_publish(actor=make_staff(roles.ADMINISTRATOR), game="milli", version="2030-prize",
                                 effective_from=dt.date(2030, 1, 1), params=params)
    draw = DrawFactory(game_code="milli", ruleset=ruleset, jackpot_cents=50_000_000)
    add_line(draw, [1, 2, 3, 4, 9, 10])    # 4 correct: class 4, now 12 €
    add_line(draw, [1, 2, 3, 9, 10, 11])   # 3 correct: class 5, 2 €
    add_line(draw, [20, 21, 22, 23, 24, 25])
    run = run_settlement(confirm_result(draw, {"numbers": [1, 2, 3, 4, 5, 6], "additional": 7}).pk)
    assert (run.state, sorted(Winning.objects.filter(run=run).values_list("class_no", "prize_cents"))) == (
        RunState.SETTLED, [(4, 12_00), (5, 2_00)])


# ------------------------------------------------------------------------------------------------
# the staff page of a version
# ------------------------------------------------------------------------------------------------

def test_the_version_page_shows_the_cells_the_check_computation_has_differently(db, staff_client):
    ruleset = _unchecked_version("keno", _keno_with("multipliers.10.7.base", "25"))
    html = staff_client(roles.COMPLIANCE_OFFICER).get(f"/lottery/rules/{ruleset.pk}/").content.decode()
    assert "multipliers.10.7.base: rule set says 25, the check computation has 20" in html


def test_the_version_page_says_when_the_check_computation_agrees(db, staff_client):
    ruleset = RuleSet.objects.get(game="keno", version="2024-1")
    html = staff_client(roles.COMPLIANCE_OFFICER).get(f"/lottery/rules/{ruleset.pk}/").content.decode()
    assert "holds the same tables as this version" in html



# ------------------------------------------------------------------------------------------------
# every published version, after a release
# ------------------------------------------------------------------------------------------------

def test_checking_the_published_versions_passes_for_the_digest_versions(db, capsys):
    from django.core.management import call_command

    call_command("check_rulesets")
    assert "Every published rule version" in capsys.readouterr().out


def test_checking_the_published_versions_exits_2_naming_a_version_that_differs(db, capsys):
    from django.core.management import call_command

    _unchecked_version("keno", _keno_with("multipliers.10.7.base", "25"))
    with pytest.raises(SystemExit) as exited:
        call_command("check_rulesets")
    err = capsys.readouterr().err
    assert (exited.value.code, "old-1" in err, "multipliers.10.7.base: rule set says 25" in err) == (2, True, True)
