"""The casino operations pages: venues and tables, rounds, a round, discrepancies (issue 19)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from casino import operations, verification
from casino.models import Discrepancy, RecordedRound, Table, TableVersion, Venue
from compliance import roles

PLAYED = timezone.make_aware(dt.datetime(2026, 3, 14, 20, 15))


@pytest.fixture
def table(published):
    venue = operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                    jurisdiction="FI")
    return operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                                   variant="single_zero_la_partage", min_stake_cents=200,
                                   max_stake_cents={"roulette_inside_1": 10_000},
                                   effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)))


def _round(ref, paid):
    return {"table": "helsinki/r1", "ref": ref, "played_at": PLAYED.isoformat(),
            "bets": [{"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}],
            "outcome": {"number": 17}, "paid": [paid]}


def _table_form(**overrides):
    data = {"code": "r2", "game": "roulette", "variant": "single_zero_la_partage", "min_stake": "2.00",
            "max_stake": "roulette_inside_1 = 100.00"}
    return {**data, **overrides}


def test_a_manager_creates_a_venue_from_the_page(staff_client, published):
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:venues"), {
        "code": "hall", "name": "Pelisali", "kind": "game_hall", "jurisdiction": "FI", "currency": "EUR"})
    assert response.status_code == 302 and Venue.objects.get(code="hall").rulebook == "000"


def test_an_inspector_may_not_create_a_venue(staff_client, published):
    response = staff_client(roles.CASINO_INSPECTOR).post(reverse("casino:venues"), {
        "code": "hall", "name": "Pelisali", "kind": "game_hall", "jurisdiction": "FI", "currency": "EUR"})
    assert response.status_code == 403 and not Venue.objects.exists()


def test_a_table_above_the_legal_maximum_is_refused_beside_the_field_on_the_page(staff_client, table):
    response = staff_client(roles.CASINO_MANAGER).post(
        reverse("casino:venue", args=[table.venue_id]), _table_form(max_stake="roulette_inside_1 = 700.00"))
    assert response.status_code == 200 and "roulette_inside_1" in " ".join(response.context["form"].errors["max_stake"])
    assert not Table.objects.filter(code="r2").exists()


def test_a_new_version_from_the_table_page_keeps_the_old_one(staff_client, table):
    response = staff_client(roles.CASINO_MANAGER).post(reverse("casino:table", args=[table.pk]), {
        "variant": "single_zero_la_partage", "min_stake": "5.00", "max_stake": "roulette_inside_1 = 50.00"})
    assert response.status_code == 302
    assert list(TableVersion.objects.filter(table=table).order_by("version").values_list("min_stake_cents", flat=True)) == [200, 500]


def test_the_rounds_list_filters_to_discrepancies(staff_client, table):
    batch = operations.rounds_record(actor="system:test", source="api", verify=False,
                                     rounds=[_round("ok", "360.00"), _round("bad", "300.00")])
    verification.verify_batch(batch.pk)
    response = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("casino:rounds"), {"discrepancy_only": "on"})
    assert [r.ref for r in response.context["rounds"]] == ["bad"]


def test_a_round_page_shows_due_paid_and_the_difference(staff_client, table):
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[_round("bad", "300.00")])
    verification.verify_batch(batch.pk)
    response = staff_client(roles.CASINO_INSPECTOR).get(reverse("casino:round", args=[batch.first_round_id]))
    line = response.context["lines"][0]
    assert (line["due"], line["paid"], line["difference"]) == (36_000, 30_000, -6_000)


def test_an_inspector_uploads_a_round_file_and_a_bad_row_is_reported_by_number(staff_client, table):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    body = "\n".join([json.dumps(_round("a", "360.00")), json.dumps({**_round("b", "0.00"), "outcome": 5})])
    response = staff_client(roles.CASINO_INSPECTOR).post(reverse("casino:rounds"), {
        "file": SimpleUploadedFile("rounds.jsonl", body.encode())})
    assert [(p["row"], p["field"]) for p in response.context["report"]] == [(2, "outcome")]
    assert not RecordedRound.objects.exists()


def test_an_inspector_enters_a_round(staff_client, table):
    response = staff_client(roles.CASINO_INSPECTOR).post(reverse("casino:round-new"), {
        "table": table.pk, "ref": "x1", "played_at": "2026-03-14 20:15", "outcome": '{"number": 17}',
        "bets": '[{"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}]', "paid": "360.00"})
    assert response.status_code == 302 and RecordedRound.objects.get().ref == "x1"


def test_a_manager_resolves_a_discrepancy_with_a_note(staff_client, table):
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[_round("bad", "300.00")])
    verification.verify_batch(batch.pk)
    found = Discrepancy.objects.get()
    client = staff_client(roles.CASINO_MANAGER)
    assert client.get(reverse("casino:discrepancies")).context["groups"][0]["items"] == [found]
    response = client.post(reverse("casino:discrepancy-resolve", args=[found.pk]), {"note": "Paid 60,00 € more."})
    found.refresh_from_db()
    assert response.status_code == 302 and found.resolution_note == "Paid 60,00 € more."


def test_an_inspector_may_not_resolve(staff_client, table):
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[_round("bad", "300.00")])
    verification.verify_batch(batch.pk)
    response = staff_client(roles.CASINO_INSPECTOR).post(
        reverse("casino:discrepancy-resolve", args=[Discrepancy.objects.get().pk]), {"note": "done"})
    assert response.status_code == 403


@pytest.mark.parametrize("language,word", [("fi", "Pöydät"), ("sv", "Bord")])
def test_the_venue_page_speaks_the_readers_language(staff_client, table, language, word):
    client = staff_client(roles.CASINO_MANAGER)
    response = client.get(reverse("casino:venue", args=[table.venue_id]), HTTP_ACCEPT_LANGUAGE=language)
    assert word in response.content.decode()


@pytest.mark.parametrize("language,english,said", [
    ("fi", "box 1 has no play bet: the game is played only with ante",
     "boksilla 1 ei ole play-panosta: peliä pelataan vain panoksilla ante"),
    ("sv", "registry_excluded", "Personen finns i ett avstängningsregister."),
    ("fi", "no rule version in force at the round's time", "kierroksen aikaan ei ollut voimassa sääntöversiota"),
])
def test_a_discrepancy_s_detail_reaches_staff_in_their_language(staff_client, table, language, english, said):
    """What verification stores in English (an engine's violation, the screening's reason codes, its
    own finding) is shown in the reader's language on the list, the round and the resolve page."""
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[_round("r", "360.00")])
    found = Discrepancy.objects.create(round=batch.round_set.get(), venue=table.venue, day=PLAYED.date(),
                                       kind=Discrepancy.Kind.NOT_ALLOWED, detail=english)
    client = staff_client(roles.CASINO_MANAGER)
    for url in (reverse("casino:discrepancies"), reverse("casino:round", args=[found.round_id]),
                reverse("casino:discrepancy-resolve", args=[found.pk])):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode().replace("&#x27;", "'")
        assert (said in page, english in page) == (True, False), url


