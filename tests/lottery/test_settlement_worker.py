"""Settlement in a real Celery worker process (CI runs it with Redis and PostgreSQL)."""

from __future__ import annotations

import pytest

from tests.config.test_celery_worker import celery_worker_process  # noqa: F401  (the fixture)

pytestmark = pytest.mark.worker

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}


def test_a_worker_settles_a_confirmed_draw(celery_worker_process, make_staff):  # noqa: F811
    from lottery.models import Draw, DrawState, SettlementRun
    from lottery.services import draw_close_sales, result_confirm, result_enter
    from lottery.services import settlement as settlement_service
    from lottery.tasks import settle_run
    from tests.factories import DrawFactory
    from tests.lottery.support import add_random_lines

    draw = DrawFactory(jackpot_cents=1)
    add_random_lines(draw, 2000)
    draw_close_sales(actor="system:test", draw=draw)
    result_enter(actor=make_staff("Draw supervisor"), draw=draw, numbers=RESULT, draw_method="device", witnesses="W")
    sent = []
    real = settlement_service.enqueue
    settlement_service.enqueue = sent.append  # sent to the test's own queue below
    try:
        result_confirm(actor=make_staff("Draw supervisor"), draw=draw)
    finally:
        settlement_service.enqueue = real
    outcome = settle_run.apply_async(args=[sent[0].pk], queue=celery_worker_process).get(timeout=120)
    run = SettlementRun.objects.get(pk=sent[0].pk)
    assert (outcome["state"], run.state, Draw.objects.get(pk=draw.pk).state) == ("settled", "settled", DrawState.SETTLED)
