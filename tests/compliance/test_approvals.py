"""Four-eyes approvals: a different person decides, both steps are audited, the handler runs once."""

from __future__ import annotations

import pytest

from compliance.approvals import FourEyesError, approval_decide, approval_request, register_approval_handler
from compliance.models import Approval, AuditEvent
from compliance.roles import COMPLIANCE_OFFICER

CALLS: list[int] = []


def _handler(approval, *, approver):
    CALLS.append(approval.pk)


register_approval_handler("test.thing", _handler)


@pytest.fixture
def officers(make_staff):
    CALLS.clear()
    return make_staff(COMPLIANCE_OFFICER), make_staff(COMPLIANCE_OFFICER)


@pytest.fixture
def approval(officers):
    return approval_request(actor=officers[0], kind="test.thing", obj=officers[0], payload={"x": 1}, reason="why")


def test_requester_cannot_approve_their_own_request(officers, approval):
    with pytest.raises(FourEyesError, match="different person"):
        approval_decide(actor=officers[0], approval=approval, approve=True)


def test_refused_self_approval_leaves_the_request_pending(officers, approval):
    with pytest.raises(FourEyesError):
        approval_decide(actor=officers[0], approval=approval, approve=True)
    assert Approval.objects.get(pk=approval.pk).state == "requested"


def test_second_person_approval_runs_the_handler(officers, approval):
    approval_decide(actor=officers[1], approval=approval, approve=True)
    assert CALLS == [approval.pk]


def test_rejection_does_not_run_the_handler(officers, approval):
    approval_decide(actor=officers[1], approval=approval, approve=False, note="no")
    assert CALLS == []


def test_a_decided_request_cannot_be_decided_again(officers, approval, make_staff):
    approval_decide(actor=officers[1], approval=approval, approve=True)
    with pytest.raises(FourEyesError, match="already"):
        approval_decide(actor=make_staff(COMPLIANCE_OFFICER), approval=approval, approve=True)


def test_both_steps_are_in_the_audit_trail_with_the_approver(officers, approval):
    approval_decide(actor=officers[1], approval=approval, approve=True)
    events = AuditEvent.objects.filter(object_type="compliance.approval", object_id=str(approval.pk)).order_by("seq")
    assert [(e.action, e.actor_repr, e.approver_repr) for e in events] == [
        ("approval.requested", officers[0].username, ""),
        ("approval.approved", officers[1].username, officers[1].username),
    ]


def test_unknown_kind_cannot_be_requested(officers):
    with pytest.raises(ValueError, match="No approval handler"):
        approval_request(actor=officers[0], kind="nobody.handles.this", obj=None)


def test_handler_failure_rolls_back_the_decision(officers, make_staff):
    def boom(approval, *, approver):
        raise RuntimeError("handler failed")

    register_approval_handler("test.boom", boom)
    req = approval_request(actor=officers[0], kind="test.boom", obj=None)
    with pytest.raises(RuntimeError):
        approval_decide(actor=officers[1], approval=req, approve=True)
    assert Approval.objects.get(pk=req.pk).state == "requested"


def test_approvals_page_offers_no_decision_to_the_requester(officers, approval, client):
    client.force_login(officers[0])
    html = client.get("/compliance/approvals/").content.decode()
    assert "another person must decide" in html


def test_approvals_page_decides_for_a_second_person(officers, approval, client):
    client.force_login(officers[1])
    client.post(f"/compliance/approvals/{approval.pk}/decide/", {"decision": "approve", "note": "ok", "confirmed": "yes"})
    assert Approval.objects.get(pk=approval.pk).state == "approved"


def test_approvals_page_shows_the_four_eyes_error_to_the_requester(officers, approval, client):
    client.force_login(officers[0])
    response = client.post(f"/compliance/approvals/{approval.pk}/decide/", {"decision": "approve", "confirmed": "yes"}, follow=True)
    assert "Four-eyes rule" in response.content.decode()


def _audited_handler(approval, *, approver):
    from compliance.audit import audit_record

    audit_record(actor=approval.requested_by, action="test.applied", obj=approval, approver=approver)


register_approval_handler("test.audited", _audited_handler)


def test_the_handlers_audit_event_carries_the_deciders_client_address(officers, client):
    req = approval_request(actor=officers[0], kind="test.audited", obj=officers[0])
    client.force_login(officers[1])
    client.post(f"/compliance/approvals/{req.pk}/decide/", {"decision": "approve", "note": "ok", "confirmed": "yes"},
                REMOTE_ADDR="203.0.113.7")
    applied = AuditEvent.objects.get(action="test.applied", object_id=str(req.pk))
    assert (applied.actor_repr, applied.approver_repr, applied.ip_address) == (
        officers[0].username, officers[1].username, "203.0.113.7")
    # Only inside the decision: an event recorded afterwards without a request has no address.
    from compliance.audit import audit_record

    assert audit_record(actor=officers[1], action="test.later").ip_address is None
