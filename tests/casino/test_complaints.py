"""Players' complaints and their deadlines (issue 19 item 4; 004 S2 §2.15, §2.16.4): due 10 working days
from the next working day in the venue's country (its public holidays from the `holidays` library), one
extension of 10 more when the player is notified, winnings paid within 30 calendar days; overdue
deadlines marked once, significantly, by the hourly job; the manager's work queue."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

from casino import complaints, operations
from casino.models import Complaint
from casino.rules import complaints as engine
from compliance import roles
from compliance.errors import InvalidInput, StateConflict
from compliance.models import AuditEvent
from tests.factories import PersonFactory

# Monday 1 March 2021. Counting from Tuesday 2 March, Monday to Friday: in Finland the 10th working day
# is Monday 15 March; in Ukraine Monday 8 March (International Women's Day) is a public holiday (2021 was
# before martial law suspended the days off), so it is Tuesday 16 March.
RECEIVED = dt.date(2021, 3, 1)
DUE_FI = dt.date(2021, 3, 15)
DUE_UA = dt.date(2021, 3, 16)
# The extension: 10 working days counted on from the first due date. Ukraine, from Wednesday 17 March:
# 17, 18, 19, 22, 23, 24, 25, 26, 29, 30 March.
EXTENDED_UA = dt.date(2021, 3, 30)


@pytest.fixture
def billionaire(db):
    return operations.venue_create(actor="system:test", code="billionaire", name="Casino Billionaire",
                                   kind="foreign_casino", jurisdiction="UA")


@pytest.fixture
def helsinki(db):
    return operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                   jurisdiction="FI")


def _record(venue, actor="casino", **overrides):
    args = {"venue": venue, "received_on": RECEIVED, "channel": "electronic", "player_name": "Olena Kovalenko",
            "subject": "My straight-up bet was paid as a split."}
    return complaints.complaint_record(actor=actor, **{**args, **overrides})


# --- deadlines ----------------------------------------------------------------------------------------


def test_the_answer_is_due_in_ukrainian_working_days_at_a_ukrainian_venue(billionaire):
    assert _record(billionaire).answer_due == DUE_UA


def test_the_answer_is_due_in_finnish_working_days_at_a_finnish_venue(helsinki):
    assert _record(helsinki).answer_due == DUE_FI


def test_a_complaint_keeps_the_engines_input_and_answer(billionaire):
    c = _record(billionaire)
    assert (c.deadline_input, c.deadline_answer["answer_due"], c.country) == (
        {"kind": "complaint", "received": "2021-03-01", "channel": "electronic", "country": "UA"}, "2021-03-16", "UA")


def test_a_complaint_received_on_a_saturday_counts_from_monday(helsinki):
    # Saturday 13 Nov 2021: Monday 15 is day 1, Friday 26 November day 10 (no Finnish holiday between).
    assert _record(helsinki, received_on=dt.date(2021, 11, 13)).answer_due == dt.date(2021, 11, 26)


def test_winnings_payable_are_due_30_calendar_days_after_the_request(billionaire):
    c = _record(billionaire, winnings_cents=35_000, payout_requested_on=dt.date(2021, 3, 2))
    assert (c.payment_due, c.winnings_cents) == (dt.date(2021, 4, 1), 35_000)


def test_the_request_for_payment_is_the_day_received_unless_given(billionaire):
    assert _record(billionaire, winnings_cents=100).payment_due == RECEIVED + dt.timedelta(days=30)


def test_a_complaint_names_its_player(billionaire):
    with pytest.raises(InvalidInput) as refused:
        _record(billionaire, player_name="")
    assert "player_name" in refused.value.fields


def test_an_identified_player_needs_no_name(billionaire):
    person = PersonFactory()
    assert _record(billionaire, player_name="", person=person).player == f"{person.first_name} {person.last_name}"


def test_a_complaint_received_in_the_future_is_refused(billionaire):
    with pytest.raises(InvalidInput) as refused:
        _record(billionaire, received_on=timezone.localdate() + dt.timedelta(days=1))
    assert "received_on" in refused.value.fields


def test_a_venue_whose_country_has_no_calendar_is_refused_beside_the_venue(db):
    venue = operations.venue_create(actor="system:test", code="nowhere", name="Nowhere", kind="casino",
                                    jurisdiction="XX")
    with pytest.raises(InvalidInput) as refused:
        _record(venue)
    assert "venue" in refused.value.fields


def test_recording_a_complaint_writes_its_audit_event_in_the_same_transaction(billionaire):
    with transaction.atomic():
        c = _record(billionaire)
        event = AuditEvent.objects.get(action="casino.complaint_recorded")
    assert (event.object_id, event.after["answer_due"]) == (str(c.pk), "2021-03-16")


def test_a_complaint_is_never_changed_in_place(billionaire):
    c = _record(billionaire)
    c.subject = "other"
    with pytest.raises(ValueError):
        c.save()


# --- the one extension ----------------------------------------------------------------------------------


def test_an_extension_adds_ten_working_days_after_the_first_due_date(billionaire):
    c = complaints.complaint_extend(actor="casino", complaint=_record(billionaire), notified_on=dt.date(2021, 3, 12))
    assert (c.extended_answer_due, c.due_on, c.deadline_answer["extended_answer_due"]) == (
        EXTENDED_UA, EXTENDED_UA, "2021-03-30")


def test_a_second_extension_is_refused_with_a_clear_message(billionaire):
    c = complaints.complaint_extend(actor="casino", complaint=_record(billionaire), notified_on=dt.date(2021, 3, 12))
    with pytest.raises(StateConflict) as refused:
        complaints.complaint_extend(actor="casino", complaint=c, notified_on=dt.date(2021, 3, 15))
    with translation.override("en"):
        message = str(refused.value)
    assert (refused.value.code, "one extension only" in message,
            Complaint.objects.get(pk=c.pk).extension_notified_on) == ("extended_already", True, dt.date(2021, 3, 12))


def test_an_extension_notified_after_the_due_date_is_refused(billionaire):
    with pytest.raises(InvalidInput) as refused:
        complaints.complaint_extend(actor="casino", complaint=_record(billionaire), notified_on=DUE_UA + dt.timedelta(days=1))
    assert (refused.value.code, list(refused.value.fields)) == ("extension_too_late", ["notified_on"])


def test_an_answered_complaint_is_not_extended(billionaire):
    c = complaints.complaint_answer(actor="casino", complaint=_record(billionaire), answered_on=DUE_UA, text="No.")
    with pytest.raises(StateConflict):
        complaints.complaint_extend(actor="casino", complaint=c, notified_on=dt.date(2021, 3, 12))


# --- answer and payment ---------------------------------------------------------------------------------


def test_an_answer_in_time_is_recorded_with_who_and_when(billionaire):
    c = complaints.complaint_answer(actor="casino", complaint=_record(billionaire), answered_on=DUE_UA, text="Upheld.")
    event = AuditEvent.objects.get(action="casino.complaint_answered")
    assert (c.answered_on, c.answer_text, c.answered_by_name, event.significant, event.after["late"]) == (
        DUE_UA, "Upheld.", "casino", False, False)


def test_an_answer_after_its_deadline_is_significant(billionaire):
    complaints.complaint_answer(actor="casino", complaint=_record(billionaire), answered_on=DUE_UA + dt.timedelta(days=1),
                                text="Sorry for the delay.")
    assert AuditEvent.objects.get(action="casino.complaint_answered").significant is True


def test_a_complaint_is_answered_once(billionaire):
    c = complaints.complaint_answer(actor="casino", complaint=_record(billionaire), answered_on=DUE_UA, text="No.")
    with pytest.raises(StateConflict):
        complaints.complaint_answer(actor="casino", complaint=c, answered_on=DUE_UA, text="Yes after all.")


def test_an_answer_that_finds_winnings_payable_sets_the_payment_deadline(billionaire):
    c = complaints.complaint_answer(actor="casino", complaint=_record(billionaire), answered_on=dt.date(2021, 3, 5),
                                    text="Upheld.", winnings_cents=35_000)
    assert (c.winnings_cents, c.payout_requested_on, c.payment_due) == (35_000, RECEIVED, dt.date(2021, 3, 31))


def test_paid_winnings_are_recorded_once(billionaire):
    c = _record(billionaire, winnings_cents=35_000)
    c = complaints.complaint_mark_paid(actor="casino", complaint=c, paid_on=dt.date(2021, 3, 20), reference="KASSA-1")
    with pytest.raises(StateConflict):
        complaints.complaint_mark_paid(actor="casino", complaint=c, paid_on=dt.date(2021, 3, 21))
    assert (c.paid_on, c.paid_reference) == (dt.date(2021, 3, 20), "KASSA-1")


def test_a_complaint_without_winnings_has_nothing_to_pay(billionaire):
    with pytest.raises(StateConflict):
        complaints.complaint_mark_paid(actor="casino", complaint=_record(billionaire), paid_on=dt.date(2021, 3, 2))


# --- the overdue job -----------------------------------------------------------------------------------


def test_an_overdue_answer_is_marked_once_with_a_significant_event(billionaire):
    c = _record(billionaire)
    first = complaints.complaints_mark_overdue(today=DUE_UA + dt.timedelta(days=1))
    second = complaints.complaints_mark_overdue(today=DUE_UA + dt.timedelta(days=2))
    events = AuditEvent.objects.filter(action="casino.complaint_answer_overdue")
    assert (first, second, events.count(), events.get().significant, events.get().object_id) == (
        {"answers": 1, "payments": 0}, {"answers": 0, "payments": 0}, 1, True, str(c.pk))


def test_an_answer_due_today_is_not_overdue(billionaire):
    _record(billionaire)
    assert complaints.complaints_mark_overdue(today=DUE_UA) == {"answers": 0, "payments": 0}


def test_an_extended_answer_is_overdue_only_after_the_extended_date(billionaire):
    complaints.complaint_extend(actor="casino", complaint=_record(billionaire), notified_on=dt.date(2021, 3, 12))
    assert [complaints.complaints_mark_overdue(today=day)["answers"]
            for day in (DUE_UA + dt.timedelta(days=1), EXTENDED_UA, EXTENDED_UA + dt.timedelta(days=1))] == [0, 0, 1]


def test_an_answered_complaint_is_never_marked_overdue(billionaire):
    complaints.complaint_answer(actor="casino", complaint=_record(billionaire), answered_on=DUE_UA, text="No.")
    assert complaints.complaints_mark_overdue(today=DUE_UA + dt.timedelta(days=30))["answers"] == 0


def test_an_unpaid_payment_is_marked_overdue_once(billionaire):
    c = _record(billionaire, winnings_cents=35_000)
    complaints.complaint_answer(actor="casino", complaint=c, answered_on=DUE_UA, text="Upheld.")
    runs = [complaints.complaints_mark_overdue(today=c.payment_due + dt.timedelta(days=d))["payments"] for d in (0, 1, 2)]
    assert (runs, AuditEvent.objects.get(action="casino.complaint_payment_overdue").significant) == ([0, 1, 0], True)


def test_the_hourly_task_marks_through_the_service(billionaire):
    from casino.tasks import complaint_deadlines  # noqa: PLC0415 (the task module, as beat calls it)

    _record(billionaire)  # received in 2021: long overdue today
    assert (complaint_deadlines(), complaint_deadlines()) == ({"answers": 1, "payments": 0}, {"answers": 0, "payments": 0})


def test_the_deadline_task_is_in_the_beat_schedule(db):
    from django_celery_beat.models import PeriodicTask  # noqa: PLC0415 (created after migrate)

    assert PeriodicTask.objects.filter(task="casino.tasks.complaint_deadlines").exists()


# --- the work queue ------------------------------------------------------------------------------------


def _due_soon(venue):
    """A complaint received so that its answer is due within a few days from today (in its country)."""
    today = timezone.localdate()
    for back in range(1, 30):
        received = today - dt.timedelta(days=back)
        if 0 <= (engine.answer_due(received, venue.jurisdiction) - today).days <= 2:
            return _record(venue, received_on=received)
    raise AssertionError("no day found")


def test_complaints_due_or_overdue_wait_for_the_manager_counted_in_the_navigation(client, billionaire, make_staff):
    overdue, soon = _record(billionaire), _due_soon(billionaire)
    _record(billionaire, received_on=timezone.localdate())  # due in two weeks: on the list, not in the queue
    client.force_login(make_staff(roles.CASINO_MANAGER))
    html = client.get(reverse("dashboard"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    queue = html.split('data-queue="casino.complaints"')[1].split("</ul>")[0]
    nav = html.split('data-nav="casino:complaints"')[1].split("</a>")[0]
    assert f'data-work="complaint-{overdue.pk}-answer"' in queue and f'data-work="complaint-{soon.pk}-answer"' in queue
    assert "overdue" in queue.split(f'data-work="complaint-{overdue.pk}-answer"')[1].split("</li>")[0]
    assert 'data-count="2"' in nav


def test_the_inspector_has_no_complaint_queue(client, billionaire, make_staff):
    _record(billionaire)
    client.force_login(make_staff(roles.CASINO_INSPECTOR))
    assert 'data-queue="casino.complaints"' not in client.get(reverse("dashboard")).content.decode()


def test_an_answered_complaint_leaves_the_queue_and_its_unpaid_winnings_take_its_place(client, billionaire, make_staff):
    c = _record(billionaire)
    complaints.complaint_answer(actor="casino", complaint=c, answered_on=DUE_UA, text="Upheld.",
                                winnings_cents=1_000)
    client.force_login(make_staff(roles.CASINO_MANAGER))
    queue = client.get(reverse("dashboard"), HTTP_ACCEPT_LANGUAGE="en").content.decode().split(
        'data-queue="casino.complaints"')[1].split("</ul>")[0]
    assert (f"complaint-{c.pk}-answer" in queue, f"complaint-{c.pk}-payment" in queue) == (False, True)


def test_the_queue_reads_in_one_query_however_many_wait(billionaire, make_staff, django_assert_num_queries):
    from casino.complaint_work import complaint_deadlines  # noqa: PLC0415

    for _ in range(5):
        _record(billionaire)
    manager = make_staff(roles.CASINO_MANAGER)
    with django_assert_num_queries(1):
        assert len(complaint_deadlines(manager)) == 5


# --- pages ---------------------------------------------------------------------------------------------


def _form(venue, **overrides):
    data = {"venue": venue.pk, "received_on": "2021-03-01", "channel": "written", "person": "",
            "player_name": "Taras Melnyk", "subject": "Kuittia ei annettu.", "round_ref": "", "dispute": "",
            "winnings": "", "payout_requested_on": ""}
    return {**data, **overrides}


def test_the_manager_records_a_complaint_from_the_page(staff_client, billionaire):
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:complaint-new"), _form(billionaire))
    c = Complaint.objects.get()
    assert (response.status_code, c.answer_due, c.channel) == (302, DUE_UA, "written")


def test_a_refused_complaint_shows_its_errors_in_finnish_beside_the_fields_and_keeps_the_input(staff_client, billionaire):
    response = staff_client(roles.CASINO_INSPECTOR).post(
        reverse("casino:complaint-new"), _form(billionaire, player_name="", received_on="2999-01-01"),
        HTTP_ACCEPT_LANGUAGE="fi")
    html = response.content.decode()
    name_error = html.split('data-field-error="player_name"')[1].split("</span>")[0]
    date_error = html.split('data-field-error="received_on"')[1].split("</span>")[0]
    assert (response.status_code, Complaint.objects.count()) == (200, 0)
    assert "pelaajan nimi" in name_error and "tulevaisuudessa" in date_error
    assert "Kuittia ei annettu." in html


def test_the_list_puts_the_nearest_deadline_first_and_says_overdue_in_words(staff_client, billionaire):
    later = _record(billionaire, received_on=timezone.localdate())
    overdue = _record(billionaire)
    response = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("casino:complaints"), HTTP_ACCEPT_LANGUAGE="fi")
    rows = response.context["rows"]
    html = response.content.decode()
    cell = html.split(f'data-complaint="{overdue.pk}"')[1].split("</tr>")[0]
    assert [r["c"].pk for r in rows] == [overdue.pk, later.pk]
    assert "myöhässä" in cell


def test_extending_asks_for_confirmation_first(staff_client, billionaire):
    c = _record(billionaire)
    client = staff_client(roles.CASINO_MANAGER)
    url = reverse("casino:complaint-extend", args=[c.pk])
    asked = client.post(url, {"notified_on": "2021-03-12"})
    unchanged = Complaint.objects.get(pk=c.pk).extension_notified_on
    done = client.post(url, {"notified_on": "2021-03-12", "confirmed": "yes"})
    assert (asked.status_code, "compliance/confirm.html" in [t.name for t in asked.templates], unchanged,
            done.status_code, Complaint.objects.get(pk=c.pk).extended_answer_due) == (
        200, True, None, 302, EXTENDED_UA)


def test_a_second_extension_from_the_page_shows_the_refusal_on_the_complaint(staff_client, billionaire):
    c = complaints.complaint_extend(actor="casino", complaint=_record(billionaire), notified_on=dt.date(2021, 3, 12))
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:complaint-extend", args=[c.pk]),
                                                       {"notified_on": "2021-03-13", "confirmed": "yes"},
                                                       HTTP_ACCEPT_LANGUAGE="fi", follow=True)
    assert response.status_code == 200 and "vain kerran" in response.content.decode()


def test_an_answer_from_the_page_keeps_the_text_when_refused(staff_client, billionaire):
    c = _record(billionaire)
    response = staff_client(roles.CASINO_MANAGER).post(
        reverse("casino:complaint-answer", args=[c.pk]),
        {"answered_on": "2021-02-01", "text": "Hyväksytty.", "winnings": "", "payout_requested_on": "", "confirmed": "yes"},
        HTTP_ACCEPT_LANGUAGE="fi")
    html = response.content.decode()
    assert response.status_code == 200 and 'data-field-error="answered_on"' in html and "Hyväksytty." in html
    assert Complaint.objects.get(pk=c.pk).answered_on is None


def test_the_inspector_may_not_answer_a_complaint(staff_client, billionaire):
    c = _record(billionaire)
    response = staff_client(roles.CASINO_INSPECTOR).post(
        reverse("casino:complaint-answer", args=[c.pk]), {"answered_on": "2021-03-05", "text": "x", "confirmed": "yes"})
    assert response.status_code == 403 and Complaint.objects.get(pk=c.pk).answered_on is None


def test_paying_from_the_page_records_the_payment(staff_client, billionaire):
    c = _record(billionaire, winnings_cents=35_000)
    response = staff_client(roles.CASINO_MANAGER).post(
        reverse("casino:complaint-paid", args=[c.pk]), {"paid_on": "2021-03-20", "reference": "KASSA-7", "confirmed": "yes"})
    assert (response.status_code, Complaint.objects.get(pk=c.pk).paid_on) == (302, dt.date(2021, 3, 20))
