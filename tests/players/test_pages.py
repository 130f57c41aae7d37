"""Staff pages: find a player by name, birth date or identifier; one page with everything."""

from __future__ import annotations

import contextlib
import datetime as dt
import re

import pytest

from compliance import roles
from compliance.models import AuditEvent
from players import services
from players.errors import PlayerError
from players.models import PendingPayout
from tests.factories import PersonFactory, finnish_id_for

from .conftest import ACTOR, ref

BIRTH = dt.date(1969, 1, 20)
HETU = finnish_id_for(BIRTH, 4)


@pytest.fixture
def jari(make_player):
    return make_player(
        balance_cents=50_00, first_name="Jari", last_name="Mäkelä", birth_date=BIRTH, national_id=HETU
    )


def _found(response) -> list[int]:
    return [int(x) for x in re.findall(r'data-person="(\d+)"', response.content.decode())]


def test_players_page_is_in_the_navigation_of_operators(staff_client):
    assert 'data-nav="players:search"' in staff_client(roles.OPERATOR).get("/").content.decode()


def test_search_by_name_ignores_accents_and_order(staff_client, jari, make_player):
    make_player(first_name="Jaana", last_name="Mäkelä")
    response = staff_client(roles.OPERATOR).get("/players/", {"name": "makela JARI"})
    assert _found(response) == [jari.person.pk]


def test_search_by_birth_date(staff_client, jari, make_player):
    make_player(birth_date=BIRTH + dt.timedelta(days=1))
    assert _found(staff_client(roles.OPERATOR).get("/players/", {"birth_date": "1969-01-20"})) == [
        jari.person.pk
    ]


def test_search_by_identifier_matches_through_the_hash(staff_client, jari):
    response = staff_client(roles.COMPLIANCE_OFFICER).post("/players/", {"national_id": HETU.lower()})
    assert _found(response) == [jari.person.pk]


def test_an_identifier_in_the_address_finds_nobody(staff_client, jari):
    """A GET never searches by identifier: it would land in access logs and could be tried unaudited."""
    assert _found(staff_client(roles.COMPLIANCE_OFFICER).get("/players/", {"national_id": HETU})) == []


def test_every_identifier_look_up_is_audited_without_the_identifier(staff_client, jari):
    from compliance.models import AuditEvent

    staff_client(roles.OPERATOR).post("/players/", {"national_id": HETU})
    event = AuditEvent.objects.get(action="players.identifier_search")
    assert (event.data["found"], HETU in str(event.data)) == ([jari.person.pk], False)


def test_identifier_look_ups_beyond_the_hourly_limit_are_refused(staff_client, jari, settings):
    settings.PLAYER_ID_SEARCHES_PER_HOUR = 3
    client = staff_client(roles.OPERATOR)
    found = [_found(client.post("/players/", {"national_id": HETU})) for _ in range(4)]
    assert found == [[jari.person.pk]] * 3 + [[]]


def test_an_auditor_cannot_look_up_by_identifier(staff_client, jari):
    assert staff_client(roles.AUDITOR).post("/players/", {"national_id": HETU}).status_code == 403


def test_search_without_criteria_lists_nobody(staff_client, jari):
    assert _found(staff_client(roles.OPERATOR).get("/players/")) == []


def test_sales_channel_cannot_open_the_staff_pages(staff_client, jari):
    assert staff_client(roles.SALES_CHANNEL).get(f"/players/{jari.pk}/").status_code == 403


@pytest.fixture
def busy(jari):
    """Jari with a ledger, a limit, a session with a reminder, a self-exclusion and a refusal."""
    now = dt.datetime.now(dt.UTC)
    services.limit_set(actor=ACTOR, player=jari, kind="deposit", period="day", amount_cents=300_00)
    session = services.session_start(actor=ACTOR, player=jari, now=now - dt.timedelta(minutes=20))
    services.account_stake(
        actor=ACTOR,
        account=jari.account,
        amount_cents=7_00,
        reference="stake-77",
        session=session,
        now=now - dt.timedelta(minutes=19),
    )
    services.session_refresh(actor=ACTOR, session=session, now=now - dt.timedelta(minutes=4))
    services.self_exclusion_start(actor=ACTOR, person=jari.person, days=30)
    with contextlib.suppress(PlayerError):  # the refusal is what the page shows
        services.account_deposit(actor=ACTOR, account=jari.account, amount_cents=1_00, reference=ref())
    return jari


@pytest.mark.parametrize(
    "section,needle",
    [
        ("ledger", "stake-77"),
        ("limits", "300.00"),
        ("sessions", "waiting for an answer"),
        ("exclusions", "self-excluded"),
        ("screening", "self_excluded"),
        ("person", "bank_id"),
    ],
)
def test_player_page_shows_every_part(staff_client, busy, section, needle):
    html = staff_client(roles.COMPLIANCE_OFFICER).get(f"/players/{busy.pk}/").content.decode()
    part = html.split(f'id="{section}"', 1)[1].split('class="card"', 1)[0]
    assert needle in part


