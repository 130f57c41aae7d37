"""National identifiers: a keyed hash for look-ups and an encrypted value for authorised display.

The clear identifier is never stored. `identifier_hash` (HMAC-SHA256 with PLAYER_ID_HASH_KEY over
"<country>:<normalised identifier>") is the look-up key of people and of exclusion-registry entries,
so both sides must hash through this function. Encryption uses Fernet from the `cryptography`
package when it is installed; without it no encrypted copy is kept and staff cannot display the
identifier (it is never stored in clear as a fallback).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from .idcodes import normalise_identifier

try:  # optional dependency, see docs/players.md
    from cryptography.fernet import Fernet, InvalidToken
except ImportError:  # pragma: no cover - depends on the environment
    Fernet = None
    InvalidToken = Exception


def _key(name: str) -> bytes:
    """The configured key; never an empty one (an empty HMAC key would still "work" and every
    exclusion match would silently depend on nothing secret)."""
    value = getattr(settings, name, "")
    if not value:
        raise ImproperlyConfigured(f"{name} is not set; it is required when DEBUG is false (see `manage.py check`).")
    return value.encode()


def identifier_hash(value: str, country: str) -> str:
    key = _key("PLAYER_ID_HASH_KEY")
    message = f"{country.upper()}:{normalise_identifier(value, country)}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def encryption_available() -> bool:
    return Fernet is not None


def encrypt_identifier(value: str, country: str) -> str:
    """Fernet token of the normalised identifier, or "" when encryption is not available."""
    if Fernet is None:
        return ""
    token = Fernet(_key("PLAYER_ID_ENCRYPTION_KEY")).encrypt(
        normalise_identifier(value, country).encode()
    )
    return token.decode()


def decrypt_identifier(token: str) -> str | None:
    """The identifier in clear, or None when there is no token, no encryption or a wrong key."""
    if not token or Fernet is None:
        return None
    try:
        return Fernet(_key("PLAYER_ID_ENCRYPTION_KEY")).decrypt(token.encode()).decode()
    except InvalidToken:
        return None
