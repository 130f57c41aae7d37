"""Issue 14, findings 2, 4 and 7: API tokens are digests with an expiry, their issue is audited; the
break-glass superuser is audited."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from compliance import roles
from compliance.models import AuditEvent

pytestmark = pytest.mark.django_db


def test_an_issued_token_is_not_stored_in_clear(make_staff):
    from knox.models import AuthToken

    from compliance.tokens import token_issue

    token = token_issue(actor="system:tests", user=make_staff(roles.SALES_CHANNEL))
    assert not AuthToken.objects.filter(digest=token).exists() and AuthToken.objects.get().expiry is not None


def test_issuing_a_token_is_a_significant_audit_event(make_staff):
    from compliance.tokens import token_issue

    token_issue(actor="system:tests", user=make_staff(roles.SALES_CHANNEL))
    assert AuditEvent.objects.filter(action="auth.token_issued", significant=True).count() == 1


def test_an_expired_token_is_refused(make_staff):
    import datetime as dt

    from django.utils import timezone
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    from compliance.tokens import token_issue

    token = token_issue(actor="system:tests", user=make_staff(roles.AUDITOR))
    AuthToken.objects.update(expiry=timezone.now() - dt.timedelta(seconds=1))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/me/").status_code == 401


def test_rotating_a_token_revokes_the_old_one(make_staff, capsys):
    from rest_framework.test import APIClient

    from compliance.tokens import token_issue

    user, admin = make_staff(roles.SALES_CHANNEL), make_staff(roles.ADMINISTRATOR)
    old = token_issue(actor="system:tests", user=user)
    call_command("api_token", "rotate", user.username, "--by", admin.username)
    new = capsys.readouterr().out.strip()
    statuses = []
    for token in (old, new):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        statuses.append(api.get("/api/v1/me/").status_code)
    assert statuses == [401, 200]


def test_the_token_command_names_an_unknown_user_and_exits_2(make_staff):
    with pytest.raises(SystemExit) as exit_:
        call_command("api_token", "issue", "nobody", "--by", make_staff(roles.ADMINISTRATOR).username)
    assert exit_.value.code == 2


def test_a_break_glass_superuser_is_a_significant_audit_event():
    call_command("createsuperuser", "--noinput", "--username", "glass", "--email", "glass@example.invalid")
    assert AuditEvent.objects.filter(action="auth.superuser_created", significant=True).count() == 1
