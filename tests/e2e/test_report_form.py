"""The reports form shows only the fields of the chosen report kind (static script, no inline code)
and still works without script: every field is there, the server ignores the others."""

from __future__ import annotations

PASSWORD = "browser-test-pass"


def _sign_in(page):
    page.goto("/accounts/login/")
    page.fill("#id_username", "compliance")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Dashboard')")


def _visible(page, name: str) -> bool:
    return page.locator(f"label[data-field='{name}']").is_visible()


def test_the_reports_form_hides_the_fields_of_other_kinds(page, demo_staff):
    from compliance.forms import ReportForm

    kinds = ReportForm.kind_fields()
    periodless = next(k for k, fields in kinds.items() if "since" not in fields)
    periodic = next(k for k, fields in kinds.items() if "since" in fields)
    own = set(kinds[periodless])
    _sign_in(page)
    page.goto("/compliance/reports/")
    page.select_option("select[name=kind]", periodless)
    shown_for_periodless = (_visible(page, "since"), all(_visible(page, f) for f in own))
    page.select_option("select[name=kind]", periodic)
    shown_for_periodic = (_visible(page, "since"), any(_visible(page, f) for f in own))
    assert (shown_for_periodless, shown_for_periodic) == ((False, True), (True, False))
