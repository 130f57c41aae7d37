"""After a correction (issue 18, "wrong or misleading"): the draw page sums the payouts per version
and in total, the v2 payout report counts its own winners, recoveries are labelled as recoveries,
and the winners list finds a ticket by part of its reference and shows each payout's state."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lottery.models import Draw, Payout, SettlementRun, Wager
from lottery.reports import draw_payout_build, state_label
from lottery.services import correction_confirm, correction_request, pay_draw, settlement_approve
from lottery.services.settlement import run_settlement
from tests.lottery.test_payouts import RESULT, people, settled_round  # noqa: F401 - fixtures

STAYS, LOSES, GAINS = [1, 2, 3, 4, 20, 21, 22], [1, 2, 3, 7, 20, 21, 22], [1, 2, 3, 9, 20, 21, 22]
RETAIL_LOSES = [1, 2, 3, 7, 30, 31, 32]  # 4 correct (10 €), then 3: a retail prize to recover


@pytest.fixture
def corrected(settled_round, people):  # noqa: F811
    draw, players = settled_round([STAYS, LOSES, GAINS], retail_lines=[RETAIL_LOSES])
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    correction_request(actor=people[0], draw=draw, numbers={**RESULT, "numbers": [1, 2, 3, 4, 5, 6, 9]},
                       reason="misread")
    run_settlement(correction_confirm(actor=people[1], draw=draw).pk)
    settlement_approve(actor=people[2], draw=Draw.objects.get(pk=draw.pk))
    pay_draw(draw)
    return Draw.objects.get(pk=draw.pk)


def test_the_draw_page_sums_payouts_per_version_and_in_total(corrected, people, client):  # noqa: F811
    client.force_login(people[3])
    page = client.get(reverse("lottery:draw", args=[corrected.pk])).content.decode()
    table = page[page.index('id="payout-versions"'):]
    table = table[:table.index("</table>")]
    total = table[table.index('data-version="total"'):]
    # v1 paid 3 × 10 €; v2 paid 10 € and took back 2 × 10 €: the winners hold 20 € in all.
    assert ('data-version="1"' in table, 'data-version="2"' in table, "20.00</td></tr>" in total) == (True, True, True)


def test_the_corrected_payout_report_counts_the_winners_of_its_version(corrected):
    run = SettlementRun.objects.get(draw=corrected, version=2)
    data = draw_payout_build({"draw": corrected.pk, "version": 2})
    assert (data.context["winners_count"], data.context["no_longer_winning"]) == (run.winners_count, 2)


def test_a_retail_recovery_is_labelled_as_a_recovery(corrected):
    data = draw_payout_build({"draw": corrected.pk, "version": 2})
    negative = [r for r in data.rows if isinstance(r["payout_cents"], int) and r["payout_cents"] < 0]
    labels = {state_label(r["payout_state"]) for r in negative}
    assert labels == {"recovery: to be recovered by the retail channel", "recovery: debited from the game account"}


def test_the_draw_page_lists_recoveries_apart_from_the_prizes_to_redeem(corrected, people, client):  # noqa: F811
    """The shown version's payouts by state: the retail recovery is its own row, not summed into "retail:
    point of sale" (which read as a small amount still to redeem at the till)."""
    client.force_login(people[3])
    rows = client.get(reverse("lottery:draw", args=[corrected.pk])).context["payouts"]
    recoveries = [r for r in rows if r["state"].startswith("recover")]
    assert recoveries and all(r["total"] < 0 and str(r["label"]).startswith("recovery") for r in recoveries)
    assert all(r["total"] >= 0 for r in rows if not r["state"].startswith("recover"))


def test_the_winners_list_finds_a_ticket_by_part_of_its_reference_and_shows_its_payout(corrected, people, client):  # noqa: F811
    payout = Payout.objects.get(draw=corrected, run__version=1, player_id__isnull=True)
    reference = Wager.objects.get(pk=payout.wager_id).reference
    client.force_login(people[3])
    page = client.get(reverse("lottery:draw-winners", args=[corrected.pk]),
                      {"run": 1, "ticket": reference[2:7]}).content.decode()
    assert (reference in page, 'data-payout-state="retail"' in page) == (True, True)


def test_eurojackpot_central_figures_are_entered_as_fields(make_staff, client):
    from compliance import roles
    from tests.factories import DrawFactory

    draw = DrawFactory(game_code="eurojackpot", state="open")
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    client.post(reverse("lottery:draw-central", args=[draw.pk]),
                {"central-prize_pool": "25000000.00", "central-central_1_prize": "", "central-central_2_prize": "",
                 "central-central_3_prize": "12345.60", "central-central_3_winners": "7"})
    draw.refresh_from_db()
    assert draw.central_inputs == {"prize_pool": "25000000.00", "central": {"3": {"prize": "12345.60", "winners": 7}}}


def test_the_central_figures_form_offers_a_field_per_figure_not_json(make_staff, client):
    from compliance import roles
    from tests.factories import DrawFactory

    draw = DrawFactory(game_code="eurojackpot", state="open")
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    page = client.get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert ('name="central-prize_pool"' in page, 'name="central-figures"' in page) == (True, False)


def test_the_v2_payout_pdf_says_the_settlement_s_number_of_winners_and_labels_recoveries(corrected, people):  # noqa: F811
    import io

    from pypdf import PdfReader

    from compliance.models import Report
    from compliance.reports import report_render, report_request

    run = SettlementRun.objects.get(draw=corrected, version=2)
    report = report_request(actor=people[3], kind="draw_payout", params={"draw": corrected.pk, "version": 2})
    report_render(report.pk)
    with Report.objects.get(pk=report.pk).pdf.open("rb") as f:
        text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(f.read())).pages).split())
    assert (f"Winners: {run.winners_count}," in text, "recovery: to be recovered by the retail channel" in text,
            "retail: point of sale" not in text) == (True, True, True)
