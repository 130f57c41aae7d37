"""Each demo role signs in through the browser and sees its own navigation."""

from __future__ import annotations

import pytest

from compliance.demo import DEMO_USERS
from compliance.models import AuditEvent

PASSWORD = "browser-test-pass"

# What each role must and must not find in the navigation.
EXPECTED_NAV = {
    "Operator": ({"dashboard", "api-docs"}, {"compliance:audit-list", "admin:index"}),
    "Draw supervisor": ({"dashboard", "api-docs"}, {"compliance:audit-list", "admin:index"}),
    "Compliance officer": ({"dashboard", "compliance:audit-list"}, {"admin:index"}),
    "Auditor": ({"dashboard", "compliance:audit-list"}, {"admin:index"}),
    "Administrator": ({"dashboard", "compliance:audit-list", "admin:index"}, set()),
    "Casino manager": ({"dashboard", "casino:venues", "casino:rounds", "casino:discrepancies"},
                       {"compliance:audit-list", "admin:index"}),
    "Casino inspector": ({"dashboard", "casino:rounds"}, {"compliance:audit-list", "admin:index"}),
}


def _sign_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


@pytest.mark.parametrize("username,role", [(u, r) for u, r, *_ in DEMO_USERS if u != "supervisor2"])
def test_demo_role_signs_in_and_sees_its_navigation(page, demo_staff, username, role):
    _sign_in(page, username, PASSWORD)
    page.wait_for_selector("h1:has-text('Dashboard')")
    nav = set(page.eval_on_selector_all("nav.main a", "els => els.map(e => e.dataset.nav)"))
    must, must_not = EXPECTED_NAV[role]
    assert must <= nav and not (must_not & nav), nav
    assert role in page.inner_text(".roles")


def test_wrong_password_shows_an_error_and_is_audited(page, demo_staff):
    _sign_in(page, "operator", "not-the-password")
    assert "did not match" in page.inner_text("[role=alert]")
    assert AuditEvent.objects.filter(action="auth.login_failed", data__username="operator").exists()


def test_language_switch_translates_the_dashboard(page, demo_staff):
    _sign_in(page, "auditor", PASSWORD)
    page.wait_for_selector("h1:has-text('Dashboard')")
    page.select_option("select[name=language]", "fi")
    page.wait_for_selector("h1:has-text('Kojelauta')")
    page.click("details[data-menu=compliance] > summary")  # the compliance pages are one menu
    assert "Valvontaloki" in page.inner_text("nav.main")
