"""Compliance jobs. Tasks take ids, call a service and are safe to run twice."""

from celery import shared_task

from .audit import audit_record, verify_chain
from .jobs import JobTask


@shared_task(name="compliance.tasks.audit_verify_chain")
def audit_verify_chain() -> dict:
    """Verify the whole audit chain; a broken chain is recorded as a significant event."""
    report = verify_chain()
    if not report.ok:
        audit_record(
            actor="system:audit_verify",
            action="audit.chain_broken",
            data=report.as_dict(),
            significant=True,
        )
    return report.as_dict()


@shared_task(base=JobTask, name="compliance.tasks.report_generate", soft_time_limit=1800, time_limit=1900)
def report_generate(report_id: int) -> str:
    """Render one report (PDF and CSV) and archive it; safe to run twice (a durable job: compliance.jobs)."""
    from .reports import report_render

    report = report_render(report_id)
    return report.sha256 if report else "skipped"
