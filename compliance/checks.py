"""System checks of the production settings that Django's own `check --deploy` does not know about.

Registered always (not only with --deploy): with DEBUG off the settings have no fallback for the
identifier keys, so a missing key must stop `migrate`, `runserver` and the web processes too, not
only the deployment check. With DEBUG on the keys are derived (dev-only) and never empty.
"""

from django.conf import settings
from django.core.checks import Error, register

from .auditkeys import KeyConfigError, parse
from .checkpoints import StorageCheckpointStore, get_store

KEYS = (
    (
        "valvoja.E001",
        "PLAYER_ID_HASH_KEY",
        "Set it to 64 random hex characters, once, and never change it: national identifiers and "
        "registry entries are looked up by this keyed hash.",
    ),
    (
        "valvoja.E002",
        "PLAYER_ID_ENCRYPTION_KEY",
        "Set it to a Fernet key (cryptography.fernet.Fernet.generate_key()).",
    ),
)


@register("security")
def identifier_keys_are_set(app_configs=None, **kwargs):
    """The identifier hash and encryption keys are set (valvoja.E001, valvoja.E002) and the
    encryption key is a usable Fernet key (valvoja.E003)."""
    errors = []
    for check_id, name, hint in KEYS:
        if not getattr(settings, name, ""):
            errors.append(Error(f"{name} is not set (required when DEBUG is false).", hint=hint, id=check_id))
    key = getattr(settings, "PLAYER_ID_ENCRYPTION_KEY", "")
    if key:
        try:
            from cryptography.fernet import Fernet
        except ImportError:  # pragma: no cover - depends on the environment
            Fernet = None
        if Fernet is not None:
            try:
                Fernet(key.encode())
            except (ValueError, TypeError):
                errors.append(
                    Error(
                        "PLAYER_ID_ENCRYPTION_KEY is not a valid Fernet key.",
                        hint="32 url-safe base64-encoded bytes, e.g. from Fernet.generate_key().",
                        id="valvoja.E003",
                    )
                )
    return errors


@register("security")
def audit_key_is_set(app_configs=None, **kwargs):
    """The audit chain's HMAC key is set (valvoja.E004) and well formed (valvoja.E005), and the
    checkpoint store names a usable place (valvoja.E006)."""
    errors = []
    entries = getattr(settings, "AUDIT_HMAC_KEYS", None)
    if not entries:
        errors.append(
            Error(
                "AUDIT_HMAC_KEYS is not set (required when DEBUG is false).",
                hint="Set it to 'id:<64 random hex characters>' (python -c 'import secrets; "
                "print(secrets.token_hex(32))'), kept outside the database; see docs/compliance.md, "
                "'Audit trail', for rotation.",
                id="valvoja.E004",
            )
        )
    else:
        try:
            parse(entries)
        except KeyConfigError as exc:
            errors.append(Error(str(exc), hint="Format: id:hexkey,oldid:hexkey (newest first).", id="valvoja.E005"))
    try:
        store = get_store()
        if isinstance(store, StorageCheckpointStore):
            store.storage  # noqa: B018 - the alias must be in STORAGES
    except Exception as exc:  # noqa: BLE001 - any configuration error (CheckpointError, unknown alias)
        errors.append(
            Error(
                f"AUDIT_CHECKPOINT_STORE is not usable: {exc}",
                hint="A file path, or storage:<alias>[/<prefix>] with <alias> in STORAGES.",
                id="valvoja.E006",
            )
        )
    return errors
