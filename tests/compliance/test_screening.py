"""compliance.screening.screen(): the one gate, its reasons, its log, and registries that fail closed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation

from compliance.models import AuditEvent, ScreeningDecision
from compliance.registries import RegistryAdapter
from compliance.screening import screen
from compliance.services import exclusion_entry_add
from tests.factories import ExclusionRegistryFactory, PersonFactory, PlayerFactory, finnish_id_for


class BrokenAdapter(RegistryAdapter):
    def lookup(self, person, *, registry, now):
        raise TimeoutError("registry did not answer")


BIRTH = dt.date(1980, 5, 5)
HETU = finnish_id_for(BIRTH, 7)


@pytest.fixture
def person(db):
    return PlayerFactory(person=PersonFactory(birth_date=BIRTH, national_id=HETU)).person


def _codes(decision) -> list[str]:
    return [r["code"] for r in decision.reasons]


def test_every_decision_is_logged(person):
    screen(person, "login")
    screen(person, "withdrawal", 5_00)
    assert list(ScreeningDecision.objects.order_by("pk").values_list("action", "allowed")) == [
        ("login", True),
        ("withdrawal", True),
    ]


def test_decision_records_who_asked(person):
    screen(person, "login", actor="channel:web")
    assert ScreeningDecision.objects.get().actor_repr == "channel:web"


def test_verified_adult_without_exclusions_may_log_in(person):
    assert screen(person, "login").allowed


def test_all_failing_checks_are_reported_together(db):
    young = PlayerFactory(
        person=PersonFactory(unverified=True, birth_date=timezone.localdate() - dt.timedelta(days=365 * 10))
    ).person
    assert {"under_age", "not_verified"} <= set(_codes(screen(young, "login")))


def test_person_on_a_registry_is_denied(person):
    registry = ExclusionRegistryFactory()
    exclusion_entry_add(actor="system:test", registry=registry, national_id=HETU)
    decision = screen(person, "login")
    assert (decision.allowed, _codes(decision)) == (False, ["registry_excluded"])


def test_registry_entry_matches_by_name_and_birth_date_without_identifier(person):
    registry = ExclusionRegistryFactory()
    exclusion_entry_add(
        actor="system:test",
        registry=registry,
        first_name=person.last_name.upper(),
        last_name=person.first_name,
        birth_date=person.birth_date,
    )
    assert _codes(screen(person, "deposit", 1_00)) == ["registry_excluded"]


def test_same_name_with_another_birth_date_does_not_match(person):
    registry = ExclusionRegistryFactory()
    exclusion_entry_add(
        actor="system:test",
        registry=registry,
        first_name=person.first_name,
        last_name=person.last_name,
        birth_date=person.birth_date - dt.timedelta(days=1),
    )
    assert screen(person, "login").allowed


def test_expired_registry_entry_no_longer_denies(person):
    registry = ExclusionRegistryFactory()
    now = timezone.now()
    exclusion_entry_add(
        actor="system:test",
        registry=registry,
        national_id=HETU,
        starts_at=now - dt.timedelta(days=30),
        ends_at=now - dt.timedelta(days=1),
    )
    assert screen(person, "login").allowed


def test_registry_of_another_jurisdiction_is_not_consulted(person):
    registry = ExclusionRegistryFactory(jurisdiction="UA")
    exclusion_entry_add(actor="system:test", registry=registry, national_id=HETU)
    assert screen(person, "login").allowed


def test_inactive_registry_is_not_consulted(person):
    registry = ExclusionRegistryFactory(active=False)
    exclusion_entry_add(actor="system:test", registry=registry, national_id=HETU)
    assert screen(person, "login").allowed


def test_registry_that_cannot_answer_means_deny(person):
    ExclusionRegistryFactory(adapter="tests.compliance.test_screening.BrokenAdapter")
    assert _codes(screen(person, "deposit", 1_00)) == ["registry_unavailable"]


def test_registry_whose_adapter_cannot_be_loaded_means_deny(person):
    ExclusionRegistryFactory(adapter="compliance.registries.NoSuchAdapter")
    assert _codes(screen(person, "login")) == ["registry_unavailable"]


def test_unavailable_registry_is_a_significant_event(person):
    ExclusionRegistryFactory(adapter="tests.compliance.test_screening.BrokenAdapter")
    screen(person, "login")
    assert AuditEvent.objects.filter(action="screening.registry_unavailable", significant=True).count() == 1


def test_blocked_attempt_of_a_registered_person_is_a_significant_event(person):
    registry = ExclusionRegistryFactory()
    exclusion_entry_add(actor="system:test", registry=registry, national_id=HETU)
    screen(person, "stake", 1_00, actor="channel:web")
    assert AuditEvent.objects.filter(
        action="screening.excluded_attempt", significant=True, actor_repr="channel:web"
    ).exists()


def test_allowed_decision_writes_no_audit_event(person):
    before = AuditEvent.objects.count()
    screen(person, "login")
    assert AuditEvent.objects.count() == before


def test_registration_of_a_registered_person_is_denied_before_any_row_exists(db):
    from compliance.identity import identifier_hash
    from players.models import Person

    registry = ExclusionRegistryFactory()
    exclusion_entry_add(actor="system:test", registry=registry, national_id="131052-308T")
    unsaved = Person(
        first_name="A",
        last_name="B",
        birth_date=dt.date(1952, 10, 13),
        jurisdiction="FI",
        national_id_hash=identifier_hash("131052-308T", "FI"),
    )
    assert _codes(screen(unsaved, "register")) == ["registry_excluded"]


def test_withdrawal_is_allowed_even_on_a_registry(person):
    registry = ExclusionRegistryFactory()
    exclusion_entry_add(actor="system:test", registry=registry, national_id=HETU)
    assert screen(person, "withdrawal", 1_00).allowed


def test_prize_is_allowed_with_the_amount_that_fits_under_the_cap(person):
    decision = screen(person, "prize", 30_000_00)
    assert (decision.allowed, decision.allowed_amount_cents, _codes(decision)) == (
        True,
        20_000_00,
        ["balance_cap_diverted"],
    )


def test_a_logged_reason_names_its_amount_in_english_whatever_the_language_of_the_request(person):
    """The reasons are English sentences stored in the log: their amounts are in the English form
    (docs/architecture.md, "Money as text"), even when a Finnish-speaking operator's request caused them."""
    with translation.override("fi"):
        decision = screen(person, "prize", 30_000_00)
    assert decision.reasons[0]["message"].startswith("10,000.00\u00a0€ exceeds the balance cap")


def test_stake_without_a_session_is_denied(person):
    assert "no_session" in _codes(screen(person, "stake", 1_00))


def test_unknown_action_is_a_programming_error(person):
    with pytest.raises(ValueError):
        screen(person, "teleport")


def test_closed_account_cannot_log_in(person):
    person.player.status = "closed"
    person.player.save()
    assert _codes(screen(person, "login")) == ["account_closed"]
