"""Every page and endpoint requires sign-in (or a token) and the permission it declares.

The walk covers every URL pattern of the project, so a new view that forgets its permission, or a
role that is given too much, fails here.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from compliance import roles
from compliance.access import required_permissions

# Open on purpose, each for its reason.
PUBLIC = {
    "login": "the sign-in page itself",
    "logout": "signing out needs no permission",
    "set_language": "choosing a language on the sign-in page",
    "healthz": "load-balancer probe; tells only up or down",
    "admin-login": "sends the admin's sign-in to the staff sign-in page",
    "password_change": "every signed-in person changes their own password (sign-in required)",
    "password_change_done": "the confirmation of the above (sign-in required)",
    "otp-enrol": "the second factor's enrolment, between password and pages (sign-in required)",
    "otp-verify": "the second factor's code, between password and pages (sign-in required)",
}
SAMPLE = {"int": "1", "id": "1", "str": "x", "slug": "x", "uuid": "00000000-0000-0000-0000-000000000000", "path": "x"}


def _walk(resolver, prefix="", namespace=""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if ns == "admin:":
                continue  # the Django admin has its own checks, tested below
            yield from _walk(entry, prefix + str(entry.pattern), ns)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), f"{namespace}{entry.name}", entry.callback


def _concrete(route: str) -> str:
    path = re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLE[m.group(1) or "str"], route)
    assert "(" not in path and "^" not in path, f"regex route {route!r} needs a sample in the walk"
    return "/" + path


def _view_class(callback):
    return getattr(callback, "view_class", None) or getattr(callback, "cls", None)


ROUTES = [(path, name, cb) for path, name, cb in _walk(get_resolver())]
PROTECTED = [(_concrete(p), n, _view_class(cb)) for p, n, cb in ROUTES if n.split(":")[-1] not in PUBLIC]


def test_every_route_is_public_on_purpose_or_declares_a_permission():
    missing = [name for _, name, cls in PROTECTED if not (cls and required_permissions(cls))]
    assert missing == []


@pytest.mark.parametrize("url,name,view", PROTECTED, ids=[n for _, n, _ in PROTECTED])
def test_anonymous_user_is_refused(client, db, url, name, view):
    response = client.get(url)
    if response.status_code == 302:
        assert response.url.startswith("/accounts/login/")
    else:
        assert response.status_code in (401, 403)


@pytest.mark.parametrize("url,name,view", PROTECTED, ids=[n for _, n, _ in PROTECTED])
def test_bad_token_is_refused(db, url, name, view):
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.get(url).status_code in (302, 401, 403)


@pytest.mark.parametrize("role", [None, *roles.ROLES])
@pytest.mark.parametrize("url,name,view", PROTECTED, ids=[n for _, n, _ in PROTECTED])
def test_role_gets_403_exactly_where_it_lacks_the_permission(staff_client, role, url, name, view):
    client = staff_client(role)
    allowed = client.user.has_perms(required_permissions(view))
    status = client.get(url).status_code
    if allowed:
        assert status != 403, f"{role} holds {required_permissions(view)} but was refused {url}"
    else:
        assert status == 403, f"{role} lacks {required_permissions(view)} but got {status} on {url}"


def test_auditor_is_read_only_everywhere(db):
    from compliance.roles import role_permissions, sync_roles

    sync_roles()
    perms = role_permissions(roles.AUDITOR)
    writes = [p for p in perms if p.split(".")[1].startswith(("add_", "change_", "delete_"))]
    assert writes == []


@pytest.mark.parametrize("role", [r for r in roles.ROLES if r != roles.ADMINISTRATOR])
def test_only_the_administrator_enters_the_django_admin(staff_client, role):
    client = staff_client(role)
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response.url


def test_administrator_enters_the_django_admin(staff_client):
    assert staff_client(roles.ADMINISTRATOR, is_staff=True).get("/admin/").status_code == 200


def test_anonymous_user_is_sent_to_admin_login(client, db):
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response.url
