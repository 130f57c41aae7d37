"""The staff shell: dashboard and navigation by role, languages, health probe, API docs."""

import json

import pytest
from django.core.management import call_command

from compliance import roles


def _nav(response) -> set[str]:
    import re

    return set(re.findall(r'data-nav="([^"]+)"', response.content.decode()))


def test_auditor_sees_the_audit_trail_in_the_navigation(staff_client):
    assert "compliance:audit-list" in _nav(staff_client(roles.AUDITOR).get("/"))


def test_operator_does_not_see_the_audit_trail(staff_client):
    nav = _nav(staff_client(roles.OPERATOR).get("/"))
    assert "dashboard" in nav and "compliance:audit-list" not in nav


def test_only_staff_flagged_administrator_sees_the_admin_link(staff_client):
    assert "admin:index" in _nav(staff_client(roles.ADMINISTRATOR, is_staff=True).get("/"))


def test_user_without_a_role_is_refused_the_dashboard(staff_client):
    assert staff_client(None).get("/").status_code == 403


@pytest.mark.parametrize("lang,word", [("fi", "Kojelauta"), ("sv", "Översikt"), ("en", "Dashboard")])
def test_dashboard_speaks_the_chosen_language(staff_client, lang, word):
    client = staff_client(roles.OPERATOR)
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    assert word in client.get("/").content.decode()


def test_healthz_reports_database_and_broker(client, db, settings):
    body = json.loads(client.get("/healthz").content)
    assert body["database"] == "ok"
    assert body["broker"] == ("eager" if not settings.CELERY_BROKER_URL else "ok")


def test_healthz_reports_an_unreachable_broker_as_503(client, db, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    settings.HEALTHZ_REQUIRE = ["database", "broker"]
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert (response.status_code, body["broker"].startswith("error"), body["missing"]) == (503, True, ["broker"])


def test_openapi_schema_is_served_to_api_users(api_client_for):
    response = api_client_for(roles.AUDITOR).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.") and "/api/v1/audit-events/" in schema["paths"]


def test_swagger_ui_is_self_hosted(staff_client):
    html = staff_client(roles.OPERATOR).get("/api/docs/").content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html and "cdn" not in html.lower()


def test_api_me_names_the_token_holder_and_roles(api_client_for):
    api = api_client_for(roles.COMPLIANCE_OFFICER)
    body = api.get("/api/v1/me/").json()
    assert (body["username"], body["roles"]) == (api.user.username, [roles.COMPLIANCE_OFFICER])


def test_seed_demo_is_idempotent(db):
    from django.contrib.auth import get_user_model

    from compliance.models import AuditEvent

    call_command("seed_demo", stdout=open("/dev/null", "w"))
    users, events = get_user_model().objects.count(), AuditEvent.objects.count()
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    assert (get_user_model().objects.count(), AuditEvent.objects.count()) == (users, events)


def test_seed_demo_gives_each_demo_user_its_role(db):
    from django.contrib.auth import get_user_model

    from compliance.demo import DEMO_USERS

    call_command("seed_demo", stdout=open("/dev/null", "w"))
    User = get_user_model()
    got = {u: list(User.objects.get(username=u).groups.values_list("name", flat=True)) for u, *_ in DEMO_USERS}
    assert got == {u: [role] for u, role, *_ in DEMO_USERS}
