"""Fixtures of the draw pipeline tests."""

from __future__ import annotations

import pytest

# Django and the apps are imported inside the fixtures, so that the rules-engine tests below
# (tests/lottery/rules) also run without Django: `pytest -p no:django tests/lottery/rules`.


def _supervisor(make_staff):
    from compliance.roles import DRAW_SUPERVISOR

    return make_staff(DRAW_SUPERVISOR)


@pytest.fixture
def people(make_staff):
    """Three Draw supervisors: the enterer, the confirmer and a third for the settlement's approval."""
    return [_supervisor(make_staff) for _ in range(3)]


@pytest.fixture
def enterer(make_staff):
    return _supervisor(make_staff)


@pytest.fixture
def confirmer(make_staff):
    return _supervisor(make_staff)


@pytest.fixture
def confirm_result(enterer, confirmer):
    """confirm_result(draw, numbers) -> the queued settlement run (result entered and confirmed)."""
    from lottery.models import DrawState, SettlementRun
    from lottery.services import draw_close_sales, result_confirm, result_enter

    def run(draw, numbers, **kwargs):
        if draw.state == DrawState.OPEN:
            draw_close_sales(actor="system:test", draw=draw)
        result_enter(actor=enterer, draw=draw, numbers=numbers, draw_method="system", witnesses="A. Witness")
        result_confirm(actor=confirmer, draw=draw)
        return SettlementRun.objects.filter(draw=draw).order_by("-version").first()

    return run


@pytest.fixture
def make_gambler(db):
    """make_gambler(balance_cents) -> (player, open play session), the account funded by a deposit."""
    import itertools

    from players import services
    from tests.factories import PersonFactory, PlayerFactory

    counter = itertools.count(1)

    def make(balance_cents: int = 100_00):
        player = PlayerFactory(person=PersonFactory())
        if balance_cents:
            services.account_deposit(actor="channel:test", account=player.account, amount_cents=balance_cents,
                                     reference=f"fund-{player.pk}-{next(counter)}")
        session = services.session_start(actor="channel:test", player=player)
        player.account.refresh_from_db()
        return player, session

    return make


@pytest.fixture
def open_draw(db):
    """open_draw(**fields) -> a draw open for sales now (closing in an hour)."""
    import datetime as dt

    from django.utils import timezone

    from tests.factories import DrawFactory

    def make(**fields):
        now = timezone.now()
        defaults = {"sales_open_at": now - dt.timedelta(days=1), "sales_close_at": now + dt.timedelta(hours=1),
                    "draw_at": now + dt.timedelta(hours=2), "jackpot_cents": 100_000_000}
        return DrawFactory(**{**defaults, **fields})

    return make


@pytest.fixture
def to_the_draw():
    """to_the_draw(draw): move the draw's times into the past, as if its sales had ended and it was drawn."""
    import datetime as dt

    from django.utils import timezone

    from lottery.models import Draw

    def move(draw):
        now = timezone.now()
        Draw.objects.filter(pk=draw.pk).update(sales_close_at=now - dt.timedelta(minutes=10),
                                               draw_at=now - dt.timedelta(minutes=5))
        return Draw.objects.get(pk=draw.pk)

    return move


@pytest.fixture
def eager_tasks(monkeypatch):
    """Run Celery tasks in this process even when a broker is configured (CI's PostgreSQL run), for
    tests that follow a round through the after-commit settlement."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setitem(app.conf, "task_eager_propagates", True)
