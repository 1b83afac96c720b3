"""Celery entry points of the TCO app: thin, by id, safe to deliver twice.

Every worker also sweeps the runs of the queues it consumes (tco.sweep), from a
thread of its main process started when the worker is ready: a deployment without
beat still re-sends the runs whose broker message was never sent or was lost, and
takes back the runs of dead workers.
"""

from __future__ import annotations

import logging
import random
import threading

from celery import shared_task
from celery.schedules import crontab
from celery.signals import worker_ready, worker_shutdown
from django.db import DatabaseError, InterfaceError, OperationalError, connections

from clusterbuy.celery import app

from . import claims, services, sweep

logger = logging.getLogger(__name__)

SWEEP_SCHEDULE_NAME = "tco-sweep-stuck-runs"
#: How many times a delivery waits for another worker's live claim on its run. The
#: holder finishes or falls silent within the task's time limit (300 s) and each
#: wait lasts until its claim could be stale (up to 31 s): about ten waits at most.
BUSY_RECHECKS_MAX = 20
#: The retry policy of a run after an infrastructure error: exponential backoff from
#: RETRY_BACKOFF_S (5 s, 10 s, 20 s ...), at most RETRY_BACKOFF_MAX_S, full jitter, at
#: most `claims.MAX_ATTEMPTS` retries. A worker schedules each retry after it; the
#: thread runner sleeps it (clusterbuy.task_runner.run_in_thread).
RETRY_BACKOFF_S = 5
RETRY_BACKOFF_MAX_S = 120
#: The database (or the network to it) did not answer before the run was claimed:
#: no attempt of the run's was spent, so the delivery keeps trying, every
#: OUTAGE_RETRY_MAX_S at most, for OUTAGE_RETRIES_MAX tries (about a quarter of an
#: hour), and the run starts within OUTAGE_RETRY_MAX_S of the database's return.
#: Under the run policy above, three retries were spent within the first 35 s of an
#: outage and the run waited for the sweep's 10-minute stale rule (issue 23: 10 min
#: 21 s after a 20 s outage).
OUTAGE_ERRORS = (OperationalError, InterfaceError, OSError)
OUTAGE_RETRY_MAX_S = 15
OUTAGE_RETRIES_MAX = 60


def outage_countdown_s(retries: int) -> float:
    """5, 10, 15, 15 … s, each between half and all of it (jitter spreads the workers'
    reconnections)."""
    return min(RETRY_BACKOFF_S * 2**retries, OUTAGE_RETRY_MAX_S) * random.uniform(
        0.5, 1.0
    )


@shared_task(
    bind=True,
    name=services.RUN_TASK_NAME,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(services.TransientRunError, DatabaseError),
    retry_backoff=RETRY_BACKOFF_S,
    retry_backoff_max=RETRY_BACKOFF_MAX_S,
    retry_jitter=True,
    max_retries=claims.MAX_ATTEMPTS,
    soft_time_limit=services.TASK_SOFT_TIME_LIMIT_S,
    time_limit=services.TASK_TIME_LIMIT_S,
)
def run_tco(self, run_id: int) -> None:
    """Full analysis + PDF of one run (see tco.services for the claim rule).

    A pool child killed mid-run has its message redelivered at once
    (``reject_on_worker_lost``); that delivery finds the dead claim's heartbeat still
    fresh and comes back when it is stale, then takes the run over.
    """
    try:
        services.execute_tco_run(run_id=run_id)
    except OUTAGE_ERRORS as exc:
        raise self.retry(
            exc=exc,
            countdown=outage_countdown_s(self.request.retries),
            max_retries=OUTAGE_RETRIES_MAX,
        ) from None
    except services.RunBusy as busy:
        if self.request.is_eager:
            # In-process (thread or eager runner): the holder is another thread or
            # request of this deployment; if it dies, the sweep takes the run up.
            return
        raise self.retry(
            countdown=busy.retry_in_s, max_retries=BUSY_RECHECKS_MAX
        ) from None


@shared_task(acks_late=True)
def sweep_tco_runs() -> dict:
    """Periodic (beat): the sweep of every queue's runs."""
    return sweep.sweep_stuck_runs()


@app.on_after_finalize.connect
def add_sweep_schedule(sender, **kwargs) -> None:
    """clusterbuy/celery.py owns the app; the sweep joins its beat schedule here.

    Runs every 5 minutes under ``celery -A clusterbuy beat`` (optional: every worker
    sweeps its own queues every minute).
    """
    schedule = dict(sender.conf.beat_schedule or {})
    schedule.setdefault(
        SWEEP_SCHEDULE_NAME,
        {"task": "tco.tasks.sweep_tco_runs", "schedule": crontab(minute="*/5")},
    )
    sender.conf.beat_schedule = schedule


if app.finalized:  # this module was imported after the app finalized
    add_sweep_schedule(app)


# --- the sweep inside every worker --------------------------------------------------

_worker_sweep: dict[str, threading.Thread | threading.Event] = {}


def sweep_until_stopped(
    *, stop: threading.Event, queues: list[str], interval_s: float
) -> None:
    """Sweep now, then every ``interval_s`` until ``stop`` is set.

    A failed sweep (database or broker down) is logged and tried again on the next
    tick. The thread closes its database connection after every sweep, so a pool
    child forked meanwhile never shares it.
    """
    while True:
        try:
            counts = sweep.sweep_stuck_runs(queues=queues)
            if any(counts.values()):
                logger.warning("TCO sweep of %s: %s", ",".join(queues), counts)
        except Exception:  # noqa: BLE001 - the thread must outlive a bad tick
            logger.exception("TCO sweep of %s failed", ",".join(queues))
        finally:
            connections.close_all()
        if stop.wait(interval_s):
            return


@worker_ready.connect
def start_worker_sweep(sender, **kwargs) -> None:
    """Start the sweep thread in the worker's main process (sender: its consumer)."""
    queues = sorted(sender.app.amqp.queues.consume_from)
    stop = threading.Event()
    thread = threading.Thread(
        target=sweep_until_stopped,
        kwargs={"stop": stop, "queues": queues, "interval_s": sweep.SWEEP_INTERVAL_S},
        name="tco-sweep",
        daemon=True,
    )
    _worker_sweep.update(stop=stop, thread=thread)
    thread.start()
    logger.info("TCO sweep of %s every %s s", ",".join(queues), sweep.SWEEP_INTERVAL_S)


@worker_shutdown.connect
def stop_worker_sweep(**kwargs) -> None:
    stop, thread = _worker_sweep.get("stop"), _worker_sweep.get("thread")
    if stop is not None:
        stop.set()
        thread.join(timeout=10)
