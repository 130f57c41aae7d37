"""The pages run under the Content-Security-Policy without a single violation: their scripts are
static files, and the selects that submit their form on change still do."""

from __future__ import annotations

PASSWORD = "browser-test-pass"
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI));
"""


def _sign_in(page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Dashboard')")


def _watched(page):
    console = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH_VIOLATIONS)
    return console


def test_draw_reports_and_audit_pages_cause_no_csp_violation(page, demo_staff):
    from tests.factories import DrawFactory

    draw = DrawFactory(state="closed", jackpot_cents=100_000_000)
    console = _watched(page)
    _sign_in(page, "admin")
    seen = []
    for url, heading in ((f"/lottery/draws/{draw.pk}/", "h1"), ("/compliance/reports/", "h1"),
                         ("/compliance/audit/", "h1"), ("/api/docs/", "#swagger-ui .info")):
        response = page.goto(url)
        assert response.status == 200 and "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector(heading)
        seen += page.evaluate("window.__cspViolations")
    assert (seen, console) == ([], [])


def test_reports_page_script_still_shows_only_the_fields_of_the_kind(page, demo_staff):
    console = _watched(page)
    _sign_in(page, "compliance")
    page.goto("/compliance/reports/")
    page.select_option("select[name=kind]", "draw_payout")
    assert page.is_visible("label[data-field=draw]") and not page.is_visible("label[data-field=since]")
    assert console == []


def test_auto_submit_selects_still_submit_their_form(page, demo_staff):
    console = _watched(page)
    _sign_in(page, "operator")
    page.goto("/lottery/draws/")
    game = page.eval_on_selector_all("select[name=game] option", "els => els.map(e => e.value).filter(Boolean)")[0]
    with page.expect_navigation():
        page.select_option("select[name=game]", game)
    assert f"game={game}" in page.url
    page.select_option("select[name=language]", "sv")
    page.wait_for_selector("h1:has-text('Dragningar'), h1:has-text('Dragning')")
    assert page.evaluate("window.__cspViolations") == [] and console == []
