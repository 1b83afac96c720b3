"""Who works on a TCO run: the claim, its heartbeat, and when a claim is stale.

A worker takes a run with one conditional UPDATE (QUEUED, or RUNNING under a stale
claim -> RUNNING under a new claim token). While it works, it shows it is alive by
writing ``heartbeat_at``: with every progress step and, from a thread, every
``HEARTBEAT_INTERVAL_S`` seconds, so a long step with no progress (the PDF render)
still beats. A claim whose heartbeat is older than ``HEARTBEAT_STALE_AFTER`` belongs
to a dead worker (SIGKILL, OOM, host lost): the next delivery of the task, or the
sweep, takes the run over at once instead of waiting for the task's time limit.

A claim also names its process (``claimed_by``, host and pid). When that process ran
on this host and no longer exists (a pool child killed by SIGKILL or the OOM killer,
a worker restarted in place), its death is certain and the run is taken over without
waiting for the heartbeat to go stale. A reused pid only makes the takeover wait for
the heartbeat; a host name shared by two hosts (or by containers with their own pid
namespaces) could only hand a live run to a second worker, whose token then wins
while the first discards its work.

Every later write filters on the claim token, so a worker that was presumed dead but
was only slow cannot overwrite the new claim's result: it finds its claim gone and
discards its work.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

from django.db import DatabaseError, connections
from django.db.models import F, Q
from django.utils import timezone

from .models import RunStatus, TcoRun

logger = logging.getLogger(__name__)

#: How often a working claim writes its heartbeat (seconds).
HEARTBEAT_INTERVAL_S = 5
#: A claim whose heartbeat is older than this has lost its worker: six missed beats,
#: so a busy database or a paused process does not hand a live run to a second worker.
HEARTBEAT_STALE_AFTER = timedelta(seconds=30)
#: Runs claimed by a release that wrote no heartbeat: stale after the task's hard
#: time limit (300 s) plus a minute, the rule of that release.
LEGACY_CLAIM_STALE_AFTER = timedelta(seconds=360)
#: A run is claimed at most this many times; then the sweep marks it FAILED.
MAX_ATTEMPTS = 3
PROGRESS_MIN_INTERVAL_S = 0.3


class ClaimLost(Exception):
    """This worker's claim on the run is gone (cancelled, or taken over): stop."""


def worker_name() -> str:
    """This process as an operator finds it: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


def stale_claim(now: datetime) -> Q:
    """RUNNING runs whose worker stopped showing signs of life."""
    silent = Q(heartbeat_at__lt=now - HEARTBEAT_STALE_AFTER) | Q(
        heartbeat_at__isnull=True, started_at__lt=now - LEGACY_CLAIM_STALE_AFTER
    )
    return Q(status=RunStatus.RUNNING) & silent


def _holder_is_gone(claimed_by: str) -> bool:
    """The claim was made by a process of this host that no longer exists."""
    host, _sep, pid = claimed_by.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except PermissionError:  # it exists, under another user
        return False
    return False


def claim_run(*, run_id: int, now: datetime | None = None) -> uuid.UUID | None:
    """Take the run for this worker; returns the new claim token, or None.

    Claimable: QUEUED, RUNNING under a stale claim, or RUNNING under a claim whose
    process on this host is gone (then only that very claim, by its token).
    """
    now = now or timezone.now()
    claimable = Q(status=RunStatus.QUEUED) | stale_claim(now)
    token = _claim(run_id=run_id, claimable=claimable, now=now)
    if token is not None:
        return token
    holder = (
        TcoRun.objects.filter(pk=run_id, status=RunStatus.RUNNING)
        .values("claim_token", "claimed_by")
        .first()
    )
    if holder and holder["claim_token"] and _holder_is_gone(holder["claimed_by"]):
        logger.warning(
            "TCO run %s: its worker %s is gone", run_id, holder["claimed_by"]
        )
        dead = Q(status=RunStatus.RUNNING, claim_token=holder["claim_token"])
        return _claim(run_id=run_id, claimable=dead, now=now)
    return None


def _claim(*, run_id: int, claimable: Q, now: datetime) -> uuid.UUID | None:
    """The claim itself: one conditional UPDATE that issues a new token."""
    token = uuid.uuid4()
    taken = TcoRun.objects.filter(
        claimable, pk=run_id, attempts__lt=MAX_ATTEMPTS
    ).update(
        status=RunStatus.RUNNING,
        claim_token=token,
        claimed_by=worker_name(),
        started_at=now,
        heartbeat_at=now,
        finished_at=None,
        attempts=F("attempts") + 1,
        progress_pct=0,
        error_message="",
    )
    return token if taken else None


def held(*, run_id: int, token: uuid.UUID):
    """The run, as long as this claim still holds it (filter for every write)."""
    return TcoRun.objects.filter(pk=run_id, status=RunStatus.RUNNING, claim_token=token)


def seconds_until_claimable(*, run_id: int, now: datetime | None = None) -> int | None:
    """When a run another worker holds may be taken over, if that worker is silent.

    None when waiting would not help: the run is finished, gone, queued with its
    attempts used up, or RUNNING on its last attempt (the sweep fails it if it dies).
    """
    now = now or timezone.now()
    run = (
        TcoRun.objects.filter(
            pk=run_id, status=RunStatus.RUNNING, attempts__lt=MAX_ATTEMPTS
        )
        .values("heartbeat_at", "started_at")
        .first()
    )
    if run is None:
        return None
    if run["heartbeat_at"] is not None:
        stale_at = run["heartbeat_at"] + HEARTBEAT_STALE_AFTER
    else:
        stale_at = (run["started_at"] or now) + LEGACY_CLAIM_STALE_AFTER
    return max(1, int((stale_at - now).total_seconds()) + 1)


@contextlib.contextmanager
def heartbeat(*, run_id: int, token: uuid.UUID) -> Iterator[None]:
    """Keep the claim alive from a thread while the block runs.

    The thread has its own database connection (Django's are per thread) and closes
    it when the block ends. A killed process takes the thread with it: the beats stop,
    and that is the signal.
    """
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(HEARTBEAT_INTERVAL_S):
                try:
                    held(run_id=run_id, token=token).update(heartbeat_at=timezone.now())
                except DatabaseError as exc:  # the next beat may get through
                    logger.warning("TCO run %s: heartbeat failed: %r", run_id, exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat, name=f"tco-run-{run_id}-heartbeat")
    thread.daemon = True
    thread.start()
    try:
        yield
    finally:
        stop.set()
        # A beat stuck on a dead database must not hold up the task; a late beat
        # writes nothing, since it filters on RUNNING under this claim.
        thread.join(timeout=2 * HEARTBEAT_INTERVAL_S)


def progress_reporter(
    *, run_id: int, token: uuid.UUID, low: int, high: int
) -> Callable[[int], None]:
    """A callback mapping 0..100 to low..high; each write is also a heartbeat.

    Raises ClaimLost when the write finds the claim gone, so a cancelled run stops
    computing at its next step.
    """
    last = {"pct": -1, "at": 0.0}

    def report(percent: int) -> None:
        pct = low + (high - low) * max(0, min(100, int(percent))) // 100
        now = time.monotonic()
        if pct <= last["pct"]:
            return
        if now - last["at"] < PROGRESS_MIN_INTERVAL_S and percent < 100:
            return
        last.update(pct=pct, at=now)
        written = held(run_id=run_id, token=token).update(
            progress_pct=pct, heartbeat_at=timezone.now()
        )
        if not written:
            raise ClaimLost(f"TCO run {run_id}: claim {token} is gone")

    return report
