"""Lottery jobs. Tasks take ids, call a service and are safe to run twice.

Settlement, payouts and refunds are durable jobs (compliance.jobs): the services enqueue them in the
transaction of the change that causes them, and `JobTask` runs them under the job's claim and
heartbeat. Called without a job (by hand: `celery call lottery.tasks.pay_draw --args '[42]'`), the
same body runs directly."""

from __future__ import annotations

from celery import shared_task

from compliance.jobs import JobTask


@shared_task(name="lottery.tasks.close_due_draws")
def close_due_draws() -> dict:
    """Every minute: open sales that are due and close sales whose close time has passed."""
    from .services.draws import close_due_draws as run

    return run(actor="system:draw_clock")


@shared_task(base=JobTask, name="lottery.tasks.settle_run", soft_time_limit=3 * 60 * 60,
             time_limit=3 * 60 * 60 + 60)
def settle_run(run_id: int) -> dict:
    """Settle one run (claimed by compare-and-set; a repeated or late message does nothing)."""
    from .services.settlement import settle_job

    return settle_job(run_id)


@shared_task(name="lottery.tasks.settlement_watchdog")
def settlement_watchdog() -> list[int]:
    """Every minute: give every open run whose worker died or whose job went missing a job again."""
    from .services.settlement import watchdog

    return watchdog()


@shared_task(base=JobTask, name="lottery.tasks.pay_draw", soft_time_limit=3 * 60 * 60, time_limit=3 * 60 * 60 + 60)
def pay_draw(draw_id: int) -> dict:
    """Credit the due payouts of an approved draw (one ledger entry each; a rerun pays nothing twice)."""
    from .services.payouts import pay_draw as run

    return run(draw_id)


@shared_task(base=JobTask, name="lottery.tasks.pay_refunds", soft_time_limit=3 * 60 * 60,
             time_limit=3 * 60 * 60 + 60)
def pay_refunds(draw_id: int) -> dict:
    """Refund the players' stakes of a cancelled draw to their game accounts."""
    from .services.payouts import pay_refunds as run

    return run(draw_id)


# An import of 10,000,000 lines takes minutes; the limit stops one that hangs.
@shared_task(base=JobTask, name="lottery.tasks.retail_import_run", soft_time_limit=2 * 60 * 60, time_limit=2 * 60 * 60 + 60)
def retail_import_run(import_id: int) -> dict:
    """Load a retail sales file handed in by the staff page or the API (claimed by compare-and-set:
    a repeated or late message does nothing; all or nothing)."""
    from .services.retail import retail_import_run as run

    record = run(import_id)
    return {"import": record.pk, "state": record.state, "rows": record.rows, "error_count": record.error_count}
