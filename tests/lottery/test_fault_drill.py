"""The fault drill's command refuses where it cannot run, and its comparison names what differs (the
drill itself runs in CI: .ci/run, "fault drill")."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from lottery.drill.fingerprint import differences


def test_the_drill_refuses_with_exit_status_2_without_postgresql_or_a_broker(db, settings):
    settings.CELERY_BROKER_URL = ""
    with pytest.raises(CommandError) as refused:
        call_command("fault_drill", trials=1, stdout=io.StringIO())
    expected = "real broker" if connection.vendor == "postgresql" else "needs PostgreSQL"
    assert (refused.value.returncode, expected in str(refused.value)) == (2, True)


def test_the_drill_refuses_an_unreachable_broker(db, settings):
    if connection.vendor != "postgresql":
        pytest.skip("the broker is asked only on PostgreSQL")
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    with pytest.raises(CommandError) as refused:
        call_command("fault_drill", trials=1, stdout=io.StringIO())
    assert (refused.value.returncode, "does not answer" in str(refused.value)) == (2, True)


def test_bad_options_are_refused_with_exit_status_2(db):
    with pytest.raises(CommandError) as refused:
        call_command("fault_drill", trials=0, stdout=io.StringIO())
    assert refused.value.returncode == 2


def test_differences_name_the_rows_found_in_only_one_fingerprint():
    baseline = {"payouts": [(1, 0, 0, 5000, "paid", 4700, 300)], "draw_state": "paid"}
    here = {"payouts": [(1, 0, 0, 5000, "paid", 5000, 0)], "draw_state": "paid"}
    diff = differences(baseline, here)
    assert (len(diff), diff[0].split(" [")[0], "4700, 300" in diff[0], "5000, 0)" in diff[0]) == (
        1, "payouts: 1 rows only in the baseline", True, True)


def test_identical_fingerprints_have_no_differences():
    fp = {"payouts": [(1, 0, 0, 5000, "paid", 4700, 300)], "balances": [(0, 2_000_000)], "draw_state": "paid"}
    assert differences(fp, dict(fp)) == []
