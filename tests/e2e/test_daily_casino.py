"""The casino inspector's and the casino manager's day in Finnish (issue 18 item 9): the inspector records a
roulette round from the Casino menu, sees its verification and the discrepancy it found (paid more than
was due), and cannot resolve it (no link; the address refuses); the manager finds the open discrepancies
in the work queue, resolves this one with a note, and the round shows the resolution. Every page: no
English, no serious or critical axe-core violation."""

from __future__ import annotations

import datetime as dt
import json

from django.urls import reverse
from django.utils import timezone

from tests.e2e.daily import Day

# A discrepancy's detail is shown in the reader's words (casino.messages.detail_words): nothing let pass.
VERIFICATION_DETAIL: set[str] = set()


def _played_at() -> dt.datetime:
    """13:00 today or yesterday in the operator's zone: Casino Helsinki is open 12-04."""
    now = timezone.localtime()
    at = now.replace(hour=13, minute=0, second=0, microsecond=0)
    return at if at < now else at - dt.timedelta(days=1)


def test_an_inspector_records_a_round_and_the_manager_resolves_its_discrepancy(browser, live_server, demo_data,
                                                                              eager_jobs):
    from casino.models import Discrepancy, RecordedRound, Table

    table = Table.objects.filter(venue__code="casino-helsinki", game="roulette").order_by("pk").first()
    assert table is not None

    day = Day(browser, live_server, "inspector")
    page = day.page
    day.sign_in_in_finnish()
    day.menu("casino:rounds")
    day.check()
    with page.expect_navigation():
        page.click(f"main a[href$='{reverse('casino:round-new')}']")
    day.check()
    page.select_option("#id_table", str(table.pk))
    page.fill("#id_ref", "HKI-ILTA-0042")
    page.fill("#id_played_at", _played_at().strftime("%Y-%m-%d %H:%M"))
    page.fill("#id_bets", json.dumps([{"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}]))
    page.fill("#id_outcome", '{"number": 17}')
    page.fill("#id_paid", "400.00")  # 35:1 on 10 € is 350 € won, 360 € with the stake: 40 € overpaid
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    day.check(VERIFICATION_DETAIL)
    recorded = RecordedRound.objects.get(ref="HKI-ILTA-0042")
    assert page.url.endswith(reverse("casino:round", args=[recorded.pk]))
    main = page.inner_text("main")
    assert "ei vielä tarkistettu" not in main.lower()  # verified by the job (run at once here)
    discrepancies = page.locator("#discrepancies tbody tr")
    assert discrepancies.count() == 1
    assert "40,00" in discrepancies.first.inner_text()  # paid minus due, in Finnish figures
    found = Discrepancy.objects.get(round=recorded)
    assert found.amount_cents == 4000 and found.resolved_at is None
    # the inspector who recorded the round resolves nothing: no link, and the address refuses
    assert discrepancies.first.locator("a[href*='/resolve/']").count() == 0
    day.menu("casino:discrepancies")
    day.check(VERIFICATION_DETAIL)
    assert page.locator(f"a[href='{reverse('casino:discrepancy-resolve', args=[found.pk])}']").count() == 0
    response = page.goto(reverse("casino:discrepancy-resolve", args=[found.pk]))
    assert response.status == 403
    day.check()
    day.close()

    # the manager: the queue says what is open, the discrepancies page resolves it with a note
    day = Day(browser, live_server, "casino")
    page = day.page
    day.sign_in_in_finnish()
    waiting = day.queue_item("casino.discrepancies", "Casino Helsinki")
    assert waiting.count() >= 1 and "avoin" in waiting.first.inner_text()
    with page.expect_navigation():
        waiting.first.locator("a").click()
    day.check(VERIFICATION_DETAIL)
    with page.expect_navigation():
        page.click(f"a[href='{reverse('casino:discrepancy-resolve', args=[found.pk])}']")
    day.check(VERIFICATION_DETAIL)
    assert page.get_attribute("#id_note", "required") is not None  # no resolution without a note
    page.fill("#id_note", "Ylimaksu 40 € peritty takaisin pelaajalta; jakaja ohjeistettu")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    day.check(VERIFICATION_DETAIL)
    found.refresh_from_db()
    assert found.resolved_at is not None and found.resolved_by.username == "casino"
    assert page.locator(f"a[href='{reverse('casino:discrepancy-resolve', args=[found.pk])}']").count() == 0
    with page.expect_navigation():
        page.click("main a[href='?all=1']")  # the resolved ones too
    day.check(VERIFICATION_DETAIL)
    with page.expect_navigation():
        page.click(f"main a[href='{reverse('casino:round', args=[recorded.pk])}']")
    assert "Ylimaksu 40 € peritty takaisin" in page.inner_text("#discrepancies")
    day.check(VERIFICATION_DETAIL)
    day.close()
