"""The sweep of stuck TCO runs: what makes a run finish when a message or a worker
is lost.

Every worker runs it in a thread of its own process for the queues it consumes
(tco.tasks), so no beat is needed; beat, when deployed, runs it too, for all queues.
It sends a message for each QUEUED run that has none (the broker was down when it was
requested, or its claim went stale) or whose message is older than
``QUEUED_STALE_AFTER`` (Redis lost it), and fails runs out of attempts.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from clusterbuy import task_runner
from clusterbuy.celery import app

from . import claims, services
from .claims import MAX_ATTEMPTS
from .models import RunStatus, TcoRun

logger = logging.getLogger(__name__)

#: A QUEUED run whose message reached the broker longer ago than this has probably
#: lost it (Redis restarted without persistence): the sweep sends another. A message
#: still waiting behind others only gains a duplicate, which finds nothing to claim.
QUEUED_STALE_AFTER = timedelta(minutes=10)
#: How often each worker sweeps the runs of its queues (tco.tasks).
SWEEP_INTERVAL_S = 60


def _broker_answers() -> bool:
    """One connection attempt before touching any run: while the broker is down the
    sweep leaves the runs as they are (their users keep seeing why they wait)."""
    if not task_runner.uses_broker():
        return True  # runs are executed in-process, no broker involved
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0)
    except BrokerError as exc:
        logger.warning("TCO sweep: broker unreachable: %s", exc)
        return False
    return True


def _fail_exhausted_runs(runs, now: datetime) -> int:
    """Runs out of attempts: dead on their last claim, or queued after the last."""
    failed = runs.filter(claims.stale_claim(now), attempts__gte=MAX_ATTEMPTS).update(
        status=RunStatus.FAILED,
        finished_at=now,
        error_message=_("The analysis stopped responding %(n)d times and was given up.")
        % {"n": MAX_ATTEMPTS},
    )
    failed += runs.filter(status=RunStatus.QUEUED, attempts__gte=MAX_ATTEMPTS).update(
        status=RunStatus.FAILED,
        finished_at=now,
        error_message=_("The analysis failed %(n)d times and was given up.")
        % {"n": MAX_ATTEMPTS},
    )
    return failed


def sweep_stuck_runs(
    *,
    now: datetime | None = None,
    queued_after: timedelta = QUEUED_STALE_AFTER,
    queues: Collection[str] | None = None,
) -> dict[str, int]:
    """Send runs that have no message; give dead workers' runs back to the queue.

    Safe to run anywhere and twice at once: every step is a conditional UPDATE, and
    a message is sent only by the sweep whose UPDATE stamped ``enqueued_at``. With
    ``queues``, only the runs of those queues (a worker sweeps what it consumes).
    """
    now = now or timezone.now()
    runs = TcoRun.objects.all()
    if queues is not None:
        runs = runs.on_queues(queues, default=app.conf.task_default_queue)
    failed = _fail_exhausted_runs(runs, now)
    # Dead claims go back to the queue without a message: sent below.
    runs.filter(claims.stale_claim(now), attempts__lt=MAX_ATTEMPTS).update(
        status=RunStatus.QUEUED, enqueued_at=None
    )
    unsent = runs.filter(status=RunStatus.QUEUED, attempts__lt=MAX_ATTEMPTS).filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=now - queued_after)
    )
    if unsent.exists() and not _broker_answers():
        return {"requeued": 0, "failed": failed}  # the runs keep their notice
    requeued = 0
    for run_id, queue, seen in unsent.order_by("pk").values_list(
        "pk", "queue", "enqueued_at"
    ):
        stamp = TcoRun.objects.filter(
            pk=run_id, status=RunStatus.QUEUED, enqueued_at=seen
        )
        if not stamp.update(enqueued_at=now):
            continue  # another sweep, or a worker, got there first
        if not services.send_run(run_id=run_id, queue=queue):
            TcoRun.objects.filter(pk=run_id, enqueued_at=now).update(enqueued_at=None)
            break  # the broker is down: the next sweep tries again
        requeued += 1
    return {"requeued": requeued, "failed": failed}
