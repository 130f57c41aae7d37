"""The jackpot pages (issue 19 item 3): the list per venue with balances, a jackpot's page with its
ledger and versions, the casino manager's forms (errors beside the fields, what was typed kept, in the
reader's language), removal confirmed first, the large wins on the dashboard."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from casino import jackpots
from casino.models import Jackpot
from compliance import roles
from tests.casino.conftest import JACKPOT_DAY
from tests.casino.jackpot_rounds import STRAIGHT_FLUSH, played, record, uth_round


def _form(table, **overrides):
    data = {"venue": table.venue_id, "code": "new-pot", "name": "Uusi potti", "kind": "progressive",
            "bet_type": "progressive", "participation_fee": "1.00", "contribution_rate": "20", "seed": "5000.00",
            "reset": "5000.00", "maximum": "", "overflow": "held", "max_win": "100000.00", "tables": [table.pk],
            "instructions": "1 € panos, 20 % pottiin."}
    return {**data, **overrides}


def test_the_jackpots_page_lists_each_venues_jackpot_with_its_posted_balance(staff_client, progressive):
    response = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("casino:jackpots"))
    row = response.context["groups"][0]["rows"][0]
    assert (row["jackpot"].pk, row["jackpot"].balance_cents, row["version"].name) == (
        progressive.pk, 1_000_000, "UTH Progressive")


def test_the_jackpots_page_shows_what_verified_rounds_accrued_and_is_not_posted(staff_client, progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    response = staff_client(roles.CASINO_INSPECTOR).get(reverse("casino:jackpots"))
    assert response.context["groups"][0]["rows"][0]["pending"].contributions_cents == 25


def test_the_jackpots_page_reads_in_finnish(staff_client, progressive):
    html = staff_client(roles.CASINO_MANAGER).get(reverse("casino:jackpots"), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Jättipotit" in html and "Luo jättipotti" in html


def test_a_manager_creates_a_jackpot_from_the_page(staff_client, uth_table):
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:jackpots"), _form(uth_table))
    j = Jackpot.objects.get(code="new-pot")
    assert (response.status_code, response.url, j.balance_cents, str(j.versions.get().contribution_rate)) == (
        302, reverse("casino:jackpot", args=[j.pk]), 500_000, "0.200000")


def test_a_refused_jackpot_shows_the_error_beside_its_field_and_keeps_what_was_typed(staff_client, uth_table):
    response = staff_client(roles.CASINO_MANAGER).post(
        reverse("casino:jackpots"), _form(uth_table, max_win="6000000.00"), HTTP_ACCEPT_LANGUAGE="fi")
    form = response.context["form"]
    html = response.content.decode()
    assert (response.status_code, list(form.errors)) == (200, ["max_win", "__all__"])
    assert "Enintään pelipaikan voittokatto" in html and 'value="Uusi potti"' in html
    assert 'data-field-error="max_win"' in html and not Jackpot.objects.exists()


def test_a_form_error_is_shown_beside_the_field_in_swedish(staff_client, uth_table):
    response = staff_client(roles.CASINO_MANAGER).post(
        reverse("casino:jackpots"), _form(uth_table, tables=[]), HTTP_ACCEPT_LANGUAGE="sv")
    assert 'data-field-error="tables"' in response.content.decode() and "tables" in response.context["form"].errors


def test_an_inspector_reads_the_jackpots_but_may_not_create_one(staff_client, uth_table):
    client = staff_client(roles.CASINO_INSPECTOR)
    assert (client.get(reverse("casino:jackpots")).status_code,
            client.post(reverse("casino:jackpots"), _form(uth_table)).status_code) == (200, 403)


def test_the_jackpot_page_shows_its_ledger_and_that_it_balances(staff_client, progressive):
    response = staff_client(roles.AUDITOR).get(reverse("casino:jackpot", args=[progressive.pk]))
    assert ([e.kind for e in response.context["entries"]], response.context["problems"]) == (["seed"], [])
    assert 'data-ledger="balanced"' in response.content.decode()


def test_the_jackpot_page_offers_no_forms_to_an_auditor(staff_client, progressive):
    html = staff_client(roles.AUDITOR).get(reverse("casino:jackpot", args=[progressive.pk])).content.decode()
    assert 'id="new-terms"' not in html and 'id="remove"' not in html


def test_new_terms_from_the_jackpot_page_are_a_new_version(staff_client, progressive, uth_table):
    data = _form(uth_table, name="UTH Progressive", contribution_rate="30")
    del data["venue"], data["code"]
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:jackpot", args=[progressive.pk]), data)
    assert (response.status_code, progressive.versions.count()) == (302, 2)


def test_new_terms_in_the_past_are_refused_beside_the_date(staff_client, progressive, uth_table):
    data = _form(uth_table, effective_from=(timezone.localtime() - dt.timedelta(days=3)).strftime("%Y-%m-%d %H:%M"))
    del data["venue"], data["code"]
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:jackpot", args=[progressive.pk]), data)
    assert "effective_from" in response.context["form"].errors and progressive.versions.count() == 1


def _remove(client, j, **extra):
    return client.post(reverse("casino:jackpot-remove", args=[j.pk]),
                       {"destination": "unpaid_funds", "note": "pöytä poistuu", **extra})


def test_removal_first_says_where_the_balance_goes_and_changes_nothing(staff_client, progressive):
    html = _remove(staff_client(roles.CASINO_MANAGER), progressive).content.decode().replace("\xa0", " ")
    assert "10,000.00 €" in html and 'name="confirmed" value="yes"' in html
    assert Jackpot.objects.get(pk=progressive.pk).state == Jackpot.State.ACTIVE


def test_a_confirmed_removal_removes_and_moves_the_balance(staff_client, progressive):
    response = _remove(staff_client(roles.CASINO_MANAGER), progressive, confirmed="yes")
    j = Jackpot.objects.get(pk=progressive.pk)
    assert (response.status_code, j.state, j.balance_cents) == (302, Jackpot.State.REMOVED, 0)


def test_a_removal_without_its_reason_is_refused_beside_the_field(staff_client, progressive):
    response = _remove(staff_client(roles.CASINO_MANAGER), progressive, note="")
    assert "note" in response.context["remove_form"].errors


def test_an_inspector_may_not_remove_a_jackpot(staff_client, progressive):
    assert _remove(staff_client(roles.CASINO_INSPECTOR), progressive, confirmed="yes").status_code == 403


@pytest.fixture
def held_win(progressive, uth_table, settings, make_staff):
    settings.CASINO_JACKPOT_LARGE_WIN_CENTS = {"casino": 100_000}
    record([uth_round(uth_table, "sf", played(JACKPOT_DAY, 1), STRAIGHT_FLUSH)], actor=make_staff(roles.CASINO_INSPECTOR))
    return progressive


def test_the_jackpot_page_lists_a_large_win_held_for_a_second_person(staff_client, held_win):
    response = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("casino:jackpot", args=[held_win.pk]))
    held = response.context["held"]
    assert (len(held), held[0]["accrual"].win_cents, held[0]["approval"] is not None) == (1, 100_000, True)


def test_the_compliance_officers_dashboard_says_the_large_win_awaits_approval(staff_client, held_win):
    html = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("dashboard")).content.decode().replace("\xa0", " ")
    assert "A large jackpot win of 1,000.00 € from Casino Helsinki: UTH Progressive awaits approval" in html


def test_the_approvals_page_describes_the_large_win_in_words(staff_client, held_win):
    html = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("compliance:approvals"),
                                                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Hyväksyttävä jättipotin suurvoitto" in html and "Suurvoiton raja" in html


def test_a_posted_day_shows_on_the_jackpot_page(staff_client, progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    while progressive.posted_through != JACKPOT_DAY:
        jackpots.jackpot_post_day(jackpot=progressive, day=jackpots.next_day(progressive))
        progressive.refresh_from_db()
    response = staff_client(roles.CASINO_MANAGER).get(reverse("casino:jackpot", args=[progressive.pk]))
    day = next(d for d in response.context["days"] if d.day == JACKPOT_DAY)
    assert (day.contributions_cents, day.closing_cents) == (25, 1_000_025)
