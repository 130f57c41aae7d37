"""Staff sign-ins, sign-outs and failed sign-ins are in the audit trail."""

from compliance.models import AuditEvent
from tests.factories import PASSWORD


def test_successful_sign_in_is_audited_with_the_user(client, make_staff):
    user = make_staff("Operator")
    client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    event = AuditEvent.objects.filter(action="auth.login").latest("seq")
    assert (event.actor_id, event.ip_address) == (user.pk, "127.0.0.1")


def test_failed_sign_in_is_audited_with_the_attempted_name(client, db):
    response = client.post("/accounts/login/", {"username": "mallory", "password": "guess"})
    event = AuditEvent.objects.filter(action="auth.login_failed").latest("seq")
    assert response.status_code == 200 and event.data == {"username": "mallory"}


def test_failed_sign_in_shows_an_error(client, db):
    response = client.post("/accounts/login/", {"username": "mallory", "password": "guess"})
    assert b"did not match" in response.content


def test_sign_out_is_audited(client, make_staff):
    user = make_staff("Auditor")
    client.force_login(user)
    client.post("/accounts/logout/")
    assert AuditEvent.objects.filter(action="auth.logout", actor=user).exists()


def test_role_change_is_a_significant_event_with_before_and_after(make_staff):
    from compliance.services import staff_set_roles

    admin, user = make_staff("Administrator"), make_staff("Operator")
    staff_set_roles(actor=admin, user=user, roles=["Auditor"])
    event = AuditEvent.objects.get(action="auth.roles_changed", object_id=str(user.pk))
    assert (event.before, event.after, event.significant) == ({"roles": ["Operator"]}, {"roles": ["Auditor"]}, True)
