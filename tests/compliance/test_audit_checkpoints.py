"""Signed checkpoints of the audit chain outside the database: the stores, the signature, the job and
the command, and the audit extract that shows them (docs/compliance.md, "Audit trail")."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from compliance.audit import audit_record, checkpoint_write, verify_chain
from compliance.checkpoints import (
    Checkpoint,
    CheckpointError,
    FileCheckpointStore,
    StorageCheckpointStore,
    get_store,
)
from compliance.models import AuditChainHead


def _events(n: int = 3) -> None:
    for i in range(n):
        audit_record(actor="system:test", action=f"test.cp{i}")


def _head_seq() -> int:
    return AuditChainHead.objects.get(pk=1).last_seq


def test_a_checkpoint_records_where_the_chain_ends(db):
    _events()
    cp, _ = checkpoint_write()
    head = AuditChainHead.objects.get(pk=1)
    assert (cp.seq, cp.hash) == (head.last_seq, head.last_hash)


def test_the_checkpoint_is_appended_to_the_configured_file(db, settings):
    _events()
    cp, _ = checkpoint_write()
    lines = open(settings.AUDIT_CHECKPOINT_STORE).read().splitlines()
    assert [json.loads(line)["seq"] for line in lines] == [cp.seq]


def test_no_checkpoint_is_written_when_the_chain_has_not_grown(db):
    _events()
    checkpoint_write()
    assert checkpoint_write()[0] is None and len(get_store().latest(0)) == 1


def test_a_new_checkpoint_is_written_when_the_chain_grows(db):
    _events()
    checkpoint_write()
    _events(1)
    cp, _ = checkpoint_write()
    assert cp.seq == _head_seq() and [c.seq for c in get_store().latest(0)][-1] == cp.seq


def test_a_checkpoint_whose_values_were_changed_does_not_verify(db, settings):
    """Someone who can write the file moves the checkpoint back; the signature gives it away."""
    _events()
    checkpoint_write()
    path = settings.AUDIT_CHECKPOINT_STORE
    record = json.loads(open(path).read())
    record["seq"] -= 1
    open(path, "w").write(json.dumps(record) + "\n")
    report = verify_chain()
    assert not report.ok and "signature does not verify" in report.reason


def test_an_unreadable_checkpoint_record_fails_verification(db, settings):
    _events()
    checkpoint_write()
    with open(settings.AUDIT_CHECKPOINT_STORE, "a") as f:
        f.write("not json\n")
    report = verify_chain()
    assert not report.ok and "line 2" in report.reason


def test_a_checkpoint_signed_with_an_unlisted_key_does_not_verify(db):
    from compliance.auditkeys import keyring

    _events()
    checkpoint_write()
    with override_settings(AUDIT_HMAC_KEYS=["other:" + "cd" * 32]):
        with pytest.raises(CheckpointError, match="not listed"):
            get_store().latest(1)[0].verify(keyring())


def test_verification_reports_the_checkpoint_it_compared(db):
    _events()
    cp, _ = checkpoint_write()
    report = verify_chain()
    assert (report.ok, report.checkpoint_seq, report.checkpoints) == (True, cp.seq, 1)


def test_a_checkpoint_differing_from_the_chain_at_its_number_is_reported_there(db, settings):
    """A checkpoint of another chain (a restored or rebuilt database) does not match this one."""
    from compliance.auditkeys import keyring

    _events()
    seq = _head_seq()
    forged = Checkpoint.sign(seq=seq, hash_="ab" * 32, moment=timezone.now(), keys=keyring())
    FileCheckpointStore(settings.AUDIT_CHECKPOINT_STORE).append(forged)
    report = verify_chain()
    assert (report.ok, report.bad_seq) == (False, seq) and "checkpoint" in report.reason


STORAGES_WITH_CHECKPOINTS = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "audit_checkpoints": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
}


@override_settings(STORAGES=STORAGES_WITH_CHECKPOINTS, AUDIT_CHECKPOINT_STORE="storage:audit_checkpoints/valvoja")
def test_checkpoints_go_to_a_django_storage_one_object_each(db):
    _events()
    first, _ = checkpoint_write()
    _events(1)
    second, _ = checkpoint_write()
    store = get_store()
    assert isinstance(store, StorageCheckpointStore)
    assert [c.seq for c in store.latest(0)] == [first.seq, second.seq] and verify_chain().ok


@override_settings(STORAGES=STORAGES_WITH_CHECKPOINTS, AUDIT_CHECKPOINT_STORE="storage:audit_checkpoints")
def test_a_stored_checkpoint_is_never_overwritten(db):
    _events()
    cp, _ = checkpoint_write()
    with pytest.raises(CheckpointError, match="never overwritten"):
        get_store().append(cp)


@pytest.mark.parametrize("storage", [False, True])
def test_checkpoints_written_before_a_moment_are_the_newest_before_it(db, settings, storage):
    from compliance.auditkeys import keyring

    if storage:
        settings.STORAGES = STORAGES_WITH_CHECKPOINTS
        settings.AUDIT_CHECKPOINT_STORE = "storage:audit_checkpoints"
    store = get_store()
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    for i in range(4):
        store.append(Checkpoint.sign(seq=i + 1, hash_=f"{i:064x}", moment=t0 + dt.timedelta(hours=i), keys=keyring()))
    chosen = store.written_before(t0 + dt.timedelta(hours=2, minutes=30), 2)
    assert [c.seq for c in chosen] == [2, 3]


def test_the_checkpoint_job_writes_a_checkpoint(db):
    from compliance.tasks import audit_checkpoint

    _events()
    result = audit_checkpoint.apply().get()
    assert (result["written"], result["written_seq"]) == (True, _head_seq())


def test_the_checkpoint_job_is_scheduled_every_five_minutes(db):
    from django_celery_beat.models import PeriodicTask

    from compliance.schedules import sync_schedules

    sync_schedules()
    task = PeriodicTask.objects.get(task="compliance.tasks.audit_checkpoint")
    assert task.crontab.minute == "*/5"


def test_the_checkpoint_command_writes_and_lists(db, capsys):
    _events()
    call_command("audit_checkpoint")
    call_command("audit_checkpoint", "--list", "5")
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [c["seq"] for c in listed] == [_head_seq()]


# -- the audit extract shows them ------------------------------------------------------------------------

def _extract_text(officer, since: str, until: str) -> str:
    import io

    from pypdf import PdfReader

    from compliance.models import Report
    from compliance.reports import report_render, report_request

    report = report_request(actor=officer, kind="audit_extract", params={"since": since, "until": until})
    report_render(report.pk)
    with Report.objects.get(pk=report.pk).pdf.open("rb") as f:
        return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(f.read())).pages)


@pytest.fixture
def officer(make_staff, settings, tmp_path):
    from compliance.roles import COMPLIANCE_OFFICER

    settings.MEDIA_ROOT = tmp_path
    return make_staff(COMPLIANCE_OFFICER)


def test_the_audit_extract_shows_the_newest_checkpoints(officer):
    _events()
    cp, _ = checkpoint_write()
    today = timezone.localdate()
    text = _extract_text(officer, (today - dt.timedelta(days=1)).isoformat(), today.isoformat())
    assert "Checkpoints" in text and cp.hash[:32] in text.replace("\n", "").replace(" ", "")


def test_the_audit_extract_of_a_past_period_leaves_out_later_checkpoints(officer):
    _events()
    checkpoint_write()
    text = _extract_text(officer, "2001-01-01", "2001-01-31")
    assert "No checkpoint was written before the end of the period." in text.replace("\n", " ")
