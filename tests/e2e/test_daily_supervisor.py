"""A draw supervisor's day in Finnish (issue 18 item 9): the work queue says the result of Lotto #1002
awaits confirmation; the supervisor opens it from the queue, confirms it through the confirmation page
(which says what will happen: the settlement starts), and the settlement runs. A second supervisor finds
the payout approval in the queue and in the Approvals menu (with its counter), reads what is decided and
approves it, again through a confirmation page. Every page: no English, no serious or critical axe-core
violation."""

from __future__ import annotations

from tests.e2e.daily import Day


def test_a_draw_supervisors_day_in_finnish(browser, live_server, demo_data, eager_jobs):
    from django.contrib.auth import get_user_model

    from lottery import services
    from lottery.models import Draw, DrawState

    draw = Draw.objects.get(game__code="lotto", number=1002)
    operator = get_user_model().objects.get(username="operator")
    services.result_enter(actor=operator, draw=draw, numbers={"numbers": [3, 9, 14, 21, 27, 33, 38], "additional": 11,
                          "plus": 7}, draw_method="device", witnesses="Notaari A. Laine")

    day = Day(browser, live_server, "supervisor")
    page = day.page
    day.sign_in_in_finnish()
    waiting = day.queue_item("compliance.approvals", "Kohteen Lotto #1002 tulos odottaa vahvistusta")
    assert waiting.count() == 1 and "operator" in waiting.inner_text()  # who asked
    with page.expect_navigation():
        waiting.locator("a").click()
    day.check()
    assert "3 9 14 21 27 33 38" in page.inner_text("main")  # the numbers to confirm are on the page
    with page.expect_navigation():
        page.click("button[data-action=confirm]")
    # the confirmation page says what will happen before anything does
    consequence = page.inner_text("[data-consequence]")
    assert "vahvistetaan kohteen Lotto #1002 tulokseksi, voitonlaskenta alkaa" in consequence, consequence
    day.check()
    assert Draw.objects.get(pk=draw.pk).state == DrawState.RESULT_ENTERED  # asked, not done
    with page.expect_navigation():
        page.click("button[data-confirm=yes]")
    day.check()
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SETTLED
    day.dashboard()
    day.check()
    assert day.queue_item("compliance.approvals", "Lotto #1002 tulos").count() == 0
    day.close()

    # the second supervisor: the payout approval waits in the queue and in the header's counter
    day = Day(browser, live_server, "supervisor2")
    page = day.page
    day.sign_in_in_finnish()
    phrase = "Kohteen Lotto #1002 voitonlaskenta (versio 1) odottaa maksuun hyväksymistä"
    assert day.queue_item("compliance.approvals", phrase).count() == 1
    assert int(page.get_attribute("nav.main a[data-nav='compliance:approvals'] .count", "data-count")) >= 1
    day.menu("compliance:approvals")
    day.check()
    row = page.locator("tr[data-kind='lottery.payout']", has_text="Lotto #1002")
    assert row.count() == 1
    assert "Lotto #1002" in row.locator("[data-link=approval-object]").inner_text()  # the draw, linked
    row.locator("input[name=note]").fill("Voittoluokat tarkistettu")
    with page.expect_navigation():
        row.locator("button[data-decision=approve]").click()
    consequence = page.inner_text("[data-consequence]")
    assert phrase in consequence and "Tätä ei voi perua" in consequence, consequence
    day.check()
    with page.expect_navigation():
        page.click("button[data-confirm=yes]")
    assert "Päätös kirjattu." in page.inner_text(".messages")
    day.check()
    assert Draw.objects.get(pk=draw.pk).state in (DrawState.APPROVED, DrawState.PAID)
    day.close()
