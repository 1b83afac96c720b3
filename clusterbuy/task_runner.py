"""Where a task runs: the one rule every enqueue goes through (``enqueue``).

``settings.CLUSTERBUY_TASK_RUNNER`` names the runner:

- ``celery``: the message goes to the broker and a worker runs it (production). Celery
  itself runs it inline when ``CELERY_TASK_ALWAYS_EAGER`` is on (the test setting).
- ``thread``: the embedded default when no broker is configured (``make run``). A
  small pool of threads of the web process runs the task after the request has
  answered, so the page shows the progress bar and polls, as with a worker. The task
  runs as Celery runs it in a worker: its retries (at once, not after a countdown),
  its errors logged as a failed task, the run's own failure stored by its service.
  Each task closes the thread's database connections when it ends.
- ``eager``: inside the caller, before it returns (tests without a broker).

Time limits need a worker process: a thread cannot be stopped, so under ``thread``
the task's time limits do not apply.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import connections

from .celery import app

logger = logging.getLogger(__name__)

RUNNERS = ("celery", "thread", "eager")

_pool_lock = threading.Lock()
_pool: dict[str, ThreadPoolExecutor] = {}
_pool_pid: dict[str, int] = {}


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


def run_in_thread(task_name: str, args: tuple) -> bool:
    """The body of one task in a pool thread: True when it succeeded.

    An error that escapes the task (after its retries) is logged as a worker logs a
    failed task, and the thread goes on with the next task.
    """
    try:
        result = app.tasks[task_name].apply(args=list(args), throw=False)
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
        connections.close_all()


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
