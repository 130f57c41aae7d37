"""Compliance jobs. Tasks take ids, call a service and are safe to run twice."""

from celery import shared_task

from . import registry_services
from .audit import audit_record, checkpoint_write, verify_chain
from .jobs import JobTask
from .reports import report_render


def _record_broken(report) -> None:
    audit_record(actor="system:audit_verify", action="audit.chain_broken", data=report.as_dict(), significant=True)


@shared_task(name="compliance.tasks.audit_verify_chain")
def audit_verify_chain() -> dict:
    """Verify the whole audit chain against its key and the newest checkpoints; a broken chain is
    recorded as a significant event."""
    report = verify_chain()
    if not report.ok:
        _record_broken(report)
    return report.as_dict()


@shared_task(name="compliance.tasks.audit_checkpoint")
def audit_checkpoint() -> dict:
    """Verify the events since the newest checkpoint and write a signed checkpoint of the chain's end
    outside the database. Safe to run twice: nothing is written when the chain has not grown. A broken
    chain is not checkpointed; it is recorded as a significant event."""
    checkpoint, report = checkpoint_write()
    if not report.ok:
        _record_broken(report)
    return {**report.as_dict(), "written": checkpoint is not None,
            "written_seq": checkpoint.seq if checkpoint else None}


@shared_task(base=JobTask, name="compliance.tasks.report_generate", soft_time_limit=1800, time_limit=1900)
def report_generate(report_id: int) -> str:
    """Render one report (PDF and CSV) and archive it; safe to run twice (a durable job: compliance.jobs)."""
    report = report_render(report_id)
    return report.sha256 if report else "skipped"


@shared_task(base=JobTask, name="compliance.tasks.registry_import_run", soft_time_limit=3600, time_limit=3660)
def registry_import_run(import_id: int) -> dict:
    """Check and stage a register file handed in by the staff page (claimed by compare-and-set: a
    repeated or late message does nothing)."""
    batch = registry_services.registry_import_run(import_id)
    return {"import": batch.pk, "state": batch.state, "rows": batch.rows}
