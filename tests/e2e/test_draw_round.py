"""A lottery round through the browser: result entered by one user, confirmed by another (the
settlement runs), the winners listed, the payout approved by a third."""

from __future__ import annotations

import pytest

PASSWORD = "browser-test-pass"


@pytest.fixture
def eager_tasks(monkeypatch):
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setitem(app.conf, "task_eager_propagates", True)


def _signed_in(browser, live_server, username):
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Dashboard')")
    return context, page


def test_a_round_runs_through_the_browser(browser, live_server, demo_staff, eager_tasks):
    from lottery.models import Draw, DrawState
    from tests.factories import DrawFactory
    from tests.lottery.support import add_line, add_random_lines

    draw = DrawFactory(state="closed", jackpot_cents=100_000_000)
    add_line(draw, [1, 2, 3, 4, 20, 21, 22], reference="WINNER-1")
    add_random_lines(draw, 300)

    context, page = _signed_in(browser, live_server, "operator")
    page.goto(f"/lottery/draws/{draw.pk}/")
    page.fill("#id_enter-numbers", "1 2 3 4 5 6 7")
    page.fill("#id_enter-additional", "8")
    page.fill("#id_enter-plus", "3")
    page.select_option("#id_enter-draw_method", "device")
    page.fill("#id_enter-witnesses", "Notary")
    page.click("button[data-action=enter]")
    page.wait_for_selector("text=a second user must confirm it")
    context.close()

    context, page = _signed_in(browser, live_server, "supervisor")
    page.goto(f"/lottery/draws/{draw.pk}/")
    page.click("button[data-action=confirm]")
    assert "starts its settlement" in page.inner_text("[data-consequence]")  # it asks first, saying what happens
    page.click("button[data-confirm=yes]")
    page.wait_for_selector("text=settlement has started")
    page.goto(f"/lottery/draws/{draw.pk}/winners/")
    assert "WINNER-1" in page.inner_text("#winners")
    context.close()

    context, page = _signed_in(browser, live_server, "supervisor2")
    page.goto(f"/lottery/draws/{draw.pk}/")
    page.click("button[data-action=approve]")
    page.click("button[data-confirm=yes]")
    page.wait_for_selector("text=its prizes are being paid")
    context.close()
    assert Draw.objects.get(pk=draw.pk).state == DrawState.PAID
