"""Long work on an uploaded file, out of the web request (retail sales files, register files).

The request stores the upload (content-addressed by SHA-256: the same file twice is one stored
file), records the import `queued` and answers; a Celery task claims the record and does the work,
publishing its phase and progress on the record, which the import's page polls.

* `HashingTemporaryFileUploadHandler` / `HashingMemoryFileUploadHandler` (settings
  FILE_UPLOAD_HANDLERS): the SHA-256 of an upload is computed while it arrives, so that the request
  does not read the file once more to name it.
* `store_upload` saves a file under `uploads/sha256/<2 hex>/<sha256>` in the default storage.
* `claim` takes a record for a worker by a conditional UPDATE (queued, or running with a heartbeat
  older than the stale limit: its worker died), returning the attempt number that every later write
  of the worker is conditioned on, so that a worker that lost its claim cannot finish the import.
* `Progress` writes phase, progress and heartbeat on the record: on PostgreSQL through a connection
  of its own in autocommit, so that the page sees them while the import's transaction is still
  open; elsewhere through the ORM (SQLite allows one writer: the import's own connection).

Models using this derive from `compliance.models.FileJobRecord` (the stored file, the job's error,
progress, heartbeat and claim attempt) and add their `state` and `phase`. `attach` is the one answer
to a second upload of a file being imported (registry_services, lottery's retail imports).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from django.core.files.storage import default_storage
from django.core.files.uploadhandler import MemoryFileUploadHandler, TemporaryFileUploadHandler
from django.db import connection, models
from django.utils import timezone

from . import jobs

log = logging.getLogger(__name__)

BLOCK = 1 << 20
UPLOAD_PREFIX = "uploads/sha256"
QUEUED, RUNNING = "queued", "running"
ACTIVE = (QUEUED, RUNNING)


# ------------------------------------------------------------------------------------------------
# uploads: hashed while they arrive, stored once per content
# ------------------------------------------------------------------------------------------------

class _Hashing:
    """Mixin of an upload handler: the SHA-256 of each file as its chunks arrive (`file.sha256`)."""

    def new_file(self, *args, **kwargs):
        self._digest = hashlib.sha256()
        return super().new_file(*args, **kwargs)

    def receive_data_chunk(self, raw_data, start):
        if getattr(self, "_digest", None) is not None:
            self._digest.update(raw_data)
        return super().receive_data_chunk(raw_data, start)

    def file_complete(self, file_size):
        uploaded = super().file_complete(file_size)
        if uploaded is not None:
            uploaded.sha256 = self._digest.hexdigest()
        return uploaded


class HashingMemoryFileUploadHandler(_Hashing, MemoryFileUploadHandler):
    pass


class HashingTemporaryFileUploadHandler(_Hashing, TemporaryFileUploadHandler):
    pass


def fingerprint(file: IO[bytes]) -> tuple[str, int]:
    """(SHA-256, size) of a file: from the upload handler when it hashed the upload, else read once."""
    known = getattr(file, "sha256", None)
    if known and getattr(file, "size", None) is not None:
        return known, int(file.size)
    source = getattr(file, "file", file)
    source.seek(0)
    digest = hashlib.sha256()
    size = 0
    while block := source.read(BLOCK):
        digest.update(block)
        size += len(block)
    source.seek(0)
    return digest.hexdigest(), size


def stored_name(sha256: str) -> str:
    return f"{UPLOAD_PREFIX}/{sha256[:2]}/{sha256}"


def store_upload(file: IO[bytes], sha256: str) -> str:
    """Save the file in the default storage under its SHA-256 (once: a file already stored is kept);
    return its name there."""
    from django.core.files import File

    name = stored_name(sha256)
    if default_storage.exists(name):
        return name
    source = getattr(file, "file", file)
    source.seek(0)
    wrapped = file if hasattr(file, "temporary_file_path") else File(source, name=name)
    saved = default_storage.save(name, wrapped)
    if saved != name:  # stored meanwhile by a request with the same file: keep one copy
        default_storage.delete(saved)
    if hasattr(source, "seek") and not getattr(source, "closed", False):
        source.seek(0)
    return name


# ------------------------------------------------------------------------------------------------
# claims and progress
# ------------------------------------------------------------------------------------------------

def claim(model: type[models.Model], pk: int, *, stale_seconds: int, **running_fields: Any) -> int | None:
    """Take the record for this worker: queued, or running with no heartbeat for `stale_seconds`.
    Returns the attempt number (the condition of the worker's later writes), or None when another
    worker holds it or it has finished (a repeated or late message does nothing)."""
    now = timezone.now()
    stale = now - dt.timedelta(seconds=stale_seconds)
    taken = model.objects.filter(
        models.Q(state=QUEUED) | models.Q(state=RUNNING, heartbeat_at__lt=stale), pk=pk,
    ).update(state=RUNNING, attempts=models.F("attempts") + 1, heartbeat_at=now, **running_fields)
    if taken != 1:
        return None
    return model.objects.filter(pk=pk).values_list("attempts", flat=True).get()


def claim_for_job(model: type[models.Model], pk: int, *, stale_seconds: int, **running_fields: Any) -> int | None:
    """`claim` for the body of a durable job (compliance.jobs). While the job runs, its heartbeat also
    keeps the record's heartbeat fresh, so the record is stale exactly when the job's worker is gone.
    When the record is still held by an attempt that looks alive (the job was sent again before the
    record's own limit passed), the job is put back to wait (`JobDeferred`) instead of finishing with
    the record left running: it is claimed once the old attempt is stale."""
    attempt = claim(model, pk, stale_seconds=stale_seconds, **running_fields)
    if attempt is None:
        if jobs.current() is not None and model.objects.filter(pk=pk, state=RUNNING).exists():
            raise jobs.JobDeferred(max(5.0, stale_seconds / 3), "another attempt still holds this import")
        return None
    jobs.on_heartbeat(lambda: model.objects.filter(pk=pk, state=RUNNING, attempts=attempt).update(
        heartbeat_at=timezone.now()))
    return attempt


class ImportLost(Exception):
    """Another worker took the import over (this one was presumed dead): this one's work is undone."""


def finish(record: models.Model, **fields: Any) -> None:
    """Write the outcome on the claimed record, if this worker still holds it (same attempt, still
    queued or running); else raise ImportLost so that the caller's transaction rolls back."""
    fields.setdefault("phase", "")
    fields.setdefault("heartbeat_at", timezone.now())
    model = type(record)
    done = model.objects.filter(pk=record.pk, state__in=ACTIVE, attempts=record.attempts).update(**fields)
    if done != 1:
        raise ImportLost(record.pk)
    for name, value in fields.items():
        setattr(record, name, value)


def is_stale(record, *, stale_seconds: int) -> bool:
    """A running record whose worker has not written for `stale_seconds` (presumed dead)."""
    beat = record.heartbeat_at
    return record.state == RUNNING and (beat is None or beat < timezone.now() - dt.timedelta(seconds=stale_seconds))


def attach(active, *, stale_seconds: int, start: Callable[[int], None],
           stopped: Callable[[Any], None]):
    """The import a second upload of the same file attaches to, nudged when its job may be lost
    (`start(pk)` sends it again: a repeated message is harmless, the claim); or None when it had
    stopped for good, having no stored file to read again (a command-line import whose process
    ended): `stopped(record)` marks it failed, and the caller queues the upload anew."""
    if active.state == QUEUED or is_stale(active, stale_seconds=stale_seconds):
        if not active.stored_file:
            stopped(active)
            return None
        start(active.pk)
    return active


class Progress:
    """Phase, progress (done of total, in the phase's unit) and heartbeat of a claimed record.

    `phase()` writes at once; `advance()` at most once per `interval` seconds. Writes are conditioned
    on the claim (state running, same attempt). Thread-safe."""

    def __init__(self, model: type[models.Model], pk: int, attempt: int, *, interval: float = 1.0):
        self.table = model._meta.db_table
        self.model = model
        self.pk = pk
        self.attempt = attempt
        self.interval = interval
        self.lock = threading.Lock()
        self.last = 0.0
        self.side = None  # PostgreSQL: a connection of its own
        self.current = ""
        self.history: list[tuple[str, int, int]] = []  # every value written, for the tests and the log

    def phase(self, name: str, done: int = 0, total: int = 0, **extra: Any) -> None:
        with self.lock:
            self.current = name
            self._write(dict(phase=name, progress_done=done, progress_total=total, **extra))

    def advance(self, done: int, total: int | None = None, *, force: bool = False, **extra: Any) -> None:
        now = time.monotonic()
        if not force and now - self.last < self.interval:
            return
        with self.lock:
            fields = dict(progress_done=done, **extra)
            if total is not None:
                fields["progress_total"] = total
            self._write(fields)

    def _write(self, fields: dict[str, Any]) -> None:
        self.last = time.monotonic()
        fields["heartbeat_at"] = timezone.now()
        self.history.append((fields.get("phase", self.current), int(fields.get("progress_done", 0)),
                             int(fields.get("progress_total", 0))))
        try:
            if connection.vendor == "postgresql":
                self._write_side(fields)
            else:
                self.model.objects.filter(pk=self.pk, state=RUNNING, attempts=self.attempt).update(**fields)
        except Exception:  # noqa: BLE001 - progress is for the page; the work goes on without it
            log.warning("progress of %s %s not written", self.table, self.pk, exc_info=True)

    def _write_side(self, fields: dict[str, Any]) -> None:
        if self.side is None:
            self.side = side_connection()
            # Never wait on the importing transaction (it touches the record only at its very end).
            self.side.execute("SET lock_timeout = '500ms'")
        names = list(fields)
        sets = ", ".join(f"{name} = %s" for name in names)
        self.side.execute(
            f"UPDATE {self.table} SET {sets} WHERE id = %s AND state = %s AND attempts = %s",
            [fields[n] for n in names] + [self.pk, RUNNING, self.attempt],
        )

    def close(self) -> None:
        with self.lock:
            if self.side is not None:
                self.side.close()
                self.side = None


def side_connection():
    """Another connection to the default PostgreSQL database, in autocommit (its writes are seen at
    once, whatever transaction the caller's connection is in)."""
    import psycopg

    s = connection.settings_dict
    options = {k: v for k, v in (s.get("OPTIONS") or {}).items() if k in ("sslmode", "sslrootcert", "sslcert", "sslkey")}
    return psycopg.connect(
        dbname=s["NAME"], user=s.get("USER") or None, password=s.get("PASSWORD") or None,
        host=s.get("HOST") or None, port=s.get("PORT") or None, autocommit=True, **options,
    )


def percent(record) -> int | None:
    """The progress of the record's phase in percent, or None when the phase has no measure."""
    total = getattr(record, "progress_total", 0) or 0
    if total <= 0:
        return None
    return max(0, min(100, int(100 * (record.progress_done or 0) / total)))
