"""Casino fixtures: published rule versions."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

#: Version 1 of every published variant takes effect here (operator's zone).
V1_FROM = dt.datetime(2026, 1, 1)


@pytest.fixture
def published(db):
    """Every built-in variant published as version 1 from 2026-01-01 00:00 (Helsinki)."""
    from casino.services import publish_builtin_variants  # noqa: PLC0415  (Django is set up by now; see tests/conftest.py)

    return publish_builtin_variants(actor="system:test", effective_from=timezone.make_aware(V1_FROM))


@pytest.fixture
def publisher(make_staff):
    from compliance import roles  # noqa: PLC0415  (as above)

    return make_staff(roles.ADMINISTRATOR)
