"""A requester withdraws their own pending request (issue 18 item 3): only theirs, only while pending,
audited, and what the request had staged goes with it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from compliance.approvals import FourEyesError, approval_cancel, approval_decide
from compliance.models import Approval, AuditEvent, ExclusionEntry, ExclusionStage, RegistryImport
from compliance.registry_services import ban_add, ban_lift_request, registry_import_stage
from compliance.roles import COMPLIANCE_OFFICER
from tests.factories import ExclusionRegistryFactory, OperatorRegistryFactory, finnish_id_for

HETU = finnish_id_for(dt.date(1981, 6, 6), 11)


@pytest.fixture
def officers(make_staff):
    return make_staff(COMPLIANCE_OFFICER), make_staff(COMPLIANCE_OFFICER)


def _lift(officers) -> Approval:
    ban = ban_add(actor=officers[0], registry=OperatorRegistryFactory(), reason="r", national_id=HETU)
    return ban_lift_request(actor=officers[0], entry=ban, reason="appeal granted")


def test_the_requester_withdraws_a_pending_request_and_it_is_audited(officers):
    approval = _lift(officers)
    approval_cancel(actor=officers[0], approval=approval, note="asked too early")
    approval.refresh_from_db()
    event = AuditEvent.objects.get(action="approval.cancelled", object_id=str(approval.pk))
    assert (approval.state, event.actor_repr, event.data["note"]) == (
        Approval.State.CANCELLED, officers[0].username, "asked too early")


def test_a_withdrawn_ban_lifting_leaves_the_ban_in_force(officers):
    approval = _lift(officers)
    approval_cancel(actor=officers[0], approval=approval)
    assert ExclusionEntry.objects.get(pk=approval.target_id).ends_at is None


def test_another_person_cannot_withdraw_it(officers):
    approval = _lift(officers)
    with pytest.raises(FourEyesError):
        approval_cancel(actor=officers[1], approval=approval)
    assert Approval.objects.get(pk=approval.pk).state == Approval.State.REQUESTED


def test_a_decided_request_cannot_be_withdrawn(officers):
    approval = _lift(officers)
    approval_decide(actor=officers[1], approval=approval, approve=True)
    with pytest.raises(FourEyesError):
        approval_cancel(actor=officers[0], approval=approval)


def test_a_withdrawn_registry_import_drops_its_staged_entries(officers):
    national = ExclusionRegistryFactory(name="Finnish self-exclusion register", kind="national")
    data = f"identifier,country,starts,ends,external_id\n{HETU},FI,2024-01-01,,A1\n".encode()
    batch = registry_import_stage(actor=officers[0], registry=national, data=data, file_name="r.csv")
    approval = Approval.objects.get(target_id=str(batch.pk), kind="registry.import")
    approval_cancel(actor=officers[0], approval=approval, note="wrong file")
    assert (RegistryImport.objects.get(pk=batch.pk).state, ExclusionStage.objects.filter(batch=batch).count(),
            ExclusionEntry.objects.filter(registry=national).count()) == ("rejected", 0, 0)


def test_the_approvals_page_offers_the_withdrawal_to_the_requester_only(officers, client):
    approval = _lift(officers)
    client.force_login(officers[0])
    mine = client.get(reverse("compliance:approvals")).content.decode()
    client.force_login(officers[1])
    theirs = client.get(reverse("compliance:approvals")).content.decode()
    assert (f'data-withdraw="{approval.pk}"' in mine, "data-withdraw" in theirs) == (True, False)
    assert reverse("compliance:approval-withdraw", args=[approval.pk]) in mine


def test_the_requester_withdraws_from_the_page(officers, client):
    approval = _lift(officers)
    client.force_login(officers[0])
    response = client.post(reverse("compliance:approval-withdraw", args=[approval.pk]), {"note": "n"})
    assert response.status_code == 302 and Approval.objects.get(pk=approval.pk).state == Approval.State.CANCELLED


def test_a_withdrawal_posted_by_another_person_changes_nothing(officers, client):
    approval = _lift(officers)
    client.force_login(officers[1])
    client.post(reverse("compliance:approval-withdraw", args=[approval.pk]))
    assert Approval.objects.get(pk=approval.pk).state == Approval.State.REQUESTED
