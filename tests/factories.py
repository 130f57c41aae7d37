import datetime as _dt

import factory
from django.contrib.auth import get_user_model

from players import rules as _player_rules  # pure Python, no models

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"staff{n}")
    first_name = "Test"
    last_name = factory.Sequence(lambda n: f"User{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


# --- Players -----------------------------------------------------------------------------------------


def finnish_id_for(birth_date: _dt.date, n: int) -> str:
    """A valid Finnish identity code with an individual number in the never-issued 900-999 range."""
    return _player_rules.finnish_id(birth_date, 900 + n % 100)


class PersonFactory(factory.django.DjangoModelFactory):
    """A verified adult Finnish person; `national_id` (not a field) is the identifier in clear."""

    class Meta:
        model = "players.Person"
        exclude = ("national_id",)

    class Params:
        unverified = factory.Trait(kyc_status="unverified", kyc_verified_by_repr="", kyc_method="")

    first_name = factory.Sequence(lambda n: f"Testi{n}")
    last_name = factory.Sequence(lambda n: f"Pelaaja{n}")
    birth_date = factory.Sequence(lambda n: _dt.date(1970, 1, 1) + _dt.timedelta(days=n))
    national_id = factory.LazyAttributeSequence(lambda o, n: finnish_id_for(o.birth_date, n))
    national_id_hash = factory.LazyAttribute(
        lambda o: _identity().identifier_hash(o.national_id, o.id_country)
    )
    national_id_encrypted = factory.LazyAttribute(
        lambda o: _identity().encrypt_identifier(o.national_id, o.id_country)
    )
    id_country = "FI"
    jurisdiction = "FI"
    kyc_status = "verified"
    kyc_method = "bank_id"
    kyc_verified_by_repr = "channel:test"


def _identity():
    from players import identity

    return identity


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player with an empty game account (fund it through the services, so the ledger adds up)."""

    class Meta:
        model = "players.Player"
        skip_postgeneration_save = True

    person = factory.SubFactory(PersonFactory)
    registered_via = "channel:test"

    @factory.post_generation
    def account(obj, create, extracted, **kwargs):
        if create:
            from players.models import GameAccount

            GameAccount.objects.create(player=obj, **kwargs)


class OperatorLimitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "players.OperatorLimit"

    kind = "loss"
    period = "day"
    amount_cents = 500_00


class ExclusionRegistryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "compliance.ExclusionRegistry"

    name = factory.Sequence(lambda n: f"Register {n}")
    source = "test"
