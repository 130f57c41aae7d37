"""Production settings pass Django's deployment checks, and refuse to start without a secret."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_environment():
    result = _manage(
        "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="false", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="valvoja.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_secret_key_refuses_to_start():
    result = _manage("check", DEBUG="false", ALLOWED_HOSTS="valvoja.example.com")
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr
