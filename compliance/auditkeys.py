"""The keys that seal the audit chain and sign its checkpoints (docs/compliance.md, "Audit trail").

`AUDIT_HMAC_KEYS` lists `id:hexkey` pairs, newest first. The newest is the one a rotation moves the
chain to and the one checkpoints are signed with; every listed key verifies the rows and checkpoints
sealed with it. The keys live outside the database (the environment), so a database writer who can
rewrite rows cannot compute their seals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

KEY_ID = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
MIN_KEY_BYTES = 32


class KeyConfigError(ImproperlyConfigured):
    """AUDIT_HMAC_KEYS is missing or malformed; the message names the entry and what is wrong."""


@dataclass(frozen=True)
class KeyRing:
    ids: tuple[str, ...]  # newest first
    keys: dict[str, bytes]

    @property
    def current_id(self) -> str:
        return self.ids[0]

    def key(self, key_id: str) -> bytes:
        try:
            return self.keys[key_id]
        except KeyError:
            raise KeyConfigError(
                f"The audit key {key_id!r} is not listed in AUDIT_HMAC_KEYS; rows and checkpoints "
                "sealed with it cannot be verified or continued."
            ) from None


def parse(entries: list[str] | tuple[str, ...] | str) -> KeyRing:
    """`["k2:<hex>", "k1:<hex>"]` (or the same comma-separated) -> KeyRing. KeyConfigError if bad."""
    if isinstance(entries, str):
        entries = [e for e in entries.split(",")]
    entries = [e.strip() for e in entries if e and e.strip()]
    if not entries:
        raise KeyConfigError("AUDIT_HMAC_KEYS is empty.")
    ids: list[str] = []
    keys: dict[str, bytes] = {}
    for n, entry in enumerate(entries, start=1):
        key_id, sep, hexkey = entry.partition(":")
        if not sep:
            raise KeyConfigError(f"AUDIT_HMAC_KEYS entry {n} is not 'id:hexkey'.")
        if not KEY_ID.match(key_id):
            raise KeyConfigError(
                f"AUDIT_HMAC_KEYS entry {n}: the key id {key_id!r} must be 1-32 letters, digits, '_', '.' or '-'."
            )
        try:
            key = bytes.fromhex(hexkey)
        except ValueError:
            raise KeyConfigError(f"AUDIT_HMAC_KEYS entry {n} ({key_id}): the key is not hexadecimal.") from None
        if len(key) < MIN_KEY_BYTES:
            raise KeyConfigError(
                f"AUDIT_HMAC_KEYS entry {n} ({key_id}): the key has {len(key)} bytes, at least "
                f"{MIN_KEY_BYTES} are needed ({2 * MIN_KEY_BYTES} hex characters)."
            )
        if key_id in keys:
            raise KeyConfigError(f"AUDIT_HMAC_KEYS lists the key id {key_id!r} twice.")
        ids.append(key_id)
        keys[key_id] = key
    return KeyRing(tuple(ids), keys)


@lru_cache(maxsize=8)
def _cached(entries: tuple[str, ...]) -> KeyRing:
    return parse(entries)


def keyring() -> KeyRing:
    """The configured keys (parsed once per distinct setting value, so test overrides take effect)."""
    value = getattr(settings, "AUDIT_HMAC_KEYS", ())
    if isinstance(value, str):
        value = value.split(",")
    return _cached(tuple(value))
