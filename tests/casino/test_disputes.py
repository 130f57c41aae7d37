"""Disputes at the tables (issue 19 item 4; 000-casino §3.4): recorded by the inspector with the round, the
parties, who decided and in what role (as the venue's rulebook allows), the decision and whether the round
ended or continued; never edited, amended by a new record; listed per venue and day."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from casino import disputes, operations
from casino.models import Complaint, Dispute
from compliance import roles
from compliance.errors import InvalidInput, StateConflict
from compliance.models import AuditEvent
from tests.factories import PersonFactory

PLAYED = timezone.make_aware(dt.datetime(2026, 3, 14, 20, 15))
V1 = timezone.make_aware(dt.datetime(2026, 1, 1))


def _venue(code, kind, jurisdiction="FI"):
    return operations.venue_create(actor="system:test", code=code, name=code.title(), kind=kind,
                                   jurisdiction=jurisdiction)


@pytest.fixture
def casino_table(published):
    venue = _venue("helsinki", "casino")
    return operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                                   variant="single_zero_la_partage", min_stake_cents=200,
                                   max_stake_cents={"roulette_inside_1": 10_000}, effective_from=V1)


@pytest.fixture
def hall_table(published):
    venue = _venue("itis", "game_hall")
    return operations.table_create(actor="system:test", venue=venue, code="b1", game="blackjack",
                                   variant="gh_a_3to2", min_stake_cents=100, max_stake_cents={}, effective_from=V1)


@pytest.fixture
def recorded(casino_table):
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[
        {"table": "helsinki/r1", "ref": "R-1", "played_at": PLAYED.isoformat(),
         "bets": [{"type": "straight", "numbers": [17], "stake": "10.00"}], "outcome": {"number": 17}, "paid": ["360.00"]}])
    return batch.round_set.get()


def _record(table, actor="inspector", **overrides):
    args = {"table": table, "occurred_at": PLAYED, "round_description": "the spin after 20:10",
            "players": [{"description": "box 3, grey jacket"}], "deciders": [{"name": "Mikko", "role": "dealer"}],
            "decision": "The bet stands.", "round_outcome": "continued"}
    return disputes.dispute_record(actor=actor, **{**args, **overrides})


# --- recording ----------------------------------------------------------------------------------------


def test_a_dispute_keeps_the_round_the_parties_who_decided_and_what_became_of_the_round(casino_table, recorded):
    person = PersonFactory()
    d = _record(casino_table, round_ref="R-1", round_description="", occurred_at=None,
                players=[{"person": person.pk}, {"description": "his friend"}],
                staff=[{"name": "Mikko", "role": "dealer"}],
                deciders=[{"name": "Mikko", "role": "dealer"}, {"name": "Inka", "role": "inspector"}],
                round_outcome="ended")
    d = Dispute.objects.get(pk=d.pk)
    assert (d.round_id, d.occurred_at, d.day, d.players, d.deciders, d.round_outcome, d.venue_id) == (
        recorded.pk, PLAYED, dt.date(2026, 3, 14), [{"person": person.pk}, {"description": "his friend"}],
        [{"name": "Mikko", "role": "dealer"}, {"name": "Inka", "role": "inspector"}], "ended", casino_table.venue_id)


def test_recording_a_dispute_writes_its_audit_event_in_the_same_transaction(casino_table):
    with transaction.atomic():
        d = _record(casino_table)
        event = AuditEvent.objects.get(action="casino.dispute_recorded")
    assert (event.object_id, event.actor_repr, event.after["deciders"]) == (
        str(d.pk), "inspector", [{"name": "Mikko", "role": "dealer"}])


def test_a_round_reference_the_table_does_not_have_is_refused_beside_the_round(casino_table):
    with pytest.raises(InvalidInput) as refused:
        _record(casino_table, round_ref="R-404")
    assert list(refused.value.fields) == ["round"]


def test_a_dispute_names_its_round_or_describes_it(casino_table):
    with pytest.raises(InvalidInput) as refused:
        _record(casino_table, round_description="")
    assert "round_description" in refused.value.fields


def test_an_unknown_player_id_is_refused_beside_the_players(casino_table):
    with pytest.raises(InvalidInput) as refused:
        _record(casino_table, players=[{"person": 999_999}])
    assert "999999" in str(refused.value.fields["players"][0])


def test_a_dispute_in_the_future_is_refused(casino_table):
    with pytest.raises(InvalidInput) as refused:
        _record(casino_table, occurred_at=timezone.now() + dt.timedelta(hours=2))
    assert "occurred_at" in refused.value.fields


def test_nothing_is_recorded_when_the_dispute_is_refused(casino_table):
    with pytest.raises(InvalidInput):
        _record(casino_table, decision="")
    assert (Dispute.objects.count(), AuditEvent.objects.filter(action="casino.dispute_recorded").count()) == (0, 0)


# --- who may decide -----------------------------------------------------------------------------------


def test_at_a_game_hall_the_dealer_decides(hall_table):
    assert _record(hall_table).deciders[0]["role"] == "dealer"


def test_at_a_game_hall_the_inspector_may_not_decide(hall_table):
    with pytest.raises(InvalidInput) as refused:
        _record(hall_table, deciders=[{"name": "Inka", "role": "inspector"}])
    assert "000-casino §3.4 (GH L621)" in str(refused.value.fields["deciders"][0])


@pytest.mark.parametrize("deciders", [
    [{"name": "Mikko", "role": "dealer"}],
    [{"name": "Inka", "role": "inspector"}],
    [{"name": "Mikko", "role": "dealer"}, {"name": "Inka", "role": "inspector"}],
], ids=["dealer", "inspector", "both"])
def test_at_a_casino_the_dealer_and_or_the_inspector_decide(casino_table, deciders):
    assert _record(casino_table, deciders=deciders).deciders == deciders


def test_a_casino_dispute_names_each_role_once(casino_table):
    with pytest.raises(InvalidInput):
        _record(casino_table, deciders=[{"name": "Mikko", "role": "dealer"}, {"name": "Aki", "role": "dealer"}])


def test_at_billionaire_the_administration_decides_not_the_dealer(published):
    venue = _venue("billionaire", "foreign_casino", "UA")
    table = operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                                    variant="american", min_stake_cents=100,
                                    max_stake_cents={"roulette_inside_1": 10_000}, effective_from=V1)
    with pytest.raises(InvalidInput):
        _record(table, deciders=[{"name": "Mikko", "role": "dealer"}])
    assert _record(table, deciders=[{"name": "Duty manager", "role": "administration"}]).pk


def test_a_dispute_needs_a_decider(casino_table):
    with pytest.raises(InvalidInput) as refused:
        _record(casino_table, deciders=[])
    assert "deciders" in refused.value.fields


# --- never edited; amended by a new record -------------------------------------------------------------


def test_a_dispute_is_never_changed_in_place(casino_table):
    d = _record(casino_table)
    d.decision = "something else"
    with pytest.raises(ValueError):
        d.save()


def test_an_amendment_is_a_new_record_and_the_old_one_stays(casino_table):
    old = _record(casino_table)
    new = _record(casino_table, amends=old, amendment_reason="the decider's name was wrong",
                  deciders=[{"name": "Mikko Jakaja", "role": "dealer"}])
    old.refresh_from_db()
    assert (old.deciders[0]["name"], new.amends_id, list(old.amendments.all()),
            AuditEvent.objects.filter(action="casino.dispute_amended", object_id=str(new.pk)).count()) == (
        "Mikko", old.pk, [new], 1)


def test_a_dispute_already_amended_is_not_amended_again(casino_table):
    old = _record(casino_table)
    _record(casino_table, amends=old, amendment_reason="typo")
    with pytest.raises(StateConflict):
        _record(casino_table, amends=old, amendment_reason="another typo")


def test_an_amendment_says_why(casino_table):
    old = _record(casino_table)
    with pytest.raises(InvalidInput) as refused:
        _record(casino_table, amends=old, amendment_reason=" ")
    assert "amendment_reason" in refused.value.fields


# --- pages --------------------------------------------------------------------------------------------


def _form(table, **overrides):
    data = {"table": table.pk, "round_ref": "", "round_description": "spin after 20:10",
            "occurred_at": "2026-03-14T20:15", "players": "box 3, grey jacket", "staff": "Mikko Virtanen, dealer",
            "decider_name": "Mikko Virtanen", "decider_role": "dealer", "second_decider_name": "",
            "second_decider_role": "", "decision": "The bet stands.", "round_outcome": "continued"}
    return {**data, **overrides}


def test_the_inspector_records_a_dispute_from_the_page(staff_client, casino_table):
    response = staff_client(roles.CASINO_INSPECTOR).post(reverse("casino:dispute-new"), _form(casino_table))
    d = Dispute.objects.get()
    assert (response.status_code, response.url, d.staff, d.players) == (
        302, reverse("casino:dispute", args=[d.pk]), [{"name": "Mikko Virtanen", "role": "dealer"}],
        [{"description": "box 3, grey jacket"}])


def test_a_refused_decider_is_shown_in_finnish_beside_its_field_and_the_input_is_kept(staff_client, hall_table):
    response = staff_client(roles.CASINO_INSPECTOR).post(
        reverse("casino:dispute-new"), _form(hall_table, decider_role="inspector", decision="Panos pysyy voimassa."),
        HTTP_ACCEPT_LANGUAGE="fi")
    html = response.content.decode()
    error = html.split('data-field-error="decider_role"')[1].split("</span>")[0]
    assert (response.status_code, Dispute.objects.count()) == (200, 0)
    assert "ratkaisee" in error and "000-casino §3.4 (GH L621)" in error
    assert "Panos pysyy voimassa." in html


def test_the_manager_may_not_record_a_dispute(staff_client, casino_table):
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:dispute-new"), _form(casino_table))
    assert (response.status_code, Dispute.objects.count()) == (403, 0)


def test_the_list_shows_a_venue_and_day_only(staff_client, casino_table, hall_table):
    first = _record(casino_table)
    _record(casino_table, occurred_at=PLAYED - dt.timedelta(days=1))
    _record(hall_table)
    response = staff_client(roles.COMPLIANCE_OFFICER).get(
        reverse("casino:disputes"), {"venue": casino_table.venue_id, "day": "2026-03-14"})
    assert [row["d"].pk for row in response.context["rows"]] == [first.pk]


def test_the_list_says_which_record_was_amended(staff_client, casino_table):
    old = _record(casino_table)
    new = _record(casino_table, amends=old, amendment_reason="typo")
    rows = {row["d"].pk: row for row in staff_client(roles.AUDITOR).get(reverse("casino:disputes")).context["rows"]}
    assert (rows[old.pk]["amended_by"], rows[new.pk]["amended_by"]) == (new, None)


def test_the_amend_page_starts_from_the_record_and_records_a_new_one(staff_client, casino_table):
    old = _record(casino_table, staff=[{"name": "Mikko", "role": "dealer"}])
    client = staff_client(roles.CASINO_INSPECTOR)
    initial = client.get(reverse("casino:dispute-amend", args=[old.pk])).context["form"].initial
    response = client.post(reverse("casino:dispute-amend", args=[old.pk]), {
        **_form(casino_table, decision="Corrected."), "amendment_reason": "the decision was written wrong"})
    assert (initial["decision"], initial["staff"], response.status_code,
            Dispute.objects.get(amends=old).decision) == ("The bet stands.", "Mikko, dealer", 302, "Corrected.")


def test_a_dispute_page_shows_who_decided_in_words(staff_client, casino_table):
    d = _record(casino_table, deciders=[{"name": "Inka", "role": "inspector"}])
    html = staff_client(roles.CASINO_MANAGER).get(reverse("casino:dispute", args=[d.pk]),
                                                  HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Inka (tarkastaja)" in html


# --- demo ---------------------------------------------------------------------------------------------


def test_the_demo_has_a_dispute_at_helsinki_and_an_open_complaint_near_its_deadline_once(db):
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())
    dispute = Dispute.objects.get()
    open_ones = Complaint.objects.filter(venue__code="billionaire", answered_on__isnull=True)
    days_left = (open_ones.get().answer_due - timezone.localdate()).days
    assert (dispute.venue.code, dispute.round.venue_id == dispute.venue_id, Complaint.objects.count(),
            0 <= days_left <= 3) == ("casino-helsinki", True, 2, True)
