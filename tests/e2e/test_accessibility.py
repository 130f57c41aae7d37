"""Accessibility (issue 18 item 8): axe-core runs on every page of the staff UI, signed in as each demo
role that sees the page, and no serious or critical violation is allowed; the main draw flow works by
keyboard alone, with a visible focus."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

PASSWORD = "browser-test-pass"
ROLES = ("operator", "supervisor", "compliance", "auditor", "admin")
BLOCKING = {"serious", "critical"}


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", "--password", PASSWORD, stdout=io.StringIO())


def _signed_in(browser, live_server, username, locale="en-GB"):
    # Content-Security-Policy allows no injected script; axe-core is injected by the test, so the test's
    # browser context alone bypasses it (the pages' own policy is tested in test_content_security_policy).
    context = browser.new_context(base_url=live_server.url, locale=locale, bypass_csp=True,
                                  viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("main h1")
    return context, page


def _pages() -> list[str]:
    """Every staff page (tests/config/test_translations walks the URL conf), one object of each kind."""
    from tests.config.test_translations import _addresses, _objects

    objects = {name: pks[:1] for name, pks in _objects().items()}
    return [url for _name, url in _addresses(objects)]


def _violations(axe, page) -> list[str]:
    result = axe.run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result.response["violations"] if v["impact"] in BLOCKING]


def test_no_staff_page_has_a_serious_accessibility_violation(browser, live_server, demo):
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import Error as PlaywrightError

    axe = Axe()
    urls = _pages()
    problems: dict[str, list[str]] = {}
    checked = 0
    for username in ROLES:
        context, page = _signed_in(browser, live_server, username)
        for url in urls:
            try:
                response = page.goto(url)
            except PlaywrightError:  # an action answering GET with an empty 405
                continue
            if response is None or response.status != 200 or "html" not in response.headers.get("content-type", ""):
                continue  # not this role's page, or an action taking POST only
            checked += 1
            found = _violations(axe, page)
            if found:
                problems[f"{username} {url}"] = found
        context.close()
    assert checked > 60, "the walk checked too few pages to mean anything"
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_error_pages_have_no_serious_accessibility_violation(browser, live_server, demo):
    from axe_playwright_python.sync_playwright import Axe

    context, page = _signed_in(browser, live_server, "operator", locale="fi-FI")
    problems = {}
    for url in ("/compliance/audit/", "/no-such-page/"):  # 403 and 404
        page.goto(url)
        problems[url] = _violations(Axe(), page)
    context.close()
    assert problems == {"/compliance/audit/": [], "/no-such-page/": []}
