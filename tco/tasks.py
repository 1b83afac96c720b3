"""Celery entry points of the TCO app: thin, by id, safe to deliver twice."""

from __future__ import annotations

from celery import shared_task
from celery.schedules import crontab
from django.db import DatabaseError

from clusterbuy.celery import app

from . import services

SWEEP_SCHEDULE_NAME = "tco-sweep-stuck-runs"


@shared_task(
    name=services.RUN_TASK_NAME,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(services.TransientRunError, DatabaseError, OSError),
    retry_backoff=5,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=services.MAX_ATTEMPTS,
    soft_time_limit=services.TASK_SOFT_TIME_LIMIT_S,
    time_limit=services.TASK_TIME_LIMIT_S,
)
def run_tco(run_id: int) -> None:
    """Full analysis + PDF of one run (see tco.services for the claim rule)."""
    services.execute_tco_run(run_id=run_id)


@shared_task(acks_late=True)
def sweep_tco_runs() -> dict:
    """Periodic: re-enqueue lost queued runs, retry runs whose worker died."""
    return services.sweep_stuck_runs()


@app.on_after_finalize.connect
def add_sweep_schedule(sender, **kwargs) -> None:
    """clusterbuy/celery.py owns the app; the sweep joins its beat schedule here.

    Runs every 5 minutes under ``celery -A clusterbuy beat``.
    """
    schedule = dict(sender.conf.beat_schedule or {})
    schedule.setdefault(
        SWEEP_SCHEDULE_NAME,
        {"task": "tco.tasks.sweep_tco_runs", "schedule": crontab(minute="*/5")},
    )
    sender.conf.beat_schedule = schedule


if app.finalized:  # this module was imported after the app finalized
    add_sweep_schedule(app)
