"""Signed checkpoints of the audit chain, kept outside the database (docs/compliance.md, "Audit trail").

A checkpoint says "at `time` the chain reached event `seq`, whose seal is `hash`", signed with
HMAC-SHA256 under the audit key the chain is sealed with at that point (`key_id`). `audit_verify`
requires the chain to reach the latest checkpoint and to have the recorded hash at every checkpoint it
reads, so a database writer who deletes the newest events and moves the head back, or empties the
table, is found out.

Where they are kept (`AUDIT_CHECKPOINT_STORE`):

- a file path (default `var/audit/checkpoints.jsonl`): one JSON line per checkpoint, opened in append
  mode only, never rewritten by Valvoja;
- `storage:<alias>[/<prefix>]`: one object per checkpoint in the Django storage `STORAGES[<alias>]`,
  never overwritten. In production this is an object store with write-once retention (e.g. S3 Object
  Lock in compliance mode through django-storages), so nobody, not even the application, can change
  or delete a checkpoint during its retention.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import hmac
import json
import os
from collections import deque
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from django.conf import settings
from django.core.files.base import ContentFile

from .auditkeys import KeyConfigError, KeyRing

VERSION = 1
_DOMAIN = b"valvoja.audit.checkpoint\n"  # a checkpoint's MAC can never be mistaken for a row's


class CheckpointError(ValueError):
    """A checkpoint record that cannot be read or whose signature does not verify."""


@dataclass(frozen=True)
class Checkpoint:
    seq: int
    hash: str
    time: str  # UTC, ISO 8601 with microseconds
    key_id: str
    signature: str
    v: int = VERSION

    @staticmethod
    def payload(seq: int, hash_: str, time: str, key_id: str, v: int = VERSION) -> bytes:
        body = json.dumps(
            {"v": v, "seq": seq, "hash": hash_, "time": time, "key_id": key_id},
            sort_keys=True,
            separators=(",", ":"),
        )
        return _DOMAIN + body.encode()

    @classmethod
    def sign(cls, *, seq: int, hash_: str, moment: dt.datetime, keys: KeyRing, key_id: str = "") -> Checkpoint:
        """Signed with `key_id` (the writer passes the key the chain is sealed with), or the newest key."""
        time = moment.astimezone(dt.timezone.utc).isoformat(timespec="microseconds")
        key_id = key_id or keys.current_id
        mac = hmac.new(keys.key(key_id), cls.payload(seq, hash_, time, key_id), hashlib.sha256).hexdigest()
        return cls(seq=seq, hash=hash_, time=time, key_id=key_id, signature=mac)

    @classmethod
    def from_json(cls, text: str, where: str) -> Checkpoint:
        try:
            d = json.loads(text)
            cp = cls(
                seq=int(d["seq"]), hash=str(d["hash"]), time=str(d["time"]), key_id=str(d["key_id"]),
                signature=str(d["signature"]), v=int(d.get("v", VERSION)),
            )
            cp.moment  # noqa: B018 - the time must parse
        except (ValueError, KeyError, TypeError) as exc:
            raise CheckpointError(f"{where}: not a checkpoint record ({exc})") from None
        return cp

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @property
    def moment(self) -> dt.datetime:
        return dt.datetime.fromisoformat(self.time)

    def verify(self, keys: KeyRing) -> None:
        """CheckpointError unless the signature is that of a listed key over these values."""
        try:
            key = keys.key(self.key_id)
        except KeyConfigError as exc:
            raise CheckpointError(f"checkpoint at seq {self.seq} ({self.time}): {exc}") from None
        expected = hmac.new(
            key, self.payload(self.seq, self.hash, self.time, self.key_id, self.v), hashlib.sha256
        ).hexdigest()
        if not hmac.compare_digest(expected, self.signature):
            raise CheckpointError(f"checkpoint at seq {self.seq} ({self.time}): the signature does not verify")


class _Store:
    def read(self) -> Iterator[Checkpoint]:  # pragma: no cover - each store has its own
        raise NotImplementedError

    def latest(self, n: int) -> list[Checkpoint]:
        """The newest `n` checkpoints (all with n=0), oldest first."""
        return list(self.read()) if n == 0 else list(deque(self.read(), maxlen=n))

    def written_before(self, moment: dt.datetime, n: int) -> list[Checkpoint]:
        """The newest `n` checkpoints written before `moment`, oldest first: what an extract of a period
        ending at `moment` shows (the same each time it is rendered: checkpoints are only appended)."""
        return list(deque((cp for cp in self.read() if cp.moment < moment), maxlen=n))


class FileCheckpointStore(_Store):
    """Append-only JSON-lines file; each append is one write of one line under an exclusive lock."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)

    def __str__(self) -> str:
        return str(self.path)

    def append(self, cp: Checkpoint) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, (cp.to_json() + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)  # closing releases the lock

    def read(self) -> Iterator[Checkpoint]:
        """Every checkpoint in the order written; CheckpointError at the first unreadable line."""
        try:
            f = self.path.open(encoding="utf-8")
        except FileNotFoundError:
            return
        with f:
            for n, line in enumerate(f, start=1):
                if line.strip():
                    yield Checkpoint.from_json(line, f"{self.path} line {n}")


