"""Browser tests: Playwright for Python driving Debian's chromium, headless.

Where no chromium is installed they are skipped with the reason; `.ci/run` installs it and sets
VALVOJA_REQUIRE_BROWSER=1, which turns a missing browser into a failure.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("VALVOJA_REQUIRE_BROWSER"):
            pytest.fail(f"VALVOJA_REQUIRE_BROWSER is set but chromium is not at {CHROMIUM}")
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread while the browser is open; the ORM
    # calls of the tests are still plain synchronous calls, so Django's async-safety guard is lifted
    # while the browser lives, and restored after.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
            yield browser
            browser.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def demo_staff(transactional_db):
    from compliance.demo import seed_staff

    return seed_staff("browser-test-pass")


@pytest.fixture
def demo_data(transactional_db):
    """The demo data of every app (seed_demo), the demo staff's password the tests' own."""
    import io

    from django.core.management import call_command

    call_command("seed_demo", "--password", "browser-test-pass", stdout=io.StringIO())


@pytest.fixture
def eager_jobs(monkeypatch):
    """Jobs (the settlement, the payouts, the reports) run in the request that enqueues them."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setitem(app.conf, "task_eager_propagates", True)
