"""Issue 14, finding 2: one Administrator cannot defeat a four-eyes control, and control switches made
in the admin wait for a second person."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from compliance import roles
from compliance.approvals import FourEyesError, approval_decide, approval_request
from compliance.controls import CONTROL_KIND, ROLE_GRANT_KIND
from compliance.models import Approval, AuditEvent
from tests.factories import ExclusionRegistryFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_of(client, make_staff):
    def make():
        user = make_staff(roles.ADMINISTRATOR, is_staff=True)
        client.force_login(user)
        client.user = user
        return client

    return make


def _add_user_in_admin(client, username: str):
    client.post("/admin/auth/user/add/", {"username": username, "password1": "a-Long-passw0rd-x",
                                          "password2": "a-Long-passw0rd-x", "usable_password": "true"})
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def _change_user_in_admin(client, user, groups: list[str]):
    return client.post(f"/admin/auth/user/{user.pk}/change/", {
        "username": user.username, "first_name": "", "last_name": "", "email": "", "is_active": "on",
        "groups": [Group.objects.get(name=g).pk for g in groups],
        "last_login_0": "", "last_login_1": "", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00",
    })


def test_a_role_given_in_the_admin_waits_for_a_second_persons_approval(admin_client_of):
    client = admin_client_of()
    user = _add_user_in_admin(client, "newofficer")
    _change_user_in_admin(client, user, [roles.COMPLIANCE_OFFICER])
    assert (list(user.groups.values_list("name", flat=True)),
            Approval.objects.filter(kind=ROLE_GRANT_KIND, target_id=str(user.pk)).count()) == ([], 1)


def test_an_account_an_administrator_created_never_decides_that_administrators_requests(admin_client_of,
                                                                                         make_staff):
    client = admin_client_of()
    puppet = _add_user_in_admin(client, "puppet")
    puppet.groups.add(Group.objects.get(name=roles.COMPLIANCE_OFFICER))  # granted by someone else
    registry = ExclusionRegistryFactory()
    request = approval_request(actor=client.user, kind=CONTROL_KIND, obj=registry,
                               payload={"model": "compliance.exclusionregistry", "pk": registry.pk,
                                        "operation": "update", "changes": {"active": False}, "before": {}})
    with pytest.raises(FourEyesError):
        approval_decide(actor=puppet, approval=request, approve=True)


def test_an_account_whose_password_a_requester_set_never_decides_their_requests(make_staff):
    from compliance.audit import audit_record

    requester, decider = make_staff(roles.COMPLIANCE_OFFICER), make_staff(roles.COMPLIANCE_OFFICER)
    audit_record(actor=requester, action="auth.password_changed", obj=decider)
    registry = ExclusionRegistryFactory()
    from compliance.controls import control_change_request

    request = control_change_request(actor=requester, obj=registry, changes={"active": False})
    with pytest.raises(FourEyesError):
        approval_decide(actor=decider, approval=request, approve=True)


def test_the_user_form_offers_no_superuser_flag(admin_client_of):
    client = admin_client_of()
    page = client.get(f"/admin/auth/user/{client.user.pk}/change/").content.decode()
    assert ("is_superuser" in page, "user_permissions" in page) == (False, False)


def test_switching_a_registry_off_in_the_admin_leaves_it_on_until_approved(admin_client_of):
    registry = ExclusionRegistryFactory(active=True)
    client = admin_client_of()
    from django.forms.models import model_to_dict

    data = {k: ("" if v is None else v) for k, v in model_to_dict(registry).items() if k != "active"}
    data.update(last_updated_0="", last_updated_1="")
    client.post(f"/admin/compliance/exclusionregistry/{registry.pk}/change/", data)  # "active" unticked
    registry.refresh_from_db()
    assert (registry.active, Approval.objects.filter(kind=CONTROL_KIND).count()) == (True, 1)


def test_a_second_person_approving_the_switch_applies_it_as_a_significant_event(admin_client_of, make_staff):
    from compliance.controls import control_change_request

    registry = ExclusionRegistryFactory(active=True)
    request = control_change_request(actor=make_staff(roles.COMPLIANCE_OFFICER), obj=registry,
                                     changes={"active": False})
    approval_decide(actor=make_staff(roles.COMPLIANCE_OFFICER), approval=request, approve=True)
    registry.refresh_from_db()
    event = AuditEvent.objects.get(action="control.update")
    assert (registry.active, event.significant, event.approver_id is not None) == (False, True, True)


def test_an_operator_limit_changed_in_the_admin_stays_until_approved(admin_client_of):
    from players.models import OperatorLimit
    from tests.factories import OperatorLimitFactory

    limit = OperatorLimitFactory(amount_cents=500_00)
    client = admin_client_of()
    client.post(f"/admin/players/operatorlimit/{limit.pk}/change/", {
        "kind": limit.kind, "period": limit.period, "amount_cents": 999_999_00, "minutes": "",
        "active": "on", "note": ""})
    assert (OperatorLimit.objects.get(pk=limit.pk).amount_cents,
            Approval.objects.filter(kind=CONTROL_KIND).count()) == (500_00, 1)


def test_disabling_a_regulated_job_in_the_admin_waits_for_approval(admin_client_of):
    from django_celery_beat.models import PeriodicTask

    from compliance.schedules import sync_schedules

    sync_schedules()
    task = PeriodicTask.objects.get(name="Verify the audit chain")
    client = admin_client_of()
    data = {"name": task.name, "regtask": task.task, "task": "", "crontab": task.crontab_id, "args": "[]",
            "kwargs": "{}", "description": "", "queue": "", "exchange": "", "routing_key": "", "headers": "{}",
            "priority": "", "expire_seconds": "", "start_time_0": "", "start_time_1": "", "expires_0": "",
            "expires_1": ""}  # "enabled" unticked
    client.post(f"/admin/django_celery_beat/periodictask/{task.pk}/change/", data)
    assert PeriodicTask.objects.get(pk=task.pk).enabled is True
    assert Approval.objects.filter(kind=CONTROL_KIND).count() == 1


def test_a_channels_prize_limit_typed_in_the_admin_waits_for_approval(admin_client_of):
    from players.models import Channel
    from tests.factories import sales_channel

    channel = sales_channel()
    client = admin_client_of()
    client.post(f"/admin/players/channel/{channel.pk}/change/",
                {"name": channel.name, "prize_limit_cents": 1_000_000_00, "active": "on"})
    assert (Channel.objects.get(pk=channel.pk).prize_limit_cents,
            Approval.objects.filter(kind=CONTROL_KIND, payload__model="players.channel").count()) == (0, 1)


def test_a_role_taken_away_in_the_admin_goes_at_once_as_a_significant_event(admin_client_of, make_staff):
    client = admin_client_of()
    officer = make_staff(roles.COMPLIANCE_OFFICER)
    _change_user_in_admin(client, officer, [])
    event = AuditEvent.objects.filter(action="auth.roles_changed", object_id=str(officer.pk)).get()
    assert (list(officer.groups.all()), event.significant) == ([], True)
