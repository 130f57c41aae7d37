"""Periodic jobs, stored in the database for django-celery-beat and kept in sync after `migrate`.

Staff may change a schedule's timing in the admin; a sync only creates missing entries and keeps
their task names right, it does not undo a retimed crontab.
"""

from django.conf import settings

# name -> (task, crontab fields in the operator's zone)
SCHEDULES = {
    "Verify the audit chain": ("compliance.tasks.audit_verify_chain", {"minute": "15", "hour": "3"}),
    # How much of the newest history a database writer could remove undetected (with the head moved
    # back, triggers off) is at most what was written since the last checkpoint: a few minutes.
    "Write an audit checkpoint": ("compliance.tasks.audit_checkpoint", {"minute": "*/5"}),
    "Open and close draw sales": ("lottery.tasks.close_due_draws", {"minute": "*"}),
    "Restart stalled settlements": ("lottery.tasks.settlement_watchdog", {"minute": "*"}),
    # Hourly, so a day's change is seen within the hour even when beat was down at midnight; idempotent.
    "Mark overdue complaint deadlines": ("casino.tasks.complaint_deadlines", {"minute": "7"}),
    # A gaming day is posted from 06:00 the next day; hourly, so a day that waited (rounds still being
    # verified, a large win awaiting its second person) is posted within the hour it may be.
    "Post the casino jackpots' gaming days": ("casino.tasks.post_jackpot_days", {"minute": "20"}),
}


def sync_schedules() -> None:
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    for name, (task, cron) in SCHEDULES.items():
        if PeriodicTask.objects.filter(name=name).exists():
            PeriodicTask.objects.filter(name=name).exclude(task=task).update(task=task)
            continue
        schedule, _ = CrontabSchedule.objects.get_or_create(
            minute=cron.get("minute", "*"),
            hour=cron.get("hour", "*"),
            day_of_week=cron.get("day_of_week", "*"),
            day_of_month=cron.get("day_of_month", "*"),
            month_of_year=cron.get("month_of_year", "*"),
            timezone=settings.TIME_ZONE,
        )
        PeriodicTask.objects.create(name=name, task=task, crontab=schedule)
