"""Settlement in a real Celery worker process (CI runs it with Redis and PostgreSQL)."""

from __future__ import annotations

import time

import pytest

from tests.config.test_celery_worker import celery_worker_process  # noqa: F401  (the fixture)

pytestmark = pytest.mark.worker

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}


def test_a_worker_settles_a_confirmed_draw(celery_worker_process, make_staff):  # noqa: F811
    from compliance.models import Job
    from lottery.models import Draw, DrawState, SettlementRun
    from lottery.services import draw_close_sales, result_confirm, result_enter
    from lottery.services import settlement as settlement_service
    from tests.factories import DrawFactory
    from tests.lottery.support import add_random_lines

    draw = DrawFactory(jackpot_cents=1)
    add_random_lines(draw, 2000)
    draw_close_sales(actor="system:test", draw=draw)
    result_enter(actor=make_staff("Draw supervisor"), draw=draw, numbers=RESULT, draw_method="device", witnesses="W")
    result_confirm(actor=make_staff("Draw supervisor"), draw=draw)  # its job goes to the test's worker
    run = SettlementRun.objects.get(draw=draw)
    deadline = time.monotonic() + 120
    while SettlementRun.objects.get(pk=run.pk).state in ("pending", "running") and time.monotonic() < deadline:
        time.sleep(0.25)
    job = Job.objects.get(key=settlement_service.job_key(run.pk))
    run.refresh_from_db()
    assert (run.state, job.state, Draw.objects.get(pk=draw.pk).state) == ("settled", "done", DrawState.SETTLED)
