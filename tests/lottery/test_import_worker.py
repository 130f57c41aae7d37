"""A retail sales file is imported by a real Celery worker process when a broker is configured (CI: Redis)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.config.test_celery_worker import _wait_for, celery_worker_process  # noqa: F401  (the worker fixture)

pytestmark = pytest.mark.worker


@pytest.fixture
def shared_media(monkeypatch, settings, tmp_path):
    """The worker is another process: it must read the stored upload where this test stored it."""
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path))
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_a_real_worker_imports_the_stored_file_with_progress(shared_media, celery_worker_process):  # noqa: F811
    from lottery.models import Line, RetailImport
    from lottery.services.retail import retail_import_submit
    from lottery.tasks import retail_import_run
    from tests.factories import DrawFactory
    from tests.lottery.support import lotto_row, sales_file

    draw = DrawFactory(state="closed")
    sold = draw.sales_open_at + dt.timedelta(hours=1)
    rows = [lotto_row(f"W{i:03d}", sold, ((i + k * 5) % 40 + 1 for k in range(7))) for i in range(30)]
    record, _ = retail_import_submit(actor="system:test", draw=draw, stream=sales_file(rows), file_name="w.csv",
                                     start=False)
    # A job task keeps no result (JobTask.ignore_result: the record is the result), so `.get()` would
    # return at once; wait for the record to reach a final state instead.
    retail_import_run.apply_async(args=[record.pk], queue=celery_worker_process)
    assert _wait_for(lambda: RetailImport.objects.get(pk=record.pk).state not in ("queued", "running"))
    record.refresh_from_db()
    assert (record.state, record.lines, Line.objects.filter(draw=draw).count(), record.progress_done) == (
        "done", 30, 30, 30)
