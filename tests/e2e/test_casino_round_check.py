"""The casino round check as an operator uses it in the browser: choose the game, fill the bets and the
outcome fields (the page's script shows the chosen game's fields), see each bet's payout and rule,
enter what was paid and see the difference; a refused input keeps what was typed; once in Finnish."""

from __future__ import annotations

import re

import pytest

PASSWORD = "browser-test-pass"
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.violatedDirective));
"""
ROULETTE = "000/roulette/single_zero_la_partage"
BLACKJACK = "000/blackjack/cas_base_3to2"


@pytest.fixture
def rule_versions(demo_staff):
    import datetime as dt

    from django.utils import timezone

    from casino import services
    from casino.rules import registry

    for game in (ROULETTE, BLACKJACK):
        rulebook, name, variant = game.split("/")
        services.rule_version_publish(actor="system:test", rulebook=rulebook, game=name, variant=variant,
                                      effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)),
                                      rules=dict(registry.get(rulebook, name).variants[variant]))


def _sign_in(browser, live_server, language=None):
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto("/accounts/login/")
    page.fill("#id_username", "operator")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Dashboard')")
    if language:
        page.select_option("select[name=language]", language)
        page.wait_for_selector("h1:has-text('Kojelauta')")
    page.goto("/casino/rounds/check/")
    return context, page


def _digits(text: str) -> str:
    """An amount as shown (1 800,00 / 1,800.00 / −50,00) reduced to its sign and cents."""
    return ("-" if re.search(r"[-−]", text) else "") + re.sub(r"\D", "", text)


def _fieldset(page, game):
    return page.locator(f"fieldset.outcome[data-game='{game}']")


def _bet(page, row, type_, stake, box="", params="", paid=""):
    for name, value in (("type", type_), ("stake", stake), ("box", box), ("params", params), ("paid", paid)):
        page.fill(f"#id_bets-{row}-{name}", value)


def test_an_operator_checks_a_roulette_and_a_blackjack_round(browser, live_server, rule_versions):
    context, page = _sign_in(browser, live_server)
    page.select_option("#id_game", ROULETTE)
    page.select_option("#id_venue", "000/casino")
    page.fill("#id_round_at", "2026-06-01T20:00")
    assert _fieldset(page, "000/roulette").is_visible() and not _fieldset(page, "000/blackjack").is_visible()
    _bet(page, 0, "split", "100.00", "1", '{"numbers": [17, 20]}', paid="1750.00")
    page.fill("#id_oc-000-roulette-number", "20")
    page.click("button:has-text('Check the round')")
    page.wait_for_selector("#result")
    row = page.locator("#result tr[data-bet='0']")
    assert "000-casino C-1: split 17:1" in row.inner_text()
    assert _digits(row.locator("td.payout").inner_text()) == "180000"
    assert _digits(page.inner_text("#difference")) == "-5000"  # 1 750.00 paid where 1 800.00 was due

    # a card game: the script swaps the outcome fields when the game changes
    page.select_option("#id_game", BLACKJACK)
    assert _fieldset(page, "000/blackjack").is_visible() and not _fieldset(page, "000/roulette").is_visible()
    _bet(page, 0, "main", "100.00", "1", paid="200.00")
    page.fill("#id_oc-000-blackjack-dealer", "Kh 7c")
    page.fill("#id_oc-000-blackjack-boxes0_box", "1")
    page.fill("#id_oc-000-blackjack-boxes0_cards", "8s 8d 3h Zz")
    page.fill("#id_oc-000-blackjack-boxes0_actions", "split stand stand")
    page.click("button:has-text('Check the round')")
    error = page.locator("[data-error='oc-000-blackjack-boxes0_cards']")
    error.wait_for()
    assert "Zz" in error.inner_text() and page.locator("#result").count() == 0
    # what was typed is kept, the blackjack fields still shown
    assert page.input_value("#id_oc-000-blackjack-boxes0_cards") == "8s 8d 3h Zz"
    assert page.input_value("#id_oc-000-blackjack-boxes0_actions") == "split stand stand"
    assert page.input_value("#id_bets-0-paid") == "200.00" and _fieldset(page, "000/blackjack").is_visible()

    page.fill("#id_oc-000-blackjack-boxes0_cards", "8s 8d 3h Ks")
    page.click("button:has-text('Check the round')")
    page.wait_for_selector("#result")
    row = page.locator("#result tr[data-bet='0']")
    # split 8s 3h = 11 loses to the dealer's 17, 8d Ks = 18 wins: 100 back + 100 won on the 200 staked
    assert _digits(row.locator("td.payout").inner_text()) == "20000"
    assert _digits(page.inner_text("#difference")) == "000"
    assert "hand 2 (8d Ks) 18: beats the dealer's 17, wins 1:1" in row.inner_text()
    assert page.evaluate("window.__cspViolations") == []
    context.close()


def test_the_round_check_in_finnish(browser, live_server, rule_versions):
    context, page = _sign_in(browser, live_server, language="fi")
    page.wait_for_selector("h1:has-text('Kierroksen tarkistus')")
    page.select_option("#id_game", ROULETTE)
    page.select_option("#id_venue", "000/casino")
    page.fill("#id_round_at", "2026-06-01T20:00")
    assert "Voittonumero" in _fieldset(page, "000/roulette").inner_text()
    _bet(page, 0, "red", "10.00", "2")
    page.fill("#id_oc-000-roulette-number", "37")
    page.click("#round button[type=submit]:not([name])")
    error = page.locator("[data-error='oc-000-roulette-number']")
    error.wait_for()
    assert "ei ole tämän pyörän numero" in error.inner_text()
    assert page.input_value("#id_oc-000-roulette-number") == "37"
    page.fill("#id_oc-000-roulette-number", "18")
    page.click("#round button[type=submit]:not([name])")
    page.wait_for_selector("#result")
    assert "Sääntöversio" in page.inner_text("#result")
    assert _digits(page.locator("#result tr[data-bet='0'] td.payout").inner_text()) == "2000"
    assert page.evaluate("window.__cspViolations") == []
    context.close()
