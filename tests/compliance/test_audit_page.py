"""Auditors and compliance officers filter the audit trail by time, actor, action and object."""

import datetime as dt

from django.utils import timezone

from compliance import roles
from compliance.audit import audit_record


def _seqs_on_page(response) -> list[int]:
    return [e.seq for e in response.context["page"].object_list]


def test_filter_by_actor_and_action_prefix(staff_client):
    client = staff_client(roles.AUDITOR)
    a = audit_record(actor="system:alpha", action="lottery.draw_closed")
    audit_record(actor="system:beta", action="lottery.draw_closed")
    audit_record(actor="system:alpha", action="players.deposit")
    response = client.get("/compliance/audit/", {"actor": "system:alpha", "action": "lottery."})
    assert _seqs_on_page(response) == [a.seq]


def test_filter_by_object(staff_client):
    client = staff_client(roles.COMPLIANCE_OFFICER)
    target = client.user
    hit = audit_record(actor="system:x", action="test.obj", obj=target)
    audit_record(actor="system:x", action="test.other")
    response = client.get("/compliance/audit/", {"object_type": "auth.user", "object_id": target.pk, "action": "test."})
    assert _seqs_on_page(response) == [hit.seq]


def test_filter_by_time_window_excludes_events_outside_it(staff_client):
    client = staff_client(roles.AUDITOR)
    audit_record(actor="system:x", action="test.time")
    future = timezone.localtime() + dt.timedelta(hours=1)
    response = client.get("/compliance/audit/", {"since": future.strftime("%Y-%m-%dT%H:%M")})
    assert _seqs_on_page(response) == []


def test_reversed_time_window_is_a_form_error(staff_client):
    response = staff_client(roles.AUDITOR).get(
        "/compliance/audit/", {"since": "2026-02-01T00:00", "until": "2026-01-01T00:00"}
    )
    assert "must be before" in response.content.decode()


def test_event_detail_shows_hashes(staff_client):
    event = audit_record(actor="system:x", action="test.detail", before={"a": 1}, after={"a": 2})
    html = staff_client(roles.AUDITOR).get(f"/compliance/audit/{event.pk}/").content.decode()
    assert event.hash in html and event.prev_hash in html


def test_api_filters_events_like_the_page(api_client_for):
    api = api_client_for(roles.AUDITOR)
    hit = audit_record(actor="system:api", action="lottery.result_confirmed")
    audit_record(actor="system:api", action="players.deposit")
    body = api.get("/api/v1/audit-events/", {"actor": "system:api", "action": "lottery."}).json()
    assert [e["seq"] for e in body["results"]] == [hit.seq]


def test_api_bad_filter_is_a_400_naming_the_field(api_client_for):
    response = api_client_for(roles.AUDITOR).get("/api/v1/audit-events/", {"since": "yesterday"})
    assert response.status_code == 400 and "since" in response.json()["fields"]
