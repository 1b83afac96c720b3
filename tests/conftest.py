"""Shared fixtures: personas, and the real services (PostgreSQL, Redis, a Celery worker).

Services are chosen by `make test` (.ci/services-env): DATABASE_URL for PostgreSQL and
CELERY_BROKER_URL for Redis. Tests that need them are marked `services`;
with CLUSTERBUY_REQUIRE_SERVICES=1 (CI) a missing service fails instead of skipping.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from _pytest.nodeid import coerce_node_id  # pytest is pinned (pyproject); see below
from rest_framework.test import APIClient

from clusterbuy.models import Role
from tests.factories import OrganisationFactory, ProcurementFactory, member

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_SERVICES = os.environ.get("CLUSTERBUY_REQUIRE_SERVICES") == "1"
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")


def pytest_configure(config):
    # Settings were read before this hook: point them (and worker processes, through
    # the environment) at a scratch media folder, never the checkout's ./media.
    from django.conf import settings

    os.environ["MEDIA_ROOT"] = os.environ.get("CLUSTERBUY_TEST_MEDIA_ROOT") or (
        tempfile.mkdtemp(prefix="cb-media-")
    )
    settings.MEDIA_ROOT = os.environ["MEDIA_ROOT"]
    # Tasks run inside the test that enqueues them unless the test asks for a runner
    # (the thread runner's tests, the worker fixture): without a broker the settings
    # default to the embedded thread runner, which tests would have to wait for.
    if "CLUSTERBUY_TASK_RUNNER" not in os.environ:
        if settings.CLUSTERBUY_TASK_RUNNER == "thread":
            settings.CLUSTERBUY_TASK_RUNNER = "eager"
    # Nor does a test's request start the embedded sweep (a test of it starts it).
    settings.CLUSTERBUY_EMBEDDED_BEAT_S = 0


def pytest_collection_modifyitems(config, items):
    # schemathesis gives every API operation's test the same node id (the operation is
    # only in the item's name); xdist schedules by node id, so all but one operation
    # would silently not run under `make test`. Each gets its own id.
    for item in items:
        base, _sep, last = item.nodeid.rpartition("::")
        if last != item.name and item.name.startswith(last + "["):
            item._id = coerce_node_id(f"{base}::{item.name}")
    seen: set[str] = set()
    twice = {i.nodeid for i in items if i.nodeid in seen or seen.add(i.nodeid)}
    if twice:  # xdist would run one of each and report the rest as nothing at all
        raise pytest.UsageError(f"tests with the same node id: {sorted(twice)[:5]}")
    # Browser and worker tests share their heavy fixtures best on one xdist worker
    # (two browser groups side by side were slower on two cores: 25 min against 21).
    # xdist 3.8's loadgroup writes the group into ``item._nodeid``, which pytest 9
    # no longer reads (the id lives in ``_id``): without the suffix written here the
    # group was ignored and the crawl ran on both workers, twice.
    grouped = bool(getattr(config.option, "loadgroup", False))  # set on the workers
    for item in items:
        if item.get_closest_marker("services") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.xdist_group("services"))
            if grouped and not item.nodeid.endswith("@services"):  # xdist: last @
                item._id = coerce_node_id(f"{item.nodeid}@services")


def missing_service(reason: str):
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _media_root(settings):
    settings.MEDIA_ROOT = os.environ["MEDIA_ROOT"]


@pytest.fixture(autouse=True)
def _no_language_left_active():
    """Each test starts with no language active, as Django's test environment sets up.

    LocaleMiddleware activates the request's language in the calling thread and never
    deactivates it, so a test-client request leaves its language (say "en" from a
    cookie) active for every later test in the process: lazy texts a later test turns
    into strings come out in that language, not the default, depending on the order.
    """
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


# --- personas -------------------------------------------------------------------


@pytest.fixture
def org(db):
    return OrganisationFactory(name="Acme AI")


@pytest.fixture
def other_org(db):
    return OrganisationFactory(name="Other Corp")


@pytest.fixture
def admin_user(org):
    return member(org, Role.ADMIN, "alice-admin")


@pytest.fixture
def it_lead(org):
    return member(org, Role.IT_LEAD, "ivan-it")


@pytest.fixture
def buyer(org):
    return member(org, Role.PROCUREMENT, "paula-buyer")


@pytest.fixture
def manager(org):
    return member(org, Role.MANAGER, "mona-manager")


@pytest.fixture
def viewer(org):
    return member(org, Role.VIEWER, "victor-viewer")


@pytest.fixture
def outsider(other_org):
    return member(other_org, Role.ADMIN, "oscar-outsider")


@pytest.fixture
def procurement(org, it_lead):
    return ProcurementFactory(
        organisation=org, name="LLM training cluster", created_by=it_lead
    )


@pytest.fixture
def other_procurement(other_org):
    return ProcurementFactory(organisation=other_org, name="Secret cluster")


def _client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def _api_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def client_for():
    return _client_for


@pytest.fixture
def api_for():
    return _api_for


# --- real services --------------------------------------------------------------


def _database_url(settings_dict) -> str:
    if "postgresql" not in settings_dict["ENGINE"]:
        return ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    user = settings_dict.get("USER") or "postgres"
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}" if password else user
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"


class WorkerProcess:
    """A real `celery worker` process on its own queue, against the test database."""

    def __init__(self, database_url: str, broker_url: str, queue: str, log_path: Path):
        self.database_url, self.broker_url, self.queue = database_url, broker_url, queue
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def env(self) -> dict:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.database_url,
            CELERY_BROKER_URL=self.broker_url,
            CELERY_TASK_DEFAULT_QUEUE=self.queue,
            DJANGO_SETTINGS_MODULE="clusterbuy.settings",
            DB_CONN_MAX_AGE="0",
            CELERY_TASK_ALWAYS_EAGER="0",
        )
        return env

    def start(self, timeout_s: float = 60) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "clusterbuy",
                "worker",
                "--loglevel=INFO",
                "--pool=solo",
                "-Q",
                self.queue,
                "--hostname",
                f"test-{self.queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"worker exited: {self.log_path.read_text()[-2000:]}"
                )
            if b" ready." in self.log_path.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"worker not ready: {self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def _worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    from django.db import connection

    database_url = _database_url(connection.settings_dict)
    if not database_url:
        missing_service("PostgreSQL (DATABASE_URL) is needed for worker tests")
    if not BROKER_URL:
        missing_service("Redis (CELERY_BROKER_URL) is needed for worker tests")
    queue = f"cb-test-{uuid.uuid4().hex[:10]}"
    worker = WorkerProcess(
        database_url,
        BROKER_URL,
        queue,
        tmp_path_factory.mktemp("worker") / "worker.log",
    )
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture
def celery_worker(_worker_process, transactional_db):
    """Route tasks to the real worker for the duration of one test."""
    from clusterbuy.celery import app

    saved = {k: app.conf[k] for k in ("task_always_eager", "task_default_queue")}
    app.conf.update(task_always_eager=False, task_default_queue=_worker_process.queue)
    if _worker_process.proc.poll() is not None:
        _worker_process.start()
    yield _worker_process
    app.conf.update(saved)


def wait_for(predicate, timeout_s: float = 30, interval_s: float = 0.1):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval_s)
    raise AssertionError(f"condition not met within {timeout_s}s")
