"""Sign-in is for people: an integration (Sales channel) account is refused by the staff UI and the
admin, and told to use an API token."""

from compliance.models import AuditEvent
from compliance.roles import SALES_CHANNEL
from tests.factories import PASSWORD


def test_sales_channel_user_cannot_sign_in_to_the_staff_ui(client, make_staff):
    channel = make_staff(SALES_CHANNEL)
    response = client.post("/accounts/login/", {"username": channel.username, "password": PASSWORD})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert b"Integration accounts use API tokens" in response.content


def test_sales_channel_user_cannot_sign_in_to_the_admin_either(client, make_staff):
    channel = make_staff(SALES_CHANNEL, is_staff=True)
    client.post("/accounts/login/", {"username": channel.username, "password": PASSWORD, "next": "/admin/"})
    assert client.get("/admin/").status_code == 302


def test_refused_integration_sign_in_is_a_significant_audit_event(client, make_staff):
    channel = make_staff(SALES_CHANNEL)
    client.post("/accounts/login/", {"username": channel.username, "password": PASSWORD})
    event = AuditEvent.objects.get(action="auth.login_refused")
    assert (event.actor_id, event.significant) == (channel.pk, True)
