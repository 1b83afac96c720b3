"""Where a task runs: the one rule every enqueue goes through (``enqueue``).

``settings.CLUSTERBUY_TASK_RUNNER`` names the runner:

- ``celery``: the message goes to the broker and a worker runs it (production). Celery
  itself runs it inline when ``CELERY_TASK_ALWAYS_EAGER`` is on (the test setting).
- ``thread``: the embedded default when no broker is configured (``make run``). A
  small pool of threads of the web process runs the task after the request has
  answered, so the page shows the progress bar and polls, as with a worker. The task
  runs as Celery runs it in a worker: its retries after the countdown its retry
  policy gives (``retry_backoff``: exponential, as a worker waits; the pool thread
  sleeps it, see ``run_in_thread``), its errors logged as a failed task, the
  run's own failure stored by its service. Each task closes the thread's database
  connections when it ends.
- ``eager``: inside the caller, before it returns (tests without a broker).

Time limits need a worker process: a thread cannot be stopped, so under ``thread``
the task's time limits do not apply.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from celery import states
from celery.signals import task_retry
from django.conf import settings
from django.db import connections
from django.utils import timezone

from .celery import app

logger = logging.getLogger(__name__)

_pool_lock = threading.Lock()
_pool: dict[str, ThreadPoolExecutor] = {}
_pool_pid: dict[str, int] = {}
_beat: dict[str, object] = {}
# Whether this thread runs a task for the thread runner (`run_in_thread`).
_in_pool = threading.local()
#: How a pool thread waits a retry's countdown (tests replace it: no real sleeping).
retry_sleep: Callable[[float], object] = time.sleep


def runner() -> str:
    return settings.CLUSTERBUY_TASK_RUNNER


def uses_broker() -> bool:
    """Tasks go through a broker (so a sweep has one to wait for)."""
    return runner() == "celery" and not app.conf.task_always_eager


def enqueue(
    task_name: str, *, args: Sequence = (), queue: str | None = None
) -> Future | None:
    """Run the task named ``task_name`` with ``args`` where the settings say.

    Under ``celery`` a broker that cannot be reached raises kombu's OperationalError
    (the caller decides what the user is told). Under ``thread`` returns the
    future of the task (done when the task has ended, whatever its outcome).
    """
    task = app.tasks[task_name]
    kind = runner()
    if kind == "celery":
        task.apply_async(args=list(args), queue=queue or None)
        return None
    if kind == "thread":
        return _executor().submit(run_in_thread, task_name, tuple(args))
    task.apply(args=list(args))  # eager: errors propagate per task_eager_propagates
    return None


def run_in_thread(
    task_name: str, args: tuple, *, sleep: Callable[[float], object] | None = None
) -> bool:
    """The body of one task in a pool thread: True when it succeeded.

    Each attempt is one ``Task.apply``; a retry the task asks for (its
    ``autoretry_for`` and ``retry_backoff`` policy, as in tco.tasks) comes back here
    (``_hand_retry_to_the_runner``), and the thread waits its countdown with
    ``sleep`` (``retry_sleep`` unless given) before the next attempt, the way a
    worker schedules it; past the policy's ``max_retries`` the task fails. An error
    that escapes the task is logged as a worker logs a failed task, and the thread
    goes on with the next task. The thread is busy while it waits (the policy's few
    waits: 5 s, 10 s, 20 s for a TCO run, jittered).
    """
    wait = sleep or retry_sleep
    task = app.tasks[task_name]
    _in_pool.active = True
    try:
        retries = 0
        while True:
            result = task.apply(args=list(args), retries=retries, throw=False)
            if result.state != states.RETRY:
                break
            wait(_countdown_s(result.result))
            retries += 1
        if result.failed():
            logger.error(
                "Task %s%r failed: %r\n%s",
                task_name,
                args,
                result.result,
                result.traceback or "",
            )
            return False
        return True
    except Exception:  # noqa: BLE001 - the pool thread must outlive any task
        logger.exception("Task %s%r failed", task_name, args)
        return False
    finally:
        _in_pool.active = False
        connections.close_all()


def _countdown_s(retry) -> float:
    """Seconds until the retry is due: its countdown, or the time to its ETA."""
    when = getattr(retry, "when", None)
    if isinstance(when, datetime):
        return max((when - timezone.now()).total_seconds(), 0.0)
    return max(float(when or 0), 0.0)


@task_retry.connect
def _hand_retry_to_the_runner(sender=None, reason=None, **_signal) -> None:
    """In a pool thread, let ``Task.apply`` return the retry instead of running it.

    An in-process ``apply`` runs a retry at once, nested inside itself (and raises
    the next attempt's retry, as eager tasks propagate errors). Without its signature
    the retry ends the attempt as state RETRY with the countdown the task's policy
    computed (``reason.when``); `run_in_thread` waits it and applies again.
    """
    if getattr(_in_pool, "active", False) and reason is not None:
        reason.sig = None


def _executor() -> ThreadPoolExecutor:
    """The process's pool, made on first use (after a fork, a new one)."""
    with _pool_lock:
        pool = _pool.get("executor")
        if pool is None or _pool_pid.get("executor") != os.getpid():
            pool = ThreadPoolExecutor(
                max_workers=settings.CLUSTERBUY_TASK_THREADS,
                thread_name_prefix="clusterbuy-task",
            )
            _pool["executor"] = pool
            _pool_pid["executor"] = os.getpid()
        return pool


def start_embedded_beat(**_signal) -> None:
    """Under the thread runner, run the beat schedule in this process (request_started).

    Workers sweep stuck runs when they start and every minute; without a broker the
    web process stands in for them: from its first request, it sends every task of
    ``app.conf.beat_schedule`` (the TCO sweep) to its pool at once and then every
    ``CLUSTERBUY_EMBEDDED_BEAT_S`` seconds. So a run left running by a dev server that
    restarted, or left queued by its retries, is taken up again.
    """
    if _beat.get("pid") == os.getpid():
        return
    interval_s = settings.CLUSTERBUY_EMBEDDED_BEAT_S
    if runner() != "thread" or not interval_s or interval_s <= 0:
        return
    with _pool_lock:
        if _beat.get("pid") == os.getpid():
            return
        stop = threading.Event()
        _beat.update(pid=os.getpid(), stop=stop)
    threading.Thread(
        target=_beat_loop,
        kwargs={"stop": stop, "interval_s": interval_s},
        name="clusterbuy-beat",
        daemon=True,
    ).start()


def _beat_loop(*, stop: threading.Event, interval_s: float) -> None:
    app.finalize(auto=True)  # the apps' tasks join the schedule when it finalizes
    while not stop.is_set():
        for entry in list((app.conf.beat_schedule or {}).values()):
            try:
                enqueue(entry["task"], args=entry.get("args") or ())
            except RuntimeError:  # the pool has shut down: the process is ending
                return
            except Exception:  # noqa: BLE001 - the beat must outlive a bad entry
                logger.exception("Embedded beat: %s not sent", entry.get("task"))
        stop.wait(interval_s)


def stop_embedded_beat() -> None:
    """Stop this process's beat (tests); the next request may start another."""
    with _pool_lock:
        stop = _beat.pop("stop", None)
        _beat.pop("pid", None)
    if stop is not None:
        stop.set()


def wait_for_idle(timeout_s: float | None = None) -> None:
    """Finish every submitted task and drop the pool (tests, shutdown)."""
    with _pool_lock:
        pool = _pool.pop("executor", None)
    if pool is None:
        return
    done = threading.Event()

    def _shutdown() -> None:
        pool.shutdown(wait=True)
        done.set()

    threading.Thread(target=_shutdown, daemon=True).start()
    if not done.wait(timeout_s):
        raise TimeoutError(f"tasks still running after {timeout_s} s")
