"""Filters of the audit trail and the screening log: any UTC offset, a NUL byte or a number too large
is a field error (400 on the API, beside the field on the page), never a 500 (issue 14, finding 5)."""

from __future__ import annotations

import datetime as dt

from compliance import roles
from compliance.forms import AuditFilterForm


def test_an_audit_filter_time_with_an_offset_beyond_15_59_is_kept_in_utc():
    form = AuditFilterForm({"since": "2026-01-01T00:00:00+23:00"})
    assert (form.is_valid(), form.cleaned_data["since"]) == (True, dt.datetime(2025, 12, 31, 1, 0, tzinfo=dt.UTC))


def test_an_audit_filter_time_that_cannot_be_moved_to_utc_is_a_field_error():
    form = AuditFilterForm({"until": "9999-12-31T23:59:59-15:00"})
    assert (form.is_valid(), list(form.errors)) == (False, ["until"])


def test_the_audit_api_answers_a_time_beyond_year_9999_in_utc_with_a_400(api_client_for):
    response = api_client_for(roles.AUDITOR).get("/api/v1/audit-events/", {"until": "9999-12-31T23:59:59-15:00"})
    assert (response.status_code, list(response.json()["fields"])) == (400, ["until"])


def test_the_audit_api_answers_a_nul_byte_in_a_filter_with_a_400(api_client_for):
    response = api_client_for(roles.AUDITOR).get("/api/v1/audit-events/?actor=%00")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["actor"])


def test_the_screening_log_page_shows_a_person_id_above_the_column_beside_its_field(staff_client):
    response = staff_client(roles.COMPLIANCE_OFFICER).get("/compliance/screening/", {"person": str(2**63)})
    assert "person" in response.context["form"].errors


def test_the_audit_page_shows_a_time_beyond_year_9999_beside_its_field(staff_client):
    response = staff_client(roles.AUDITOR).get("/compliance/audit/", {"until": "9999-12-31T23:59:59-15:00"})
    assert "until" in response.context["form"].errors


def test_a_report_period_ending_on_9999_12_31_is_a_field_error(db):
    from compliance.forms import ReportForm

    form = ReportForm({"kind": "audit_extract", "since": "2026-01-01", "until": "9999-12-31", "language": "en"})
    assert (form.is_valid(), "until" in form.errors) == (False, True)
