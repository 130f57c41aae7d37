"""Register files as jobs: the request stores the file and queues its check; a worker checks and stages
it (the four-eyes approval after staging is unchanged), publishing its progress on the import."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from compliance import file_jobs, registry_services
from compliance.models import Approval, AuditEvent, ExclusionStage, RegistryImport
from compliance.registry_services import registry_import_run, registry_import_submit
from compliance.roles import COMPLIANCE_OFFICER
from tests.factories import ExclusionRegistryFactory, finnish_id_for


@pytest.fixture
def officer_client(client, make_staff):
    client.force_login(make_staff(COMPLIANCE_OFFICER))
    return client


@pytest.fixture
def national(db):
    return ExclusionRegistryFactory(name="Finnish self-exclusion register", kind="national")


def _csv(people: int = 3, bad: bool = False) -> bytes:
    rows = [f"{finnish_id_for(dt.date(1970 + i, 1, 2), 20 + i)},FI,2024-01-01,,X{i}" for i in range(people)]
    if bad:
        rows.append("not-an-id,FI,2024-01-01,,BAD")
    return ("identifier,country,starts,ends,external_id\n" + "\n".join(rows) + "\n").encode()


def _post(client, registry, data: bytes, name="register.csv"):
    return client.post(reverse("compliance:registry-upload"),
                       {"registry": registry.pk, "file": SimpleUploadedFile(name, data), "reason": "weekly extract"})


def _submit(registry, data: bytes, **kwargs):
    import io

    return registry_import_submit(actor="system:test", registry=registry, stream=io.BytesIO(data),
                                  file_name="r.csv", **kwargs)


def test_the_upload_request_only_queues_the_check(officer_client, national):
    response = _post(officer_client, national, _csv())  # the after-commit job is not run here
    batch = RegistryImport.objects.get()
    assert (response["Location"], batch.state, ExclusionStage.objects.count(), Approval.objects.count(),
            default_storage.exists(batch.stored_file)) == (
        reverse("compliance:registry-import", args=[batch.pk]), "queued", 0, 0, True)


def test_a_second_click_attaches_to_the_queued_check(officer_client, national):
    first = _post(officer_client, national, _csv())
    second = _post(officer_client, national, _csv(), name="again.csv")
    page = officer_client.get(second["Location"]).content.decode()
    assert (RegistryImport.objects.count(), first["Location"] == second["Location"],
            "already being checked" in page) == (1, True, True)


def test_the_job_stages_the_stored_file_and_asks_for_the_second_person_with_the_reason(national):
    batch, _ = _submit(national, _csv(), reason="weekly extract")
    done = registry_import_run(batch.pk)
    approval = Approval.objects.get(kind="registry.import", target_id=str(batch.pk))
    assert (done.state, done.rows, ExclusionStage.objects.filter(batch=batch).count(), approval.reason) == (
        "staged", 3, 3, "weekly extract")


def test_a_rerun_of_the_job_stages_nothing_twice(national):
    batch, _ = _submit(national, _csv())
    registry_import_run(batch.pk)
    registry_import_run(batch.pk)
    assert (ExclusionStage.objects.count(), Approval.objects.count()) == (3, 1)


def test_a_bad_file_fails_with_its_line_numbered_errors_and_stages_nothing(national):
    batch, _ = _submit(national, _csv(bad=True))
    done = registry_import_run(batch.pk)
    assert (done.state, [e["row"] for e in done.errors], ExclusionStage.objects.count(), Approval.objects.count()) == (
        "failed", [5], 0, 0)


def test_a_job_that_crashes_records_why_and_stages_nothing(national, monkeypatch):
    batch, _ = _submit(national, _csv())

    def crash(*args, **kwargs):
        raise OSError("storage unreachable")

    monkeypatch.setattr(registry_services, "_stage_rows", crash)
    done = registry_import_run(batch.pk)
    assert (done.state, done.error, ExclusionStage.objects.count(),
            AuditEvent.objects.filter(action="registry.import_stopped").count()) == (
        "failed", "OSError: storage unreachable", 0, 1)


def test_an_import_whose_worker_died_is_checked_again(national, settings):
    batch, _ = _submit(national, _csv())
    beat = timezone.now() - dt.timedelta(seconds=settings.REGISTRY_IMPORT_STALE_SECONDS + 1)
    RegistryImport.objects.filter(pk=batch.pk).update(state="running", heartbeat_at=beat, attempts=1)
    done = registry_import_run(batch.pk)
    assert (done.state, done.attempts) == ("staged", 2)


def test_the_job_publishes_checking_then_staging(national, monkeypatch):
    made = []
    real_init = file_jobs.Progress.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.interval = 0
        made.append(self)

    monkeypatch.setattr(file_jobs.Progress, "__init__", init)
    monkeypatch.setattr(registry_services, "PROGRESS_LINES", 2)
    batch, _ = _submit(national, _csv(people=9))
    registry_import_run(batch.pk)
    phases = [p for p, _, _ in made[0].history]
    checked = [done for p, done, _ in made[0].history if p == "reading"]
    assert (phases[0], phases[-1], checked == sorted(checked), max(checked)) == ("reading", "staging", True, 10)


def test_the_status_endpoint_gives_the_phase_in_words(officer_client, national):
    batch, _ = _submit(national, _csv())
    RegistryImport.objects.filter(pk=batch.pk).update(state="running", phase="staging", progress_done=1,
                                                      progress_total=2, heartbeat_at=timezone.now())
    data = officer_client.get(reverse("compliance:registry-import-status", args=[batch.pk])).json()
    assert (data["state_label"], data["phase_label"], data["percent"]) == ("being checked", "staging the entries", 50)


def test_the_page_of_a_queued_import_polls_its_progress(officer_client, national):
    batch, _ = _submit(national, _csv())
    html = officer_client.get(reverse("compliance:registry-import", args=[batch.pk])).content.decode()
    assert ('data-running="1"' in html, "import_progress.js" in html, "waiting for a worker" in html) == (
        True, True, True)


def test_a_job_sent_again_while_the_import_looks_alive_waits_instead_of_finishing(national, settings):
    """The durable job was sent again (its worker's heartbeat stopped) before the import's own limit
    passed: the job is put back to wait, so the import is not left running with its job done."""
    from compliance import jobs

    batch, _ = _submit(national, _csv())
    RegistryImport.objects.filter(pk=batch.pk).update(state="running", heartbeat_at=timezone.now(), attempts=1)
    token = jobs._current.set(jobs.Running(job_id=0, worker="w2", attempts=2, beats=[]))
    try:
        with pytest.raises(jobs.JobDeferred):
            registry_import_run(batch.pk)
        assert RegistryImport.objects.get(pk=batch.pk).attempts == 1
        beat = timezone.now() - dt.timedelta(seconds=settings.REGISTRY_IMPORT_STALE_SECONDS + 1)
        RegistryImport.objects.filter(pk=batch.pk).update(heartbeat_at=beat)
        running = jobs.current()
        done = registry_import_run(batch.pk)
    finally:
        jobs._current.reset(token)
    assert (done.state, done.attempts, len(running.beats)) == ("staged", 2, 1)


def test_the_jobs_heartbeat_keeps_the_claimed_import_fresh(national):
    from compliance import jobs

    batch, _ = _submit(national, _csv())
    token = jobs._current.set(jobs.Running(job_id=0, worker="w1", attempts=1, beats=[]))
    try:
        attempt = file_jobs.claim_for_job(RegistryImport, batch.pk, stale_seconds=60)
        old = timezone.now() - dt.timedelta(seconds=50)
        RegistryImport.objects.filter(pk=batch.pk).update(heartbeat_at=old)
        for beat in jobs.current().beats:
            beat()
    finally:
        jobs._current.reset(token)
    assert attempt == 1 and RegistryImport.objects.get(pk=batch.pk).heartbeat_at > old
