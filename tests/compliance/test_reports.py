"""PDF and CSV reports: content read back from the PDF, page counts, the empty page, reproducibility,
archiving and who may generate or download."""

from __future__ import annotations

import datetime as dt
import hashlib
import io

import pytest
from django.utils import timezone
from pypdf import PdfReader

from compliance.audit import audit_record
from compliance.models import Report
from compliance.reports import report_render, report_request
from compliance.roles import AUDITOR, COMPLIANCE_OFFICER
from compliance.screening import screen
from compliance.services import exclusion_entry_add
from tests.factories import ExclusionRegistryFactory, PersonFactory, PlayerFactory, finnish_id_for


def _period() -> dict:
    today = timezone.localdate()
    return {"since": (today - dt.timedelta(days=1)).isoformat(), "until": today.isoformat()}


@pytest.fixture
def officer(make_staff):
    return make_staff(COMPLIANCE_OFFICER)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def _make(officer, kind: str, params: dict | None = None, language: str = "en") -> Report:
    report = report_request(actor=officer, kind=kind, params=params or _period(), language=language)
    report_render(report.pk)
    return Report.objects.get(pk=report.pk)


def _pdf(report: Report) -> PdfReader:
    with report.pdf.open("rb") as f:
        return PdfReader(io.BytesIO(f.read()))


def _text(report: Report) -> str:
    return "\n".join(page.extract_text() for page in _pdf(report).pages)


def test_audit_extract_lists_the_events_of_the_period(officer):
    audit_record(actor=officer, action="test.report_marker", data={"n": 1})
    assert "test.report_marker" in _text(_make(officer, "audit_extract"))


def test_audit_extract_filters_by_actor(officer, make_staff):
    other = make_staff(COMPLIANCE_OFFICER)
    audit_record(actor=other, action="test.other_actor")
    audit_record(actor=officer, action="test.own_actor")
    text = _text(_make(officer, "audit_extract", {**_period(), "actor": officer.username}))
    assert "test.own_actor" in text and "test.other_actor" not in text


def test_report_with_no_data_says_so_on_its_page(officer):
    report = _make(officer, "exclusion_hits", {"since": "2001-01-01", "until": "2001-01-31"})
    assert "No data for these parameters." in _text(report)


def test_empty_report_is_one_page(officer):
    report = _make(officer, "exclusion_hits", {"since": "2001-01-01", "until": "2001-01-31"})
    assert (report.pages, len(_pdf(report).pages)) == (1, 1)


def test_long_report_runs_over_pages_and_counts_them(officer):
    for i in range(120):
        audit_record(actor=officer, action=f"test.bulk.{i:03d}")
    report = _make(officer, "audit_extract")
    assert report.pages == len(_pdf(report).pages) > 1


def test_page_numbers_are_printed(officer):
    for i in range(120):
        audit_record(actor=officer, action=f"test.bulk.{i:03d}")
    report = _make(officer, "audit_extract")
    assert f"Page 2 / {report.pages}" in _pdf(report).pages[1].extract_text()


def _refusal() -> None:
    hetu = finnish_id_for(dt.date(1982, 2, 2), 31)
    person = PlayerFactory(person=PersonFactory(birth_date=dt.date(1982, 2, 2), national_id=hetu,
                                                last_name="Kieltolisted")).person
    exclusion_entry_add(actor="system:test", registry=ExclusionRegistryFactory(name="National test register"),
                        national_id=hetu)
    screen(person, "login")


def test_same_parameters_give_the_same_sha256(officer):
    _refusal()
    first, second = _make(officer, "exclusion_hits"), _make(officer, "exclusion_hits")
    assert first.sha256 == second.sha256 and first.pk != second.pk


def test_other_language_gives_another_document(officer):
    _refusal()
    assert _make(officer, "exclusion_hits", language="fi").sha256 != _make(officer, "exclusion_hits").sha256


