"""Registration and identity: who may register, how the identifier is kept, verification (KYC)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from compliance.idcodes import finnish_id
from compliance.identity import identifier_hash
from compliance.models import AuditEvent, ScreeningDecision
from players import services
from players.errors import Conflict, InvalidRequest, Refused
from players.models import GameAccount, Person, Player

from .conftest import ACTOR


def _register(birth: dt.date, individual: int = 950, **kwargs):
    defaults = {
        "actor": ACTOR,
        "first_name": "Maija",
        "last_name": "Meikäläinen",
        "birth_date": birth,
        "national_id": finnish_id(birth, individual),
    }
    return services.player_register(**{**defaults, **kwargs})


def _years_ago(years: int, days: int = 0) -> dt.date:
    today = timezone.localdate()
    return today.replace(year=today.year - years) - dt.timedelta(days=days)


def test_registration_creates_person_player_and_empty_account(db):
    player = _register(dt.date(1990, 4, 1))
    assert (Player.objects.count(), player.account.balance_cents, player.person.kyc_status) == (
        1,
        0,
        "unverified",
    )


def test_registration_is_audited(db):
    player = _register(dt.date(1990, 4, 1))
    assert AuditEvent.objects.filter(action="players.registered", object_id=str(player.pk)).exists()


def test_identifier_is_stored_only_as_hash_and_ciphertext(db):
    hetu = finnish_id(dt.date(1990, 4, 1), 950)
    person = _register(dt.date(1990, 4, 1)).person
    stored = " ".join(str(v) for v in Person.objects.filter(pk=person.pk).values().get().values())
    assert hetu not in stored and hetu.replace("-", "") not in stored


def test_identifier_hash_is_keyed(settings):
    before = identifier_hash("131052-308T", "FI")
    settings.PLAYER_ID_HASH_KEY = "another-key"
    assert identifier_hash("131052-308T", "FI") != before


def test_identifier_hash_ignores_spacing_and_case():
    assert identifier_hash(" 131052-308t", "FI") == identifier_hash("131052-308T", "FI")


def test_eighteen_year_old_may_register_under_finnish_rules(db):
    assert _register(_years_ago(18)).pk


def test_seventeen_year_old_is_refused_under_finnish_rules(db):
    with pytest.raises(Refused) as exc:
        _register(_years_ago(18, days=-1))
    assert exc.value.code == "under_age"


def test_refused_registration_creates_no_person(db):
    with pytest.raises(Refused):
        _register(_years_ago(17))
    assert Person.objects.count() == 0


def test_refused_registration_is_logged_with_the_identifier_hash(db):
    birth = _years_ago(17)
    with pytest.raises(Refused):
        _register(birth)
    decision = ScreeningDecision.objects.get()
    assert (decision.allowed, decision.identifier_hash) == (
        False,
        identifier_hash(finnish_id(birth, 950), "FI"),
    )


def test_twenty_year_old_is_refused_under_the_billionaire_rules(db):
    with pytest.raises(Refused) as exc:
        _register(_years_ago(20), jurisdiction="UA")
    assert exc.value.extra["min_age"] == 21


def test_twenty_one_year_old_may_register_under_the_billionaire_rules(db):
    assert _register(_years_ago(21), jurisdiction="UA").person.jurisdiction == "UA"


def test_minimum_age_follows_the_setting(db, settings):
    settings.PLAYER_MIN_AGE = {"FI": 20, "UA": 21}
    with pytest.raises(Refused):
        _register(_years_ago(19))


def test_same_identifier_cannot_register_twice(db):
    _register(dt.date(1990, 4, 1))
    with pytest.raises(Conflict) as exc:
        _register(dt.date(1990, 4, 1), first_name="Other")
    assert exc.value.code == "already_registered"


def test_invalid_finnish_identifier_is_refused(db):
    with pytest.raises(InvalidRequest) as exc:
        _register(dt.date(1990, 4, 1), national_id="010490-950X")
    assert exc.value.code == "invalid_identifier"


def test_identifier_must_match_the_birth_date(db):
    with pytest.raises(InvalidRequest) as exc:
        _register(dt.date(1990, 4, 2), national_id=finnish_id(dt.date(1990, 4, 1), 950))
    assert exc.value.code == "identifier_birth_date_mismatch"


def test_foreign_identifier_is_not_checked_as_a_finnish_one(db):
    player = _register(dt.date(1990, 4, 1), national_id="3251 0 12345", id_country="UA", jurisdiction="UA")
    assert player.person.national_id_hash == identifier_hash("3251012345", "UA")


def test_verification_records_who_verified_and_how(db):
    person = _register(dt.date(1990, 4, 1)).person
    services.person_verify(actor="channel:bank", person=person, method="bank_id")
    person.refresh_from_db()
    assert (person.kyc_status, person.kyc_verified_by_repr, person.kyc_method) == (
        "verified",
        "channel:bank",
        "bank_id",
    )


def test_verification_by_staff_links_the_user(db, make_staff):
    officer = make_staff("Compliance officer")
    person = _register(dt.date(1990, 4, 1)).person
    assert services.person_verify(actor=officer, person=person, method="passport").kyc_verified_by == officer


def test_rejected_verification_is_a_significant_event(db):
    person = _register(dt.date(1990, 4, 1)).person
    services.person_reject_verification(actor="channel:bank", person=person, note="document expired")
    assert AuditEvent.objects.filter(action="players.kyc_rejected", significant=True).exists()


def test_unverified_player_cannot_deposit(db):
    player = _register(dt.date(1990, 4, 1))
    with pytest.raises(Refused) as exc:
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=10_00, reference="d1")
    assert exc.value.code == "not_verified"


def test_unverified_player_cannot_log_in(db):
    player = _register(dt.date(1990, 4, 1))
    with pytest.raises(Refused) as exc:
        services.session_start(actor=ACTOR, player=player)
    assert exc.value.code == "not_verified"


def test_service_requires_an_actor(db):
    with pytest.raises(TypeError):
        _register(dt.date(1990, 4, 1), actor=None)


def test_account_gets_the_balance_cap_of_pr_2(db):
    assert GameAccount.objects.get(player=_register(dt.date(1990, 4, 1))).cap_cents == 20_000_00
