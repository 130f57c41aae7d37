"""National identifiers are never hashed or encrypted with an empty key."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from compliance.identity import encrypt_identifier, identifier_hash


def test_identifier_hash_refuses_an_empty_key(settings):
    settings.PLAYER_ID_HASH_KEY = ""
    with pytest.raises(ImproperlyConfigured, match="PLAYER_ID_HASH_KEY"):
        identifier_hash("131052-308T", "FI")


def test_identifier_encryption_refuses_an_empty_key(settings):
    settings.PLAYER_ID_ENCRYPTION_KEY = ""
    with pytest.raises(ImproperlyConfigured, match="PLAYER_ID_ENCRYPTION_KEY"):
        encrypt_identifier("131052-308T", "FI")


def test_system_check_names_a_missing_identifier_key(settings):
    from compliance.checks import identifier_keys_are_set

    settings.PLAYER_ID_HASH_KEY = ""
    assert [e.id for e in identifier_keys_are_set()] == ["valvoja.E001"]