def test_compliance_officer_sees_the_players_audit_events(staff_client, busy):
    response = staff_client(roles.COMPLIANCE_OFFICER).get(f"/players/{busy.pk}/")
    actions = {e.action for e in response.context["audit_events"]}
    assert {"players.limit_set", "players.self_excluded", "screening.excluded_attempt"} <= actions


def test_the_players_audit_events_name_the_person_not_the_stored_english(staff_client, busy):
    """"Oma pelikielto: Jari Mäkelä, 2026-... asti", not "Self-exclusion of 4 until 2026-...+00:00"."""
    html = staff_client(roles.COMPLIANCE_OFFICER).get(f"/players/{busy.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    audit = html.split('id="audit"', 1)[1]
    assert "Self-exclusion of" not in audit and "Account of player" not in audit and "Player " not in audit
    assert re.search(r"Jari Mäkelä, \d{4}-\d\d-\d\d \d\d:\d\d asti", audit)


def test_operator_without_audit_permission_sees_no_audit_section(staff_client, busy):
    assert 'id="audit"' not in staff_client(roles.OPERATOR).get(f"/players/{busy.pk}/").content.decode()


def test_page_never_shows_the_identifier_unasked(staff_client, jari):
    assert HETU not in staff_client(roles.COMPLIANCE_OFFICER).get(f"/players/{jari.pk}/").content.decode()


def test_revealing_the_identifier_is_recorded(staff_client, jari):
    client = staff_client(roles.COMPLIANCE_OFFICER)
    client.post(f"/players/{jari.pk}/identifier/")
    assert AuditEvent.objects.filter(action="players.identifier_revealed", actor=client.user).count() == 1


def test_revealed_identifier_is_shown_when_encryption_is_available(staff_client, jari):
    pytest.importorskip("cryptography", reason="Fernet needs the cryptography package")
    html = staff_client(roles.COMPLIANCE_OFFICER).post(f"/players/{jari.pk}/identifier/").content.decode()
    assert HETU in html


def test_operator_cannot_reveal_the_identifier(staff_client, jari):
    assert staff_client(roles.OPERATOR).post(f"/players/{jari.pk}/identifier/").status_code == 403


def test_compliance_officer_verifies_an_identity_on_the_page(staff_client, make_player):
    player = make_player(unverified=True)
    client = staff_client(roles.COMPLIANCE_OFFICER)
    client.post(f"/players/{player.pk}/verify/", {"method": "passport", "note": "seen at the desk", "confirmed": "yes"})
    player.person.refresh_from_db()
    assert (player.person.kyc_status, player.person.kyc_verified_by) == ("verified", client.user)


def test_operator_records_a_pending_payout_for_a_second_persons_approval(staff_client, make_player):
    from compliance.models import Approval

    player = make_player(balance_cents=20_000_00)
    payout = services.account_prize(
        actor="system:s", account=player.account, amount_cents=10_00, reference="w"
    ).pending_payout
    staff_client(roles.OPERATOR).post(f"/players/payouts/{payout.pk}/paid/", {"bank_reference": "NORDEA-1"})
    approval = Approval.objects.get(kind=services.PAYOUT_RELEASE_KIND)
    assert (PendingPayout.objects.get(pk=payout.pk).status, approval.payload["bank_reference"]) == (
        "pending", "NORDEA-1")


def test_auditor_reads_the_page_but_cannot_mark_payouts(staff_client, make_player):
    player = make_player(balance_cents=20_000_00)
    payout = services.account_prize(
        actor="system:s", account=player.account, amount_cents=10_00, reference="w"
    ).pending_payout
    client = staff_client(roles.AUDITOR)
    assert (
        client.get(f"/players/{player.pk}/").status_code,
        client.post(f"/players/payouts/{payout.pk}/paid/", {"bank_reference": "x"}).status_code,
    ) == (200, 403)


@pytest.mark.parametrize("lang,word", [("fi", "Pelaajat"), ("sv", "Spelare")])
def test_players_page_speaks_finnish_and_swedish(staff_client, lang, word):
    client = staff_client(roles.OPERATOR)
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    assert word in client.get("/players/").content.decode()


def test_person_factory_keeps_unverified_people_unverified(db):
    assert PersonFactory(unverified=True).kyc_status == "unverified"


def test_player_page_in_finnish_shows_the_balance_the_finnish_way(staff_client, make_player):
    player = make_player(balance_cents=1_234_56)
    client = staff_client(roles.COMPLIANCE_OFFICER)
    client.cookies["django_language"] = "fi"
    html = client.get(f"/players/{player.pk}/").content.decode()
    assert 'data-balance="123456">1\u00a0234,56\u00a0€<' in html


def test_player_page_in_english_shows_the_balance_the_english_way(staff_client, make_player):
    player = make_player(balance_cents=1_234_56)
    html = staff_client(roles.COMPLIANCE_OFFICER).get(f"/players/{player.pk}/").content.decode()
    assert 'data-balance="123456">1,234.56\u00a0€<' in html
