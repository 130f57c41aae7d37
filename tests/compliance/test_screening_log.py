"""The screening log page: every decision, searchable; an excluded person's blocked attempt is significant."""

from __future__ import annotations

import datetime as dt

import pytest

from compliance.models import AuditEvent
from compliance.roles import COMPLIANCE_OFFICER
from compliance.screening import screen
from compliance.services import exclusion_entry_add
from tests.factories import ExclusionRegistryFactory, PersonFactory, PlayerFactory, finnish_id_for

BIRTH = dt.date(1979, 9, 9)
HETU = finnish_id_for(BIRTH, 21)


@pytest.fixture
def decisions(db):
    """An allowed withdrawal of one player and a registry refusal of another."""
    ok = PlayerFactory(person=PersonFactory(first_name="Allowed", last_name="Alpha")).person
    barred = PlayerFactory(person=PersonFactory(first_name="Barred", last_name="Beta", birth_date=BIRTH,
                                                national_id=HETU)).person
    exclusion_entry_add(actor="system:test", registry=ExclusionRegistryFactory(), national_id=HETU)
    return screen(ok, "withdrawal", 100).record, screen(barred, "login").record


def _ids(client, query: str) -> list[int]:
    ctx = client.get("/compliance/screening/" + query).context
    return [d.pk for d in ctx["page"].object_list]


def test_denied_filter_shows_only_refusals(staff_client, decisions):
    assert _ids(staff_client(COMPLIANCE_OFFICER), "?outcome=denied") == [decisions[1].pk]


def test_reason_code_filter_finds_registry_refusals(staff_client, decisions):
    assert _ids(staff_client(COMPLIANCE_OFFICER), "?code=registry_excluded") == [decisions[1].pk]


def test_action_filter(staff_client, decisions):
    assert _ids(staff_client(COMPLIANCE_OFFICER), "?action=withdrawal") == [decisions[0].pk]


def test_name_filter_ignores_case_and_order(staff_client, decisions):
    assert _ids(staff_client(COMPLIANCE_OFFICER), "?name=beta+BARRED") == [decisions[1].pk]


def test_person_filter(staff_client, decisions):
    assert _ids(staff_client(COMPLIANCE_OFFICER), f"?person={decisions[0].person_id}") == [decisions[0].pk]


def test_time_filter_excludes_later_decisions(staff_client, decisions):
    assert _ids(staff_client(COMPLIANCE_OFFICER), "?until=2000-01-01T00:00") == []


def test_blocked_attempt_of_an_excluded_person_is_a_significant_event(decisions):
    event = AuditEvent.objects.get(action="screening.excluded_attempt")
    assert (event.significant, event.data["decision"]) == (True, decisions[1].pk)


def test_compliance_dashboard_counts_todays_refusals(staff_client, decisions):
    assert staff_client(COMPLIANCE_OFFICER).get("/compliance/").context["refusal_count"] == 1


def test_the_log_shows_amounts_in_euros_not_cents(staff_client, decisions):
    page = staff_client(COMPLIANCE_OFFICER).get("/compliance/screening/").content.decode()
    assert ("1.00\xa0€" in page, "Amount (cents)" not in page) == (True, True)


def test_amounts_are_shown_in_euros_in_the_readers_language(staff_client, decisions, language_restored):
    page = staff_client(COMPLIANCE_OFFICER).get("/compliance/screening/", HTTP_ACCEPT_LANGUAGE="fi")
    row = page.content.decode().split(f'data-decision="{decisions[0].pk}"')[1].split("</tr>")[0]
    assert "1,00\u00a0€" in row


@pytest.mark.parametrize("url", ["/compliance/screening/", "/compliance/"])
def test_a_refusal_reads_as_its_reason_in_the_readers_language_and_links_the_person(
        staff_client, decisions, language_restored, url):
    from django.urls import reverse

    page = staff_client(COMPLIANCE_OFFICER).get(url, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    barred = decisions[1].person
    assert "Henkilö on sulkurekisterissä." in page and "<code>registry_excluded</code>" not in page
    assert f'<a href="{reverse("players:detail", args=[barred.player.pk])}">Barred Beta</a>' in page
