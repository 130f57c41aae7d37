"""A compliance officer's day in Finnish (issue 18 item 9): finds a player through the Players page and
reads the status card (the national exclusion register entry in force); decides the ban-lifting request
the queue shows, reading the person, the ban and the reasons before approving it through the
confirmation page; filters the audit trail by part of a word ("tulos"); generates and downloads a report.
Every page: no English, no serious or critical axe-core violation."""

from __future__ import annotations

import datetime as dt
import io

from django.utils import timezone

from tests.e2e.daily import Day


def test_a_compliance_officers_day_in_finnish(browser, live_server, demo_data, eager_jobs, settings, tmp_path):
    from django.contrib.auth import get_user_model

    from compliance.models import ExclusionEntry
    from compliance.registry_services import ban_lift_request
    from lottery import services
    from lottery.models import Draw

    settings.MEDIA_ROOT = tmp_path
    users = {u.username: u for u in get_user_model().objects.all()}
    ban = ExclusionEntry.objects.get(registry__kind="operator", name__icontains="Kielletty")
    lifting = ban_lift_request(actor=users["compliance2"], entry=ban, reason="Henkilö pyysi anteeksi; sovittu tapaamisessa")
    # a result entered today, for the audit trail's filter
    services.result_enter(actor=users["operator"], draw=Draw.objects.get(game__code="lotto", number=1002),
                          numbers={"numbers": [3, 9, 14, 21, 27, 33, 38], "additional": 11, "plus": 7},
                          draw_method="device", witnesses="Notaari A. Laine")

    day = Day(browser, live_server, "compliance")
    page = day.page
    day.sign_in_in_finnish()

    # a player from the search: the status card says what is in force
    day.menu("players:search")
    day.check()
    page.fill("#id_name", "makela")  # without the accent, as typed in a hurry
    with page.expect_navigation():
        page.click("main form[method=get] button[type=submit]")
    day.check()
    with page.expect_navigation():
        page.locator("main table a", has_text="Mäkelä").first.click()
    day.check()
    status = page.inner_text("#status")
    assert int(page.get_attribute("#status [data-entries]", "data-entries")) >= 1, status
    assert "Ei omaa pelikieltoa." in status, status  # the self-exclusion row, in words
    assert page.inner_text("[data-barred]") == "pelikiellossa"  # barred from play, at the top

    # the ban-lifting request from the queue: the person, the ban and the reasons are on the page
    day.dashboard()
    item = day.queue_item("compliance.approvals", "kiellon ennenaikainen poisto odottaa hyväksyntää")
    assert item.count() == 1 and "compliance2" in item.inner_text()
    with page.expect_navigation():
        item.locator("a").click()
    day.check()
    row = page.locator(f"tr#approval-{lifting.pk}")
    text = row.inner_text()
    assert "Pekka" in text and "Kielletty" in text and "1977" in text  # who: name and birth date
    assert "Abusive behaviour towards staff" in text  # the original reason of the ban
    assert "Henkilö pyysi anteeksi" in text  # why the lifting is asked
    row.locator("input[name=note]").fill("Perustelu luettu ja hyväksytty")
    with page.expect_navigation():
        row.locator("button[data-decision=approve]").click()
    assert "Tätä ei voi perua" in page.inner_text("[data-consequence]")
    day.check()
    with page.expect_navigation():
        page.click("button[data-confirm=yes]")
    assert "Päätös kirjattu." in page.inner_text(".messages")
    day.check()
    ban.refresh_from_db()
    assert ban.lifted_at is not None and ban.ends_at <= timezone.now()

    # the audit trail filtered by part of a word: "tulos" finds the result entered
    day.menu("compliance:audit-list")
    day.check()
    page.fill("#id_action", "tulos")
    with page.expect_navigation():
        page.click("main form.filters button[type=submit]")
    day.check()
    events = page.inner_text("main table")
    assert "Lotto #1002" in events and "operator" in events
    assert page.input_value("#id_action") == "tulos"

    # a report generated and downloaded
    day.menu("compliance:reports")
    day.check()
    page.select_option("#id_kind", "exclusion_hits")
    today = timezone.localdate()
    page.fill("#id_since", (today - dt.timedelta(days=30)).isoformat())
    page.fill("#id_until", today.isoformat())
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    day.check()
    done = page.locator("tr[data-kind='exclusion_hits'][data-status='done']").first
    with page.expect_download() as info:
        done.locator("a[data-download=pdf]").click()
    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(open(info.value.path(), "rb").read()))
    assert "Pelikieltojen osumat" in pdf.pages[0].extract_text()  # the report in the language chosen
    day.close()
