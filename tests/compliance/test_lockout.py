"""Sign-in lockout (django-axes): five failures lock a user name, whatever the address, and an
address, whatever the names, for 30 minutes; each locked attempt is one audit event."""

import re

import pytest

from compliance.models import AuditEvent
from tests.factories import PASSWORD


def _fail(client, username, times, address="127.0.0.1"):
    for _ in range(times):
        client.post("/accounts/login/", {"username": username, "password": "wrong-guess"}, REMOTE_ADDR=address)


@pytest.fixture
def operator(make_staff):
    return make_staff("Operator")


def test_five_failures_lock_the_account_even_with_the_right_password(client, operator):
    _fail(client, operator.username, 5)
    response = client.post("/accounts/login/", {"username": operator.username, "password": PASSWORD})
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_four_failures_do_not_lock_the_account(client, operator):
    _fail(client, operator.username, 4)
    response = client.post("/accounts/login/", {"username": operator.username, "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(operator.pk)


def test_failures_from_many_addresses_lock_the_user_name(client, operator):
    for n in range(5):
        _fail(client, operator.username, 1, address=f"198.51.100.{n + 1}")
    response = client.post("/accounts/login/", {"username": operator.username, "password": PASSWORD},
                           REMOTE_ADDR="198.51.100.77")
    assert response.status_code == 429


def test_failures_for_many_names_lock_the_address(client, operator):
    for n in range(5):
        _fail(client, f"guess{n}", 1, address="203.0.113.9")
    response = client.post("/accounts/login/", {"username": operator.username, "password": PASSWORD},
                           REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 429


def test_the_lockout_ends_after_thirty_minutes(client, operator, settings):
    import datetime as dt

    from axes.models import AccessAttempt

    _fail(client, operator.username, 5)
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=31))
    response = client.post("/accounts/login/", {"username": operator.username, "password": PASSWORD})
    assert response.status_code == 302


def _alert(response) -> str:
    return re.search(r'<p class="error" role="alert"[^>]*>(.*?)</p>', response.content.decode(), re.S).group(1)


def test_the_locked_page_says_whom_to_contact_and_is_the_same_for_an_unknown_name(client, operator):
    _fail(client, operator.username, 5)
    _fail(client, "nobody-by-this-name", 5, address="192.0.2.44")
    known = client.post("/accounts/login/", {"username": operator.username, "password": "x"})
    unknown = client.post("/accounts/login/", {"username": "nobody-by-this-name", "password": "x"},
                          REMOTE_ADDR="192.0.2.44")
    assert "contact your Valvoja administrator" in _alert(known) and _alert(known) == _alert(unknown)


def test_each_locked_out_attempt_is_one_audit_event_and_the_first_is_significant(client, operator):
    _fail(client, operator.username, 7)
    events = list(AuditEvent.objects.filter(action__startswith="auth.").order_by("seq").values_list(
        "action", "significant"))
    assert events == [("auth.login_failed", False)] * 4 + [("auth.locked_out", True)] + [("auth.locked_out", False)] * 2


def test_the_django_admin_signs_in_through_the_locked_sign_in_page(client, make_staff):
    admin = make_staff("Administrator", is_staff=True)
    _fail(client, admin.username, 5)
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response.url == "/accounts/login/?next=/admin/"
    locked = client.post("/accounts/login/", {"username": admin.username, "password": PASSWORD, "next": "/admin/"})
    assert locked.status_code == 429