def test_archived_pdf_matches_its_recorded_sha256(officer):
    report = _make(officer, "audit_extract")
    with report.pdf.open("rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == report.sha256


def test_report_records_parameters_version_and_rows(officer):
    report = _make(officer, "exclusion_hits", {"since": "2001-01-01", "until": "2001-01-31"}, language="sv")
    assert (report.status, report.version, report.language, report.rows, report.params["until"]) == (
        "done", "2", "sv", 0, "2001-01-31"
    )


def test_exclusion_hits_report_lists_registry_refusals(officer):
    """The PDF says the reason in words (the CSV keeps the code)."""
    _refusal()
    text = _text(_make(officer, "exclusion_hits"))
    assert "on an exclusion register" in text and "National test register" in text and "Kieltolisted" in text


def test_player_protection_report_lists_self_exclusions(officer):
    from players import services

    person = PlayerFactory(person=PersonFactory(last_name="Suojattu")).person
    services.self_exclusion_start(actor="system:test", person=person, days=30)
    text = _text(_make(officer, "player_protection"))
    assert "Self-exclusions (1)" in text and "Suojattu" in text


def test_csv_is_archived_next_to_the_pdf(officer):
    audit_record(actor=officer, action="test.csv_row")
    report = _make(officer, "audit_extract")
    with report.csv.open("rb") as f:
        lines = f.read().decode().splitlines()
    assert lines[0].startswith("seq,time,actor,action") and any("test.csv_row" in line for line in lines)


def test_rendering_twice_is_harmless(officer):
    report = _make(officer, "audit_extract")
    assert report_render(report.pk) is None


def test_generation_is_audited_with_the_hash(officer):
    from compliance.models import AuditEvent

    report = _make(officer, "audit_extract")
    assert AuditEvent.objects.get(action="report.generated", object_id=str(report.pk)).data["sha256"] == report.sha256


# --- pages -------------------------------------------------------------------------------------------


def test_officer_requests_a_report_from_the_page(staff_client):
    client = staff_client(COMPLIANCE_OFFICER)
    client.post("/compliance/reports/new/", {"kind": "audit_extract", "language": "fi", "since": "2026-01-01",
                                             "until": "2026-01-31"})
    assert Report.objects.get().params == {"since": "2026-01-01", "until": "2026-01-31"}


def test_auditor_may_not_generate_a_report(staff_client):
    client = staff_client(AUDITOR)
    response = client.post("/compliance/reports/new/", {"kind": "audit_extract", "language": "en",
                                                        "since": "2026-01-01", "until": "2026-01-31"})
    assert response.status_code == 403


def test_auditor_downloads_an_archived_pdf(staff_client, officer):
    report = _make(officer, "audit_extract")
    response = staff_client(AUDITOR).get(f"/compliance/reports/{report.pk}/pdf/")
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_status_endpoint_reports_progress(staff_client, officer):
    report = _make(officer, "audit_extract")
    data = staff_client(AUDITOR).get(f"/compliance/reports/{report.pk}/status/").json()
    assert (data["status"], data["progress"]) == ("done", 100)


def test_unfinished_report_cannot_be_downloaded(staff_client, officer):
    report = report_request(actor=officer, kind="audit_extract", params=_period())
    assert staff_client(AUDITOR).get(f"/compliance/reports/{report.pk}/pdf/").status_code == 404


def test_report_requested_on_the_page_is_generated_after_commit(staff_client, django_capture_on_commit_callbacks):
    client = staff_client(COMPLIANCE_OFFICER)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/compliance/reports/new/", {"kind": "exclusion_hits", "language": "en",
                                                 "since": "2001-01-01", "until": "2001-01-31"})
    assert Report.objects.get().status == "done"


def test_report_that_cannot_be_queued_waits_and_is_made_once_the_broker_is_back(
        officer, django_capture_on_commit_callbacks, monkeypatch):
    from kombu.exceptions import OperationalError

    from compliance import jobs, tasks

    real = tasks.report_generate.apply_async

    def refuse(*args, **kwargs):
        raise OperationalError("broker down")

    monkeypatch.setattr(tasks.report_generate, "apply_async", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        report = report_request(actor=officer, kind="audit_extract", params=_period())
    waiting = Report.objects.get(pk=report.pk).status
    monkeypatch.setattr(tasks.report_generate, "apply_async", real)
    jobs.dispatch()
    assert (waiting, Report.objects.get(pk=report.pk).status) == ("queued", "done")


def test_a_report_whose_worker_died_while_running_is_made_by_the_next_attempt(officer, settings):
    import datetime as dt

    from django.utils import timezone

    from compliance import jobs
    from compliance.models import Job

    report = report_request(actor=officer, kind="audit_extract", params=_period())  # not committed: not sent
    Report.objects.filter(pk=report.pk).update(status="running", progress=20)  # the first attempt died here
    Job.objects.filter(key=f"compliance.report:{report.pk}").update(
        state="running", attempts=1, worker="dead",
        heartbeat_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 1))
    jobs.dispatch()
    assert Report.objects.get(pk=report.pk).status == "done"


def test_large_report_is_a_fixed_width_listing_with_every_row(officer, monkeypatch):
    from compliance.reports import render

    monkeypatch.setattr(render, "LISTING_ROWS", 10)
    for i in range(30):
        audit_record(actor=officer, action=f"test.listing.{i:03d}")
    text = _text(_make(officer, "audit_extract", {**_period(), "actor": officer.username}))
    assert all(f"test.listing.{i:03d}" in text for i in range(30))