class StorageCheckpointStore(_Store):
    """One object per checkpoint in a Django storage, named by time and sequence so that names sort in
    the order written; an existing name is never overwritten."""

    def __init__(self, alias: str, prefix: str = ""):
        self.alias = alias
        self.prefix = prefix.strip("/")

    def __str__(self) -> str:
        return f"storage:{self.alias}/{self.prefix}" if self.prefix else f"storage:{self.alias}"

    @property
    def storage(self):
        from django.core.files.storage import storages

        return storages[self.alias]

    def _name(self, cp: Checkpoint) -> str:
        stamp = cp.moment.strftime("%Y%m%dT%H%M%S%fZ")
        base = f"{stamp}-{cp.seq:015d}.json"
        return f"{self.prefix}/{base}" if self.prefix else base

    def append(self, cp: Checkpoint) -> None:
        name = self._name(cp)
        if self.storage.exists(name):
            raise CheckpointError(f"{self}: {name} exists already; checkpoints are never overwritten")
        saved = self.storage.save(name, ContentFile((cp.to_json() + "\n").encode()))
        if saved != name:  # the storage chose another name: the object store is not what we expect
            raise CheckpointError(f"{self}: saved as {saved} instead of {name}")

    def names(self) -> list[str]:
        try:
            _, files = self.storage.listdir(self.prefix)
        except FileNotFoundError:
            return []
        return sorted(f for f in files if f.endswith(".json"))

    def _load(self, bases: list[str]) -> Iterator[Checkpoint]:
        for base in bases:
            name = f"{self.prefix}/{base}" if self.prefix else base
            with self.storage.open(name, "rb") as f:
                text = f.read().decode("utf-8")
            yield Checkpoint.from_json(text, f"{self} {base}")

    def read(self) -> Iterator[Checkpoint]:
        return self._load(self.names())

    # Only the objects needed are opened: the names sort by time.
    def latest(self, n: int) -> list[Checkpoint]:
        names = self.names()
        return list(self._load(names if n == 0 else names[-n:]))

    def written_before(self, moment: dt.datetime, n: int) -> list[Checkpoint]:
        stamp = moment.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        names = [b for b in self.names() if b[: len(stamp)] < stamp]
        return list(self._load(names[-n:] if n else names))


def get_store(value: str | None = None) -> FileCheckpointStore | StorageCheckpointStore:
    """The store that `AUDIT_CHECKPOINT_STORE` names (or `value`)."""
    value = str(value if value is not None else settings.AUDIT_CHECKPOINT_STORE)
    if value.startswith("storage:"):
        alias, _, prefix = value.removeprefix("storage:").partition("/")
        if not alias:
            raise CheckpointError("AUDIT_CHECKPOINT_STORE 'storage:<alias>[/<prefix>]' needs a storage alias.")
        return StorageCheckpointStore(alias, prefix)
    if not value:
        raise CheckpointError("AUDIT_CHECKPOINT_STORE is empty.")
    return FileCheckpointStore(value)


