"""Correction of a confirmed result (§27): two people, a new settlement version, a diff report."""

from __future__ import annotations

import datetime as dt

import pytest

from compliance.models import AuditEvent
from lottery.models import Draw, DrawResult, DrawState, ResultStatus, RunState, SettlementRun
from lottery.selectors import settlement_diff_classes, settlement_diff_winners
from lottery.services import (
    DrawInputError,
    DrawStateError,
    FourEyesError,
    correction_confirm,
    correction_reject,
    correction_request,
)
from lottery.services.settlement import run_settlement
from tests.factories import DrawFactory
from tests.lottery.support import add_line, add_random_lines

WRONG = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}
RIGHT = {"numbers": [1, 2, 3, 4, 5, 6, 9], "additional": 8, "plus": 3}


@pytest.fixture
def settled(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_line(draw, [1, 2, 3, 4, 20, 21, 22])  # 4 correct either way
    add_line(draw, [1, 2, 3, 7, 20, 21, 22])  # 4 correct, then 3 (no additional): loses
    add_line(draw, [1, 2, 3, 9, 20, 21, 22])  # 3 correct, then 4: wins
    add_random_lines(draw, 200)
    run_settlement(confirm_result(draw, WRONG).pk)
    return Draw.objects.get(pk=draw.pk)


def test_a_correction_waits_for_a_second_user(db, settled, enterer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="number 7 was misread")
    assert DrawResult.objects.get(draw=settled, status=ResultStatus.PROPOSED).numbers["numbers"][-1] == 9


def test_the_requester_cannot_confirm_their_own_correction(db, settled, enterer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    with pytest.raises(FourEyesError, match="different user"):
        correction_confirm(actor=enterer, draw=settled)


def test_a_correction_needs_a_reason(db, settled, enterer):
    with pytest.raises(DrawInputError, match="reason"):
        correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="")


def test_a_correction_must_change_the_result(db, settled, enterer):
    with pytest.raises(DrawInputError, match="same as the confirmed"):
        correction_request(actor=enterer, draw=settled, numbers=WRONG, reason="check")


def test_only_a_confirmed_result_is_corrected(db, enterer):
    with pytest.raises(DrawStateError, match="correcting"):
        correction_request(actor=enterer, draw=DrawFactory(), numbers=RIGHT, reason="x")


def test_a_confirmed_correction_supersedes_the_result(db, settled, enterer, confirmer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    correction_confirm(actor=confirmer, draw=settled)
    statuses = dict(DrawResult.objects.filter(draw=settled).values_list("version", "status"))
    assert statuses == {1: ResultStatus.SUPERSEDED, 2: ResultStatus.CONFIRMED}


def test_a_confirmed_correction_queues_a_new_settlement_version(db, settled, enterer, confirmer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    run = correction_confirm(actor=confirmer, draw=settled)
    assert (run.version, run.previous.version, Draw.objects.get(pk=settled.pk).state) == (2, 1, DrawState.CORRECTED)


def test_the_corrected_settlement_replaces_the_first(db, settled, enterer, confirmer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    run_settlement(correction_confirm(actor=confirmer, draw=settled).pk)
    states = dict(SettlementRun.objects.filter(draw=settled).values_list("version", "state"))
    assert (states, Draw.objects.get(pk=settled.pk).state) == ({1: RunState.SUPERSEDED, 2: RunState.SETTLED}, DrawState.SETTLED)


def test_the_correction_report_lists_changed_winners(db, settled, enterer, confirmer):
    from lottery.models import Line

    lines = list(Line.objects.filter(draw=settled).order_by("id").values_list("id", flat=True))[:3]
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    run = run_settlement(correction_confirm(actor=confirmer, draw=settled).pk)
    changed, _ = settlement_diff_winners(run, limit=100000)
    by_line = {r["line_id"]: (r["old_prize_cents"], r["new_prize_cents"]) for r in changed}
    assert (lines[0] in by_line, by_line.get(lines[1]), by_line.get(lines[2])) == (False, (1000, None), (None, 1000))


def test_the_correction_report_compares_every_class(db, settled, enterer, confirmer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    run = run_settlement(correction_confirm(actor=confirmer, draw=settled).pk)
    rows = settlement_diff_classes(run)
    assert [r["class_key"] for r in rows] == ["1", "2", "3", "4", "5", "6", "7"]


def test_a_correction_is_a_significant_event_naming_both_people(db, settled, enterer, confirmer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    correction_confirm(actor=confirmer, draw=settled)
    event = AuditEvent.objects.get(action="lottery.correction_confirmed")
    assert (event.significant, event.approver, event.data["requested_by"]) == (True, confirmer, enterer.username)


def test_a_rejected_correction_leaves_the_result(db, settled, enterer, confirmer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    correction_reject(actor=confirmer, draw=settled, reason="the video shows 7")
    assert DrawResult.objects.get(draw=settled, status=ResultStatus.CONFIRMED).version == 1


def test_only_one_correction_waits_at_a_time(db, settled, enterer):
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    with pytest.raises(DrawStateError, match="already awaiting"):
        correction_request(actor=enterer, draw=settled, numbers={**RIGHT, "plus": 4}, reason="again")


def test_a_correction_hands_the_new_rollovers_to_the_next_draw(db, settled, enterer, confirmer):
    following = DrawFactory(state="planned", draw_at=settled.draw_at + dt.timedelta(days=7),
                            sales_open_at=settled.draw_at, sales_close_at=settled.draw_at + dt.timedelta(days=6))
    correction_request(actor=enterer, draw=settled, numbers=RIGHT, reason="misread")
    run = run_settlement(correction_confirm(actor=confirmer, draw=settled).pk)
    expected = {t.class_key: t.rollover_out_cents for t in run.tiers.all() if t.rollover_out_cents}
    assert Draw.objects.get(pk=following.pk).rollover_in == expected
