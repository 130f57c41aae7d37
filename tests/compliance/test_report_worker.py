"""A report is rendered by a real Celery worker process when a broker is configured (CI: Redis)."""

from __future__ import annotations

import time

import pytest

from tests.config.test_celery_worker import celery_worker_process  # noqa: F401  (the worker fixture)

pytestmark = pytest.mark.worker


@pytest.fixture
def shared_media(monkeypatch, settings, tmp_path):
    """The worker is another process: it must archive where this test reads."""
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path))
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_real_worker_renders_and_archives_a_report(shared_media, celery_worker_process):  # noqa: F811
    from compliance.models import Report
    from compliance.tasks import report_generate

    report = Report.objects.create(kind="exclusion_hits", params={"since": "2001-01-01", "until": "2001-01-31"},
                                   version="1", created_by_repr="system:test")
    report_generate.apply_async(args=[report.pk], queue=celery_worker_process)  # by hand: no job, no result
    deadline = time.monotonic() + 120
    while Report.objects.get(pk=report.pk).status in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.25)
    report.refresh_from_db()
    assert (report.status, report.pages, report.pdf.path.startswith(str(shared_media))) == ("done", 1, True)
