"""Celery entry points of the vendors app: thin, by id, safe to deliver twice."""

from __future__ import annotations

from celery import shared_task
from celery.schedules import crontab
from django.db import DatabaseError

from clusterbuy.celery import app

from .portal import checking
from .portal.submissions import CHECK_TASK_NAME

SWEEP_SCHEDULE_NAME = "vendors-sweep-submission-checks"


@shared_task(
    name=CHECK_TASK_NAME,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError, OSError),
    retry_backoff=5,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=5,
    soft_time_limit=120,
    time_limit=150,
)
def check_submission(submission_id: int) -> bool:
    """Parse and give feedback on one received portal version (`portal.checking`)."""
    return checking.check_submission(submission_id=submission_id)


@shared_task(acks_late=True, name="vendors.tasks.sweep_submission_checks")
def sweep_submission_checks() -> int:
    """Periodic (beat): resend the checks whose message was lost."""
    return checking.sweep_checks()


@app.on_after_finalize.connect
def add_sweep_schedule(sender, **kwargs) -> None:
    schedule = dict(sender.conf.beat_schedule or {})
    schedule.setdefault(
        SWEEP_SCHEDULE_NAME,
        {
            "task": "vendors.tasks.sweep_submission_checks",
            "schedule": crontab(minute="*"),
        },
    )
    sender.conf.beat_schedule = schedule


if app.finalized:  # this module was imported after the app finalized
    add_sweep_schedule(app)
