"""Production settings fail closed: they pass Django's deployment checks only with every secret set,
and refuse to start without a secret."""

import base64
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLEARED = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "PLAYER_ID_HASH_KEY",
    "PLAYER_ID_ENCRYPTION_KEY", "DATABASE_URL", "AUDIT_HMAC_KEYS",
)


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _production(**extra: str) -> dict[str, str]:
    return {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "valvoja.example.com", **extra}


def _identifier_keys() -> dict[str, str]:
    """The keys production must be given: the identifier keys and the audit chain's key."""
    return {
        "PLAYER_ID_HASH_KEY": secrets.token_hex(32),
        "PLAYER_ID_ENCRYPTION_KEY": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
        "AUDIT_HMAC_KEYS": f"prod1:{secrets.token_hex(32)}",
    }


def test_check_deploy_passes_with_production_environment():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **_production(**_identifier_keys()))
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_fails_without_the_identifier_hash_key():
    keys = _identifier_keys()
    del keys["PLAYER_ID_HASH_KEY"]
    result = _manage("check", "--deploy", **_production(**keys))
    assert result.returncode != 0 and "valvoja.E001" in result.stderr and "PLAYER_ID_HASH_KEY" in result.stderr


def test_check_deploy_fails_without_the_identifier_encryption_key():
    keys = _identifier_keys()
    del keys["PLAYER_ID_ENCRYPTION_KEY"]
    result = _manage("check", "--deploy", **_production(**keys))
    assert result.returncode != 0 and "valvoja.E002" in result.stderr


def test_check_deploy_fails_without_the_audit_key():
    keys = _identifier_keys()
    del keys["AUDIT_HMAC_KEYS"]
    result = _manage("check", "--deploy", **_production(**keys))
    assert result.returncode != 0 and "valvoja.E004" in result.stderr and "AUDIT_HMAC_KEYS" in result.stderr


def test_check_deploy_fails_with_a_malformed_audit_key():
    result = _manage("check", "--deploy", **_production(**{**_identifier_keys(), "AUDIT_HMAC_KEYS": "prod1:abcd"}))
    assert result.returncode != 0 and "valvoja.E005" in result.stderr


def test_audit_key_is_not_derived_from_the_secret_key_in_production():
    result = _manage(
        "shell", "-c", "from django.conf import settings; print(repr(settings.AUDIT_HMAC_KEYS))",
        DEBUG="false", SECRET_KEY="x" * 60,
    )
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout + result.stderr


def test_production_without_secret_key_refuses_to_start():
    result = _manage("check", DEBUG="false", ALLOWED_HOSTS="valvoja.example.com")
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_debug_is_off_when_the_environment_does_not_set_it():
    result = _manage("shell", "-c", "from django.conf import settings; print(settings.DEBUG)", SECRET_KEY="x" * 60,
                     **_identifier_keys())
    assert result.stdout.strip().splitlines()[-1] == "False", result.stdout + result.stderr


def test_identifier_hash_key_is_not_derived_from_the_secret_key_in_production():
    result = _manage(
        "shell", "-c", "from django.conf import settings; print(repr(settings.PLAYER_ID_HASH_KEY))",
        DEBUG="false", SECRET_KEY="x" * 60,
    )
    assert result.stdout.strip().splitlines()[-1] == "''", result.stdout + result.stderr


def test_seed_demo_refuses_to_run_when_debug_is_false():
    result = _manage("seed_demo", **_production(**_identifier_keys()))
    assert result.returncode == 2 and "DEBUG is false" in result.stderr
