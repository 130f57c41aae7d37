"""An operator's day in Finnish (issue 18 item 9), from the dashboard's work queue and the header's menus:
schedules a draw (a sales period already over is refused beside its field, what was typed kept), closes
the sales of a draw, enters the result the queue asks for (a refused one keeps the witnesses text),
withdraws their own result and enters it again, and checks a casino round. Every page: no English, no
serious or critical axe-core violation."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from tests.e2e.daily import Day

ROULETTE = "000/roulette/single_zero_la_partage"


def _local(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def test_an_operators_day_in_finnish(browser, live_server, demo_data):
    from lottery.models import Draw, DrawState, ResultStatus

    lotto = {d.number: d for d in Draw.objects.filter(game__code="lotto")}
    keno = Draw.objects.get(game__code="keno", number=2001)
    day = Day(browser, live_server, "operator")
    page = day.page
    day.sign_in_in_finnish()

    # the queue says what waits: the result of Lotto #1002
    waiting = day.queue_item("lottery.results", "Lotto #1002 odottaa tulostaan")
    assert waiting.count() == 1

    # schedule a draw from the draw board; a sales period already over is refused beside its field
    day.menu("lottery:draws")
    day.check()
    with page.expect_navigation():
        page.click("main a[href$='/lottery/draws/new/']")
    day.check()
    now = timezone.now()
    page.select_option("#id_game", "lotto")
    page.fill("#id_number", "1010")
    page.fill("#id_sales_open_at", _local(now - dt.timedelta(days=3)))
    page.fill("#id_sales_close_at", _local(now - dt.timedelta(days=1)))
    page.fill("#id_draw_at", _local(now - dt.timedelta(days=1) + dt.timedelta(hours=1)))
    page.fill("#id_jackpot", "1500000")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    error = page.locator("tr:has(#id_sales_close_at) .errorlist")
    assert "myynti" in error.inner_text().lower(), error.inner_text()  # beside the field, in Finnish
    assert page.input_value("#id_number") == "1010" and page.input_value("#id_jackpot") == "1500000"
    day.check()
    page.fill("#id_sales_open_at", _local(now + dt.timedelta(days=1)))
    page.fill("#id_sales_close_at", _local(now + dt.timedelta(days=7)))
    page.fill("#id_draw_at", _local(now + dt.timedelta(days=7, hours=1)))
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert "Lotto #1010 on ajastettu." in page.inner_text(".messages")
    day.check()
    assert Draw.objects.get(game__code="lotto", number=1010).state == DrawState.PLANNED

    # the clock (close_due_draws) has not closed Keno #2001 although its sales period ended: the queue says
    # so on the dashboard, and the operator closes them from there
    Draw.objects.filter(pk=keno.pk).update(sales_close_at=now - dt.timedelta(minutes=10))
    day.dashboard()
    late = day.queue_item("lottery.sales", "Kohteen Keno #2001 myynti on yhä auki sulkemisajan jälkeen")
    with page.expect_navigation():
        late.locator("a").click()
    day.check()
    with page.expect_navigation():
        page.click("button[data-action=close]")
    if page.locator("[data-confirm=yes]").count():  # asked first when closing is a step that cannot be undone
        day.check()
        with page.expect_navigation():
            page.click("button[data-confirm=yes]")
    assert "Kierroksen Keno #2001 myynti on suljettu." in page.inner_text(".messages")
    day.check()

    # the result the queue asked for: from the dashboard's link
    day.dashboard()
    with page.expect_navigation():
        day.queue_item("lottery.results", "Lotto #1002 odottaa tulostaan").locator("a").click()
    day.check()
    page.fill("#id_enter-numbers", "1 2 3")
    page.fill("#id_enter-additional", "8")
    page.fill("#id_enter-plus", "3")
    page.select_option("#id_enter-draw_method", "device")
    page.fill("#id_enter-witnesses", "Notaari A. Laine, valvoja B. Berg")
    with page.expect_navigation():
        page.click("button[data-action=enter]")
    day.check()
    assert page.input_value("#id_enter-witnesses") == "Notaari A. Laine, valvoja B. Berg"  # kept
    assert page.input_value("#id_enter-numbers") == "1 2 3"
    # the refusal is said beside the numbers, in Finnish
    assert page.locator("[data-field-error=numbers], [data-form-errors]").first.inner_text().strip()
    page.fill("#id_enter-numbers", "1 2 3 4 5 6 7")
    with page.expect_navigation():
        page.click("button[data-action=enter]")
    assert "Kierroksen Lotto #1002 tulos on syötetty" in page.inner_text(".messages")
    day.check()

    # a typing mistake seen: the operator withdraws their own result, with a reason, and enters it anew
    page.fill("#id_withdraw-reason", "Lisänumero kirjattu väärin")
    with page.expect_navigation():
        page.click("button[data-action=withdraw]")
    if page.locator("[data-confirm=yes]").count():
        day.check()
        with page.expect_navigation():
            page.click("button[data-confirm=yes]")
    day.check()
    assert Draw.objects.get(pk=lotto[1002].pk).state == DrawState.CLOSED
    page.fill("#id_enter-numbers", "1 2 3 4 5 6 7")
    page.fill("#id_enter-additional", "9")
    page.fill("#id_enter-plus", "3")
    page.select_option("#id_enter-draw_method", "device")
    page.fill("#id_enter-witnesses", "Notaari A. Laine")
    with page.expect_navigation():
        page.click("button[data-action=enter]")
    assert "Kierroksen Lotto #1002 tulos on syötetty" in page.inner_text(".messages")
    day.check()
    draw = Draw.objects.get(pk=lotto[1002].pk)
    assert draw.state == DrawState.RESULT_ENTERED
    assert draw.results.filter(status=ResultStatus.ENTERED).get().numbers["additional"] == 9

    # the queue no longer asks for it; the request waits for another person
    day.dashboard()
    day.check()
    assert day.queue_item("lottery.results", "Lotto #1002").count() == 0

    # a casino round checked on the round-check page
    day.menu("casino:round-check")
    page.wait_for_selector("h1:has-text('Kierroksen tarkistus')")
    day.check()
    page.select_option("#id_game", ROULETTE)
    page.select_option("#id_venue", "000/casino")
    page.fill("#id_round_at", _local(now - dt.timedelta(hours=1)))
    page.fill("#id_bets-0-type", "red")
    page.fill("#id_bets-0-stake", "10.00")
    page.fill("#id_bets-0-box", "2")
    page.fill("#id_bets-0-paid", "20.00")
    page.fill("#id_oc-000-roulette-number", "18")
    with page.expect_navigation():
        page.click("#round button[type=submit]:not([name])")
    page.wait_for_selector("#result")
    assert "Sääntöversio" in page.inner_text("#result")
    day.check()
    day.close()
