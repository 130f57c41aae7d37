"""Staff change their own password; every password change anywhere is one audit event."""

from django.contrib.auth import get_user_model
from django.core.management import call_command

from compliance.audit import request_context
from compliance.models import AuditEvent
from tests.factories import PASSWORD

NEW = "a-brand-new-passphrase-42"


def test_staff_change_their_own_password_and_it_is_one_audit_event(staff_client):
    client = staff_client("Operator")
    response = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW})
    events = AuditEvent.objects.filter(action="auth.password_changed")
    assert response.status_code == 302 and client.get("/").status_code == 200
    assert [(e.actor_id, e.object_id, e.significant) for e in events] == [(client.user.pk, str(client.user.pk), False)]


def test_the_header_links_to_the_password_change_page(staff_client):
    assert b'href="/accounts/password/"' in staff_client("Auditor").get("/").content


def test_password_change_page_refuses_a_wrong_old_password(staff_client):
    client = staff_client("Operator")
    client.post("/accounts/password/", {"old_password": "nope", "new_password1": NEW, "new_password2": NEW})
    assert not AuditEvent.objects.filter(action="auth.password_changed").exists()


def test_changing_another_users_password_in_the_admin_is_significant(staff_client, make_staff):
    admin = staff_client("Administrator", is_staff=True, is_superuser=False)
    victim = make_staff("Operator")
    admin.post(f"/admin/auth/user/{victim.pk}/password/", {"password1": NEW, "password2": NEW, "usable_password": "true"})
    event = AuditEvent.objects.get(action="auth.password_changed", object_id=str(victim.pk))
    assert (event.actor_id, event.significant) == (admin.user.pk, True)


def test_password_set_from_the_console_is_a_significant_event(make_staff):
    user = make_staff("Auditor")
    user.set_password(NEW)
    user.save()
    event = AuditEvent.objects.get(action="auth.password_changed", object_id=str(user.pk))
    assert (event.actor_repr, event.significant) == ("system:console", True)


def test_changepassword_command_is_audited(make_staff, monkeypatch):
    user = make_staff("Auditor")
    monkeypatch.setattr("getpass.getpass", lambda prompt="": NEW)
    call_command("changepassword", user.username, stdout=open("/dev/null", "w"))
    assert AuditEvent.objects.filter(action="auth.password_changed", object_id=str(user.pk)).count() == 1


def test_saving_a_user_without_changing_the_password_is_not_a_password_event(make_staff):
    user = make_staff("Auditor")
    user.first_name = "Changed"
    user.save()
    get_user_model().objects.get(pk=user.pk).save()
    assert not AuditEvent.objects.filter(action="auth.password_changed").exists()


def test_the_actor_comes_from_the_current_request(make_staff, rf):
    admin, user = make_staff("Administrator"), make_staff("Auditor")
    request = rf.post("/somewhere/")
    request.user = admin
    with request_context(request):
        user.set_password(NEW)
        user.save()
    event = AuditEvent.objects.get(action="auth.password_changed")
    assert (event.actor_id, event.significant) == (admin.pk, True)
