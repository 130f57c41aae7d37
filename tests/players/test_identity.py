"""The national identifier: encrypted for authorised display when `cryptography` is installed, and
never stored in clear when it is not."""

from __future__ import annotations

import datetime as dt

import pytest

from compliance import identity
from compliance.idcodes import finnish_id
from players import services

from .conftest import ACTOR

HETU = finnish_id(dt.date(1984, 2, 29), 977)


def _register():
    return services.player_register(
        actor=ACTOR,
        first_name="Kari",
        last_name="Karkauspäivä",
        birth_date=dt.date(1984, 2, 29),
        national_id=HETU,
    )


def test_encrypted_identifier_decrypts_to_the_normalised_identifier():
    pytest.importorskip("cryptography", reason="Fernet needs the cryptography package")
    assert identity.decrypt_identifier(identity.encrypt_identifier(f" {HETU.lower()} ", "FI")) == HETU


def test_ciphertext_does_not_contain_the_identifier():
    pytest.importorskip("cryptography", reason="Fernet needs the cryptography package")
    assert HETU not in identity.encrypt_identifier(HETU, "FI")


def test_wrong_key_decrypts_to_nothing(settings):
    pytest.importorskip("cryptography", reason="Fernet needs the cryptography package")
    token = identity.encrypt_identifier(HETU, "FI")
    from cryptography.fernet import Fernet

    settings.PLAYER_ID_ENCRYPTION_KEY = Fernet.generate_key().decode()
    assert identity.decrypt_identifier(token) is None


def test_reveal_returns_the_identifier_to_staff(db):
    pytest.importorskip("cryptography", reason="Fernet needs the cryptography package")
    person = _register().person
    assert services.person_reveal_identifier(actor="system:test", person=person) == HETU


def test_without_cryptography_no_copy_is_kept_and_nothing_is_shown(db, monkeypatch):
    monkeypatch.setattr(identity, "Fernet", None)
    person = _register().person
    assert (
        person.national_id_encrypted,
        services.person_reveal_identifier(actor="system:test", person=person),
    ) == ("", None)
