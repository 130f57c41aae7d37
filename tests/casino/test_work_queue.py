"""The casino's work queue (casino.work): open discrepancies, one line per venue and day, on the dashboard of
those who resolve them and counted beside Discrepancies in the navigation; not the inspector's, and gone
once resolved."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from casino import operations
from casino.models import Discrepancy


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=io.StringIO())


def _dashboard(client, username):
    client.force_login(get_user_model().objects.get(username=username))
    return client.get(reverse("dashboard"), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_open_discrepancies_wait_for_the_manager_and_the_compliance_officer(seeded, client):
    helsinki = Discrepancy.objects.filter(venue__code="casino-helsinki", resolved_at__isnull=True)
    day = helsinki.first().day
    n = helsinki.filter(day=day).count()
    for username in ("casino", "compliance"):
        html = _dashboard(client, username)
        queue = html.split('data-queue="casino.discrepancies"')[1].split("</ul>")[0]
        assert f"{n} open discrepanc{'y' if n == 1 else 'ies'} at Casino Helsinki on " in queue
        assert f'data-work="discrepancies-{helsinki.first().venue_id}-{day.isoformat()}"' in queue
        assert f'href="{reverse("casino:discrepancies")}"' in queue
        nav = html.split('data-nav="casino:discrepancies"')[1].split("</a>")[0]
        assert 'data-count="' in nav  # counted in the header
    assert 'data-queue="casino.discrepancies"' not in _dashboard(client, "inspector")


def test_a_resolved_discrepancy_leaves_the_queue(seeded, client):
    manager = get_user_model().objects.get(username="casino")
    for d in Discrepancy.objects.filter(resolved_at__isnull=True):
        operations.discrepancy_resolve(actor=manager, discrepancy=d, note="checked")
    assert Discrepancy.objects.filter(resolved_at__isnull=True, day__lte=timezone.localdate()).count() == 0
    assert 'data-queue="casino.discrepancies"' not in _dashboard(client, "casino")
