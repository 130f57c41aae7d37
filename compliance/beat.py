"""The beat scheduler: django-celery-beat's database scheduler, plus a heartbeat row (so /healthz
knows beat runs) refreshed from its own loop, at most every JOBS_HEARTBEAT_SECONDS."""

from __future__ import annotations

import logging
import os
import socket
import time

from django.db import connection
from django_celery_beat.schedulers import DatabaseScheduler

from .jobs import beat_process, heartbeat_seconds
from .models import ProcessHeartbeat

log = logging.getLogger(__name__)


class Scheduler(DatabaseScheduler):
    _beat_at = 0.0

    def tick(self, *args, **kwargs):
        now = time.monotonic()
        if now - self._beat_at >= heartbeat_seconds():
            try:
                beat_process(ProcessHeartbeat.Role.BEAT, f"{socket.gethostname()}:{os.getpid()}")
                self._beat_at = now
            except Exception:  # noqa: BLE001 - the database may be away; the schedule keeps running
                log.warning("beat heartbeat failed", exc_info=True)
                connection.close()
        # Tick at least as often as the heartbeat, so that an idle schedule still shows beat alive.
        return min(super().tick(*args, **kwargs), heartbeat_seconds())
