"""Keyboard use (issue 18 item 8): an operator signs in, opens the draw from the header's menu and
enters its result with Tab, typing and Enter only, and every element reached shows where the focus is."""

from __future__ import annotations

import pytest

PASSWORD = "browser-test-pass"
MAX_TABS = 80


def _tab_to(page, selector: str) -> None:
    """Press Tab until the element matching `selector` has the focus; it must show a visible focus ring."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            outline = page.evaluate(
                "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; }")
            assert outline[0] != "none" and outline[1] != "0px", f"{selector} has the focus but shows none"
            return
    pytest.fail(f"{MAX_TABS} presses of Tab never reached {selector}")


def test_an_operator_enters_a_result_by_keyboard_alone(browser, live_server, demo_staff):
    from lottery.models import DrawResult
    from tests.factories import DrawFactory

    draw = DrawFactory(state="closed", jackpot_cents=100_000_000)
    context = browser.new_context(base_url=live_server.url, locale="fi-FI", viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto("/accounts/login/")

    _tab_to(page, "#id_username")
    page.keyboard.type("operator")
    _tab_to(page, "#id_password")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("main h1")

    _tab_to(page, "details[data-menu=lottery] > summary")
    page.keyboard.press("Enter")  # opens the menu, no JavaScript involved
    _tab_to(page, "a[data-nav='lottery:draws']")
    page.keyboard.press("Enter")
    page.wait_for_url("**/lottery/draws/")

    _tab_to(page, f"a.draw[href='/lottery/draws/{draw.pk}/']")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/lottery/draws/{draw.pk}/")

    for selector, text in (("#id_enter-numbers", "1 2 3 4 5 6 7"), ("#id_enter-additional", "8"),
                           ("#id_enter-plus", "3")):
        _tab_to(page, selector)
        page.keyboard.type(text)
    _tab_to(page, "#id_enter-draw_method")
    page.keyboard.press("ArrowDown")  # the first method after the empty choice
    _tab_to(page, "#id_enter-witnesses")
    page.keyboard.type("Notaari")
    _tab_to(page, "button[data-action=enter]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    shown = page.inner_text("main")
    context.close()
    result = DrawResult.objects.filter(draw=draw).first()
    assert result is not None, shown
    assert (result.numbers["numbers"], result.entered_by.username) == ([1, 2, 3, 4, 5, 6, 7], "operator")


@pytest.mark.parametrize("width", [1024, 1280])
@pytest.mark.parametrize("locale", ["fi-FI", "sv-SE", "en-GB"])
def test_the_header_menus_stay_on_one_line_for_the_administrator(browser, live_server, demo_staff, width, locale):
    """The Administrator sees the most pages; at common widths the header's menus do not wrap, and nothing
    lies over anything: where the language menu and the user's links do not fit beside the menus (long
    Finnish labels), they move to a line of their own instead of covering the menus."""
    context = browser.new_context(base_url=live_server.url, locale=locale, viewport={"width": width, "height": 768})
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("main h1")
    menus = page.eval_on_selector_all("nav.main > ul > li", "els => els.map(e => e.getBoundingClientRect().toJSON())")
    who = page.eval_on_selector(".who", "e => e.getBoundingClientRect().toJSON()")
    overflow = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    context.close()
    tops = [box["top"] for box in menus]
    covered = [box for box in menus if box["right"] > who["left"] and box["bottom"] > who["top"] and box["top"] < who["bottom"]]
    assert (max(tops) - min(tops) < 12, covered, overflow) == (True, [], False), (menus, who)


def test_escape_closes_a_header_menu_and_returns_the_focus(browser, live_server, demo_staff):
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", "compliance")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("main h1")
    page.click("details[data-menu=compliance] > summary")
    page.focus("a[data-nav='compliance:audit-list']")
    page.keyboard.press("Escape")
    state = page.evaluate("() => [document.querySelector('details[data-menu=compliance]').open,"
                          " document.activeElement.matches('details[data-menu=compliance] > summary')]")
    context.close()
    assert state == [False, True]
