"""Casino jobs. Tasks take ids, call a service and are safe to run twice."""

from __future__ import annotations

from celery import shared_task

from compliance.jobs import JobTask


# A batch of 1,000,000 rounds takes about a minute; the limit stops one that hangs.
@shared_task(base=JobTask, name="casino.tasks.verify_batch", soft_time_limit=2 * 60 * 60, time_limit=2 * 60 * 60 + 60)
def verify_batch(batch_id: int) -> dict:
    """Verify a batch of recorded rounds (resumes after the last chunk written; a rerun changes nothing)."""
    from .verification import verify_batch as run  # the task module loads before the app registry

    return run(batch_id)


@shared_task(name="casino.tasks.complaint_deadlines")
def complaint_deadlines() -> dict:
    """Every hour: mark each complaint deadline that passed unmet, once, with a significant audit event
    (a second run marks nothing)."""
    from .complaints import complaints_mark_overdue  # as above

    return complaints_mark_overdue()
@shared_task(name="casino.tasks.post_jackpot_days")
def post_jackpot_days() -> dict:
    """Every hour (compliance.schedules): post the jackpots' gaming days that are over; each day once per
    jackpot (its row locked, the day unique), so a second run or a late message posts nothing twice."""
    from .jackpots import post_due_days  # the task module loads before the app registry

    return post_due_days()