@pytest.mark.parametrize("language,kind", [("fi", "Maksettu poikkeaa kuuluvasta"), ("sv", "Det betalda avviker från det som skulle betalas")])
def test_the_audit_trail_names_a_discrepancy_by_its_kind_and_round(staff_client, table, language, kind):
    """Not "Discrepancy object (4)": the kind in the reader's words and the round's reference, linked."""
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[_round("bad", "300.00")])
    verification.verify_batch(batch.pk)
    found = Discrepancy.objects.get()
    body = staff_client(roles.COMPLIANCE_OFFICER).get(
        reverse("compliance:audit-list"), {"action": "casino.discrepancy_found"}, HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert f"{kind} · bad" in body and "Discrepancy object" not in body
    assert reverse("casino:round", args=[found.round_id]) in body


@pytest.mark.parametrize("language,heading", [("fi", "Panoksen nro"), ("sv", "Insats nr")])
def test_the_discrepancy_lists_say_which_bet_not_a_bare_stake_like_number(staff_client, table, language, heading):
    """The bet's place in the round ("1"), headed as its number: under "Panos" (stake) it read as 1 €."""
    batch = operations.rounds_record(actor="system:test", source="api", verify=False, rounds=[_round("bad", "300.00")])
    verification.verify_batch(batch.pk)
    client = staff_client(roles.CASINO_MANAGER)
    for url in (reverse("casino:discrepancies"), reverse("casino:round", args=[batch.first_round_id])):
        body = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<th class="num">{heading}</th>' in body
