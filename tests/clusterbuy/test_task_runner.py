"""Where a task runs (clusterbuy.task_runner): the rule, and the embedded thread pool."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
import uuid

import pytest
from celery import shared_task
from django.db import connection

from clusterbuy import task_runner
from clusterbuy.models import TaskPing
from tco import claims, tasks
from tests.conftest import ROOT

_gate = threading.Event()
_seen: dict[str, object] = {}


@shared_task(name="tests.task_runner.gated_ping")
def gated_ping(token: str) -> None:
    """Writes a ping once the test opens the gate; notes which thread ran it."""
    _seen["thread"] = threading.current_thread().name
    assert _gate.wait(10), "the test never opened the gate"
    TaskPing.objects.create(token=token)


@shared_task(name="tests.task_runner.broken")
def broken(token: str) -> None:
    TaskPing.objects.create(token=token)  # opens this thread's connection
    raise ValueError(f"broken task {token}")


@shared_task(name="tests.task_runner.connection_state")
def connection_state() -> None:
    """What a pool thread's connection is when a task starts on it."""
    _seen["open_at_start"] = connection.connection is not None


_attempts: dict[str, int] = {}


@shared_task(
    bind=True,
    name="tests.task_runner.flaky",
    autoretry_for=(ConnectionError,),
    # The TCO run's retry policy (tco.tasks.run_tco), without its jitter.
    retry_backoff=tasks.RETRY_BACKOFF_S,
    retry_backoff_max=tasks.RETRY_BACKOFF_MAX_S,
    retry_jitter=False,
    max_retries=claims.MAX_ATTEMPTS,
)
def flaky(self, token: str, failures: int) -> None:
    """Fails its first ``failures`` attempts, then writes a ping."""
    _attempts[token] = _attempts.get(token, 0) + 1
    if _attempts[token] <= failures:
        raise ConnectionError(f"attempt {_attempts[token]} of {token}")
    TaskPing.objects.create(token=token)


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The retry countdowns the runner waited, instead of sleeping them."""
    waited: list[float] = []
    monkeypatch.setattr(task_runner, "retry_sleep", waited.append)
    return waited


@pytest.fixture
def thread_runner(settings):
    settings.CLUSTERBUY_TASK_RUNNER = "thread"
    settings.CLUSTERBUY_TASK_THREADS = 1
    task_runner.wait_for_idle(timeout_s=30)
    _gate.clear()
    _seen.clear()
    yield
    _gate.set()
    task_runner.wait_for_idle(timeout_s=30)


@pytest.mark.django_db(transaction=True)
def test_the_thread_runner_returns_at_once_and_runs_the_task_in_a_pool_thread(
    thread_runner,
):
    token = uuid.uuid4().hex

    started = time.perf_counter()
    future = task_runner.enqueue("tests.task_runner.gated_ping", args=[token])
    elapsed_s = time.perf_counter() - started

    # The task is blocked on the gate: enqueue came back without waiting for it.
    assert not future.done()
    assert elapsed_s < 0.2
    assert not TaskPing.objects.filter(token=token).exists()
    _gate.set()
    assert future.result(timeout=10) is True
    assert TaskPing.objects.filter(token=token).exists()
    assert str(_seen["thread"]).startswith("clusterbuy-task")


@pytest.mark.django_db(transaction=True)
def test_a_failing_task_is_logged_as_failed_and_the_pool_goes_on(thread_runner, caplog):
    bad, good = uuid.uuid4().hex, uuid.uuid4().hex
    _gate.set()

    with caplog.at_level(logging.ERROR, logger="clusterbuy.task_runner"):
        failed = task_runner.enqueue("tests.task_runner.broken", args=[bad])
        assert failed.result(timeout=10) is False
    after = task_runner.enqueue("tests.task_runner.gated_ping", args=[good])

    assert after.result(timeout=10) is True
    assert TaskPing.objects.filter(token__in=[bad, good]).count() == 2
    (record,) = [r for r in caplog.records if r.name == "clusterbuy.task_runner"]
    assert record.getMessage().startswith(
        f"Task tests.task_runner.broken('{bad}',) failed: ValueError('broken task {bad}')"
    )
    assert "Traceback" in record.getMessage()


@pytest.mark.django_db(transaction=True)
def test_each_task_closes_its_database_connection_when_it_ends(thread_runner):
    _gate.set()
    task_runner.enqueue("tests.task_runner.broken", args=[uuid.uuid4().hex]).result(
        timeout=10
    )
    # One pool thread: the next task starts on the thread that used the connection.
    task_runner.enqueue("tests.task_runner.connection_state").result(timeout=10)
    assert _seen["open_at_start"] is False


def test_the_eager_runner_runs_the_task_inside_the_caller(db, settings):
    settings.CLUSTERBUY_TASK_RUNNER = "eager"
    _gate.set()
    token = uuid.uuid4().hex

    assert task_runner.enqueue("tests.task_runner.gated_ping", args=[token]) is None

    assert TaskPing.objects.filter(token=token).exists()
    assert _seen["thread"] == threading.current_thread().name
    assert not task_runner.uses_broker()


def _runner_for(**env: str) -> str:
    """The runner the settings choose in a fresh interpreter with ``env``."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "CELERY_BROKER_URL",
            "CELERY_TASK_ALWAYS_EAGER",
            "CLUSTERBUY_TASK_RUNNER",
        )
    }
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings; print(settings.CLUSTERBUY_TASK_RUNNER)",
        ],
        env={**clean, "DJANGO_SETTINGS_MODULE": "clusterbuy.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def test_the_settings_choose_the_runner_from_the_broker_and_the_test_switch():
    broker = "redis://127.0.0.1:6379/0"
    assert _runner_for() == "thread"  # make run: no broker
    assert _runner_for(CELERY_BROKER_URL=broker) == "celery"
    assert _runner_for(CELERY_BROKER_URL=broker, CELERY_TASK_ALWAYS_EAGER="1") == (
        "celery"  # tests with Redis: Celery runs it inline, the worker fixture not
    )
    assert _runner_for(CELERY_TASK_ALWAYS_EAGER="1") == "eager"  # tests without
    assert _runner_for(CLUSTERBUY_TASK_RUNNER="eager") == "eager"
    assert _runner_for(CLUSTERBUY_TASK_RUNNER="threads") == (
        "django.core.exceptions.ImproperlyConfigured: "
        "CLUSTERBUY_TASK_RUNNER must be celery, thread or eager."
    )
    assert _runner_for(CLUSTERBUY_TASK_RUNNER="celery") == (
        "django.core.exceptions.ImproperlyConfigured: "
        "CLUSTERBUY_TASK_RUNNER=celery needs CELERY_BROKER_URL."
    )


@pytest.mark.django_db(transaction=True)
def test_the_thread_runner_waits_the_exponential_backoff_before_each_retry(
    thread_runner, waits
):
    token = uuid.uuid4().hex

    future = task_runner.enqueue("tests.task_runner.flaky", args=[token, 2])

    assert future.result(timeout=10) is True
    assert _attempts[token] == 3
    # 5 s, then 10 s: RETRY_BACKOFF_S x 2^retries, as a worker schedules them
    assert waits == [5.0, 10.0]
    assert TaskPing.objects.filter(token=token).exists()


@pytest.mark.django_db(transaction=True)
def test_the_thread_runner_gives_up_after_the_policys_retries(
    thread_runner, waits, caplog
):
    token = uuid.uuid4().hex

    with caplog.at_level(logging.ERROR, logger="clusterbuy.task_runner"):
        future = task_runner.enqueue("tests.task_runner.flaky", args=[token, 99])
        assert future.result(timeout=10) is False

    assert _attempts[token] == claims.MAX_ATTEMPTS + 1  # the first run and 3 retries
    assert waits == [5.0, 10.0, 20.0]
    assert not TaskPing.objects.filter(token=token).exists()
    (record,) = [r for r in caplog.records if r.name == "clusterbuy.task_runner"]
    assert f"ConnectionError('attempt 4 of {token}')" in record.getMessage()


def test_a_retry_due_at_an_eta_waits_until_then():
    from datetime import timedelta

    from celery.exceptions import Retry
    from django.utils import timezone

    eta = timezone.now() + timedelta(seconds=30)

    assert 29 <= task_runner._countdown_s(Retry(when=eta)) <= 30
    assert task_runner._countdown_s(Retry(when=12)) == 12.0
    assert task_runner._countdown_s(Retry(when=timezone.now())) == 0.0
