import datetime as _dt

import factory
from django.contrib.auth import get_user_model

from compliance import idcodes as _idcodes  # pure Python, no models

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
    return _idcodes.finnish_id(birth_date, 900 + n % 100)


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


def sales_channel(code: str = "test"):
    """The sales channel `code` (made on first use) whose API user holds the Sales channel role. Players
    made by PlayerFactory belong to the channel "test", so `api_client_for("Sales channel")` sees them."""
    from django.contrib.auth.models import Group

    from compliance import roles
    from players.models import Channel
    from players.services import channel_create

    channel = Channel.objects.filter(code=code).select_related("user").first()
    if channel is None:
        user = UserFactory(username=f"channel-{code}")
        user.groups.add(Group.objects.get(name=roles.SALES_CHANNEL))
        channel = channel_create(actor="system:tests", user=user, code=code, name=f"Channel {code}")
    return channel


def _identity():
    from compliance import identity

    return identity


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player with an empty game account (fund it through the services, so the ledger adds up)."""

    class Meta:
        model = "players.Player"
        skip_postgeneration_save = True

    person = factory.SubFactory(PersonFactory)
    registered_via = "channel:test"
    channel = factory.LazyFunction(lambda: sales_channel())

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


# --- Lottery: draws and lines ------------------------------------------------------------------------


def _now():
    from django.utils import timezone

    return timezone.now()


def _game(code: str):
    from lottery.models import Game

    return Game.objects.get(code=code)


def _ruleset(code: str, on: _dt.date):
    from lottery.selectors import ruleset_effective

    return ruleset_effective(code, on)


class DrawFactory(factory.django.DjangoModelFactory):
    """A draw whose sales period and draw time are in the past by default (results can be entered);
    `game_code` picks the game (the Game rows and rule versions come from migrate)."""

    class Meta:
        model = "lottery.Draw"
        exclude = ("game_code",)

    game_code = "lotto"
    game = factory.LazyAttribute(lambda o: _game(o.game_code))
    number = factory.Sequence(lambda n: 1000 + n)
    sales_open_at = factory.LazyFunction(lambda: _now() - _dt.timedelta(days=7))
    sales_close_at = factory.LazyFunction(lambda: _now() - _dt.timedelta(hours=2))
    draw_at = factory.LazyFunction(lambda: _now() - _dt.timedelta(hours=1))
    state = "open"
    ruleset = factory.LazyAttribute(lambda o: _ruleset(o.game_code, o.draw_at.date()))


# --- Compliance: registries, approvals, reports ------------------------------------------------------


class OperatorRegistryFactory(ExclusionRegistryFactory):
    """The operator's own ban list (staff-kept)."""

    name = factory.Sequence(lambda n: f"Operator bans {n}")
    kind = "operator"


class ExclusionEntryFactory(factory.django.DjangoModelFactory):
    """A ban in force by name and birth date; pass `registry=`."""

    class Meta:
        model = "compliance.ExclusionEntry"

    registry = factory.SubFactory(OperatorRegistryFactory)
    name_normalised = factory.Sequence(lambda n: f"banned person{n}")
    birth_date = _dt.date(1975, 3, 3)
    starts_at = factory.LazyFunction(lambda: _now() - _dt.timedelta(days=1))
    reason = "test ban"


def api_token(user) -> str:
    """A fresh API token's clear text for `user` (use as `Authorization: Token <it>`)."""
    from compliance.tokens import token_issue

    return token_issue(actor="system:tests", user=user)
