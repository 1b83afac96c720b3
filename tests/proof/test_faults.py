"""Faults a deployment meets: a worker or its pool child killed mid-run, a broker that
is unreachable or lost its queue, a PDF renderer that crashes, a save that hits a
unique constraint.

The worker and broker tests use real processes: a private `redis-server` on a spare
port (never the shared 6379, which other test sessions use; and kombu restores
*every* queue's unacked messages, so a short visibility timeout must not touch a
shared broker) and `celery worker` processes (tests.conftest.WorkerProcess) started
through a small boot script that can hold a run while it is RUNNING (before the
analysis, or in the PDF render) and shorten the worker's sweep interval. The tco code
itself is not changed. No test starts beat: the sweep that recovers runs is the one
every worker runs in its own process (tco.tasks).

Recovery paths, all tested (the bounds are documented in docs/deployment.md):
- pool child killed (prefork): the message is redelivered at once
  (reject_on_worker_lost) and, the claim's process on this host being gone, takes
  the run over at once: the run succeeds within a minute.
- whole worker on another host killed, redelivery: with CELERY_VISIBILITY_TIMEOUT_S=3
  the broker gives the unacked message to the next worker, which waits until the
  dead claim's heartbeat is stale (30 s) and then takes the run over.
- whole worker killed, sweeper: ``sweep_stuck_runs(now=...)`` called as if the
  claim were stale puts the run back to QUEUED and sends it; the second worker runs
  with the default visibility timeout (900 s), so only the sweep brings it back.
- broker unreachable: the user is told the run is saved and will start; the worker's
  sweep sends it when the broker is back.
- broker restarted without its data: the sweep sends the queued runs again.
The sending process needs no visibility setting: only the consuming worker restores.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psutil
import pytest
from django.utils import timezone

from clusterbuy.models import Procurement, Role
from tests.conftest import (
    ROOT,
    WorkerProcess,
    _database_url,
    missing_service,
    wait_for,
)
from tests.factories import member
from tests.proof.redis_support import PrivateRedis  # noqa: F401 - used by fixtures

# A small, valid scenario: the engine fills every other input with its defaults.
INPUTS = {
    "horizon_years": 3,
    "currency": "CNY",
    "gpu_count": 8,
    "it_power_kw": 10,
    "capex": [
        {"category": "gpu_servers", "description": "1 x 8-GPU", "amount": 1_000_000}
    ],
}

# Runs `celery worker` with optional test hooks, set by environment variables:
# CB_FAULT_SLOW_RUN_S sleeps before the analysis (after the claim),
# CB_FAULT_HOLD_PDF_FILE holds the PDF render (85 %) while that file exists,
# CB_FAULT_SWEEP_INTERVAL_S shortens the worker's own sweep interval, and
# CB_FAULT_MC_DRAWS lowers the Monte Carlo draw count to keep the runs quick.
WORKER_BOOT = """
import os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")
import django
django.setup()
from clusterbuy.celery import app
from tco import report, services, sweep
if os.environ.get("CB_FAULT_MC_DRAWS"):
    services.MONTE_CARLO_DRAWS = int(os.environ["CB_FAULT_MC_DRAWS"])
if os.environ.get("CB_FAULT_SWEEP_INTERVAL_S"):
    sweep.SWEEP_INTERVAL_S = float(os.environ["CB_FAULT_SWEEP_INTERVAL_S"])
slow_s = float(os.environ.get("CB_FAULT_SLOW_RUN_S") or 0)
if slow_s:
    real_full_analysis = services.full_analysis
    def slow_full_analysis(*args, **kwargs):
        time.sleep(slow_s)
        return real_full_analysis(*args, **kwargs)
    services.full_analysis = slow_full_analysis
hold_pdf = os.environ.get("CB_FAULT_HOLD_PDF_FILE")
if hold_pdf:
    real_build = report.build_tco_report
    def held_build(*args, **kwargs):
        while os.path.exists(hold_pdf):
            time.sleep(0.1)
        return real_build(*args, **kwargs)
    report.build_tco_report = held_build
app.worker_main(["worker", *sys.argv[1:]])
"""


class FaultWorker(WorkerProcess):
    """A WorkerProcess started through WORKER_BOOT with extra environment."""

    def __init__(
        self,
        *args,
        extra_env: dict | None = None,
        pool: str = "solo",
        concurrency: int = 1,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.extra_env = extra_env or {}
        self.pool, self.concurrency = pool, concurrency

    def env(self) -> dict:
        env = super().env()
        env.update({"CB_FAULT_MC_DRAWS": "500", **self.extra_env})
        return env

    def start(self, timeout_s: float = 60) -> None:
        self.log_path.write_bytes(b"")  # "ready." must come from this start
        log = open(self.log_path, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER_BOOT,
                "--loglevel=INFO",
                f"--pool={self.pool}",
                f"--concurrency={self.concurrency}",
                "-Q",
                self.queue,
                "--hostname",
                f"fault-{uuid.uuid4().hex[:6]}@%h",
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
                raise RuntimeError(f"worker exited: {self.log_text()}")
            if b" ready." in self.log_path.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"worker not ready: {self.log_text()}")

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def pool_children(self) -> list[int]:
        """Pids of the prefork pool's child processes (none with the solo pool)."""
        return [child.pid for child in psutil.Process(self.proc.pid).children()]


@pytest.fixture
def database_url(transactional_db):
    from django.db import connection

    url = _database_url(connection.settings_dict)
    if not url:
        missing_service("PostgreSQL (DATABASE_URL) is needed for worker tests")
    return url


@pytest.fixture(autouse=True)
def _own_media_folder(tmp_path, settings, monkeypatch):
    """A media folder per fault test, for this process and the workers it starts
    (they copy the environment): the file checks see only this test's runs, never
    another test's PDF left under the same run id."""
    media = tmp_path / "media"
    media.mkdir()
    settings.MEDIA_ROOT = str(media)
    monkeypatch.setenv("MEDIA_ROOT", str(media))


@pytest.fixture
def workers(tmp_path):
    started: list[FaultWorker] = []
    yield started
    for worker in started:
        worker.stop()
        if worker.proc is not None:
            print(f"--- {worker.log_path.name}\n{worker.log_text()}")


def start_worker(
    workers, database_url, broker_url, queue, name, tmp_path,
    pool="solo", concurrency=1, **env,
):  # fmt: skip
    worker = FaultWorker(
        database_url,
        broker_url,
        queue,
        tmp_path / f"{name}.log",
        extra_env={k: str(v) for k, v in env.items()},
        pool=pool,
        concurrency=concurrency,
    )
    workers.append(worker)
    worker.start()
    return worker


@contextlib.contextmanager
def tasks_sent_to(broker_url: str, queue: str):
    """Point this process's Celery app (what `run_tco.delay` uses) at another broker."""
    from clusterbuy.celery import app

    keys = ("broker_url", "task_always_eager", "task_default_queue")
    saved = {k: app.conf[k] for k in keys}
    saved_env = os.environ.get("CELERY_BROKER_URL")

    def drop_pools():  # kombu keeps the pools per broker; only forget the current one
        app._pool = None
        app.amqp._producer_pool = None

    drop_pools()
    # Celery reads CELERY_BROKER_URL from the environment before its own settings.
    os.environ["CELERY_BROKER_URL"] = broker_url
    app.conf.update(
        broker_url=broker_url, task_always_eager=False, task_default_queue=queue
    )
    try:
        port = app.connection_for_write().port
        assert f":{port}/" in broker_url, "tasks would not reach the private broker"
        yield app
    finally:
        drop_pools()
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        app.conf.update(saved)


def pdf_files(run) -> list[str]:
    from django.conf import settings

    folder = Path(settings.MEDIA_ROOT) / "tco"
    return sorted(p.name for p in folder.glob(f"run-{run.pk}-*"))


def in_english(client):
    """Messages are compared in English (the UI defaults to Simplified Chinese)."""
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


def new_scenario(procurement, user, name="Baseline"):
    from tco import services

    return services.save_scenario(
        procurement=procurement, user=user, name=name, inputs=INPUTS
    )


# --- a worker killed in the middle of a run -----------------------------------------


def wait_until_finished(run, timeout_s: float):
    from tco.models import RunStatus, TcoRun

    wait_for(
        lambda: TcoRun.objects.filter(pk=run.pk).exclude(
            status__in=[RunStatus.QUEUED, RunStatus.RUNNING]
        ),
        timeout_s=timeout_s,
        interval_s=0.3,
    )


def assert_succeeded_exactly_once(run, scenario, *, attempts: int):
    from tco.models import RunStatus, TcoRun

    time.sleep(2)  # a duplicate delivery, if any, would show up by now
    done = TcoRun.objects.get(pk=run.pk)
    assert done.status == RunStatus.SUCCEEDED, done.error_message
    assert done.attempts == attempts
    assert done.result is not None and done.progress_pct == 100
    assert TcoRun.objects.filter(scenario=scenario).count() == 1
    assert done.pdf.name == f"tco/run-{run.pk}-zh-hans.pdf"
    assert pdf_files(run) == [f"run-{run.pk}-zh-hans.pdf"]
    assert done.pdf.open("rb").read(5) == b"%PDF-"
    return done


@pytest.mark.services
def test_a_run_whose_pool_child_is_sigkilled_mid_render_succeeds_once_within_a_minute(
    procurement, it_lead, database_url, private_redis, workers, tmp_path
):
    """The issue's fault: the pool child killed at 85 %, no beat, default settings."""
    from tco import claims, services
    from tco.models import RunStatus, TcoRun

    queue = f"cb-fault-{uuid.uuid4().hex[:8]}"
    hold = tmp_path / "hold-the-pdf"
    hold.touch()
    worker = start_worker(
        workers, database_url, private_redis.url, queue, "prefork", tmp_path,
        pool="prefork", CB_FAULT_HOLD_PDF_FILE=hold,
    )  # fmt: skip
    scenario = new_scenario(procurement, it_lead)
    with tasks_sent_to(private_redis.url, queue):
        run = services.request_tco_run(scenario=scenario, user=it_lead)
        rendering = wait_for(
            lambda: TcoRun.objects.filter(
                pk=run.pk, status=RunStatus.RUNNING, progress_pct=85
            ).first(),
            timeout_s=45,
        )
        # The render reports no progress, yet the claim's heartbeat goes on.
        wait_for(
            lambda: TcoRun.objects.get(pk=run.pk).heartbeat_at > rendering.heartbeat_at,
            timeout_s=2 * claims.HEARTBEAT_INTERVAL_S + 2,
        )
        [child] = worker.pool_children()
        os.kill(child, signal.SIGKILL)
        killed_at = time.monotonic()
        hold.unlink()  # the next attempt renders at once
        killed = TcoRun.objects.get(pk=run.pk)
        assert (killed.status, killed.attempts) == (RunStatus.RUNNING, 1)

        wait_until_finished(run, timeout_s=60)
        recovered_s = time.monotonic() - killed_at
        done = assert_succeeded_exactly_once(run, scenario, attempts=2)

    assert worker.proc.poll() is None  # the worker lived on; a new child took over
    assert worker.pool_children() and child not in worker.pool_children()
    assert done.claim_token != killed.claim_token
    print(f"pool child SIGKILL -> run succeeded in {recovered_s:.1f} s")
    assert recovered_s < 60


@pytest.mark.services
@pytest.mark.parametrize("recovery", ["redelivery", "sweeper"])
def test_a_run_whose_worker_is_sigkilled_completes_exactly_once(
    recovery, procurement, it_lead, database_url, private_redis, workers, tmp_path
):
    from tco import claims, services, sweep
    from tco.models import RunStatus, TcoRun

    queue = f"cb-fault-{uuid.uuid4().hex[:8]}"
    vt = {"CELERY_VISIBILITY_TIMEOUT_S": 3} if recovery == "redelivery" else {}
    start_worker(
        workers, database_url, private_redis.url, queue, "first", tmp_path,
        CB_FAULT_SLOW_RUN_S=120, **vt,
    )  # fmt: skip
    scenario = new_scenario(procurement, it_lead)
    with tasks_sent_to(private_redis.url, queue):
        run = services.request_tco_run(scenario=scenario, user=it_lead)
        wait_for(
            lambda: TcoRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING).exists(),
            timeout_s=30,
        )
        workers[0].kill()  # SIGKILL: no ack, no cleanup, the claim stays RUNNING
        killed_at = time.monotonic()
        killed = TcoRun.objects.get(pk=run.pk)
        assert (killed.status, killed.attempts) == (RunStatus.RUNNING, 1)
        assert pdf_files(run) == []

        if recovery == "redelivery":
            # As if the dead worker had been on another host: its death cannot be
            # seen, only its silence, so the run waits for the heartbeat to go stale.
            TcoRun.objects.filter(pk=run.pk).update(claimed_by="lost-host:4242")
            time.sleep(4)  # past the 3 s visibility timeout of the delivered message
            start_worker(
                workers, database_url, private_redis.url, queue, "second", tmp_path,
                **vt,
            )  # fmt: skip
        else:
            start_worker(
                workers, database_url, private_redis.url, queue, "second", tmp_path
            )
            stale = claims.HEARTBEAT_STALE_AFTER + timedelta(seconds=5)
            swept = sweep.sweep_stuck_runs(now=timezone.now() + stale)
            assert swept == {"requeued": 1, "failed": 0}

        wait_until_finished(run, timeout_s=90)
        recovered_s = time.monotonic() - killed_at
        assert_succeeded_exactly_once(run, scenario, attempts=2)

    print(f"worker SIGKILL ({recovery}) -> run succeeded in {recovered_s:.1f} s")
    if recovery == "redelivery":
        # visibility timeout + the dead claim's heartbeat going stale + the run itself
        assert recovered_s < 3 + claims.HEARTBEAT_STALE_AFTER.total_seconds() + 30


# --- the broker restarted while runs were queued ------------------------------------


@pytest.mark.services
def test_runs_queued_when_redis_restarts_are_recovered_by_the_sweeper(
    procurement, it_lead, database_url, private_redis, workers, tmp_path
):
    from tco import services, sweep
    from tco.models import RunStatus, TcoRun

    queue = f"cb-fault-{uuid.uuid4().hex[:8]}"
    scenario = new_scenario(procurement, it_lead)
    with tasks_sent_to(private_redis.url, queue):
        runs = [
            services.request_tco_run(scenario=scenario, user=it_lead) for _ in range(3)
        ]
        assert private_redis.client().llen(queue) == 3  # queued, no worker yet

        private_redis.restart()  # --save "" --appendonly no: the messages are gone
        assert private_redis.client().llen(queue) == 0

        start_worker(workers, database_url, private_redis.url, queue, "w", tmp_path)
        swept = sweep.sweep_stuck_runs(queued_after=timedelta(0))
        assert swept == {"requeued": 3, "failed": 0}

        ids = [r.pk for r in runs]
        wait_for(
            lambda: (
                TcoRun.objects.filter(pk__in=ids, status=RunStatus.SUCCEEDED).count()
                == 3
                or TcoRun.objects.filter(pk__in=ids, status=RunStatus.FAILED).exists()
            ),
            timeout_s=180,
            interval_s=0.3,
        )

    for run in TcoRun.objects.filter(pk__in=ids):
        assert run.status == RunStatus.SUCCEEDED, run.error_message
        assert run.attempts == 1
        assert pdf_files(run) == [f"run-{run.pk}-zh-hans.pdf"]


# --- the broker unreachable when a run is started -----------------------------------


@pytest.mark.services
def test_a_run_started_while_the_broker_is_down_is_saved_and_starts_when_it_is_back(
    procurement, manager, client_for, api_for, database_url, private_redis, workers,
    tmp_path,
):  # fmt: skip
    from tco.models import RunStatus, TcoRun

    queue = f"cb-fault-{uuid.uuid4().hex[:8]}"
    start_worker(
        workers, database_url, private_redis.url, queue, "w", tmp_path,
        pool="prefork", concurrency=2, CB_FAULT_SWEEP_INTERVAL_S=1,
    )  # fmt: skip
    scenario = new_scenario(procurement, manager)
    page_client = client_for(manager)
    api = api_for(manager)
    api.credentials(HTTP_ACCEPT_LANGUAGE="zh-hans")
    with tasks_sent_to(private_redis.url, queue):
        private_redis.stop()

        asked_at = time.monotonic()
        page = page_client.post(
            f"/procurements/{procurement.pk}/tco/scenarios/{scenario.pk}/run/",
            HTTP_ACCEPT_LANGUAGE="en",
            follow=True,
        )
        page_s = time.monotonic() - asked_at
        asked_at = time.monotonic()
        answer = api.post(
            "/api/v1/tco/runs/",
            {"procurement": procurement.pk, "name": scenario.name, "inputs": INPUTS},
            format="json",
        )
        api_s = time.monotonic() - asked_at

        assert page.status_code == 200
        assert (
            "The task queue is unavailable right now. Your run is saved and will "
            "start when the queue is back."
        ) in page.content.decode()
        assert answer.status_code == 202, answer.content
        assert answer.json()["notice"] == (
            "任务队列暂时不可用。您的运行已保存，队列恢复后将自动开始。"
        )
        assert api_s < 5 and page_s < 10  # failed fast (the page also renders the run)
        ids = list(
            TcoRun.objects.filter(scenario=scenario).values_list("pk", flat=True)
        )
        assert len(ids) == 2
        time.sleep(1)  # the worker sweeps every second, failing to reach the broker
        waiting = TcoRun.objects.filter(pk__in=ids)
        assert all(run.waits_for_queue for run in waiting)

        private_redis.start()  # the same port, empty
        back_at = time.monotonic()
        # The worker's sweep sends both runs once the broker answers, and the worker
        # takes them as soon as its consumer has reconnected (backoff 2, 4, 6 ... s).
        wait_for(
            lambda: (
                not TcoRun.objects.filter(pk__in=ids, status=RunStatus.QUEUED).exists()
            ),
            timeout_s=30,
            interval_s=0.2,
        )
        started_s = time.monotonic() - back_at
        wait_for(
            lambda: (
                TcoRun.objects.filter(pk__in=ids)
                .exclude(status__in=[RunStatus.QUEUED, RunStatus.RUNNING])
                .count()
                == 2
            ),
            timeout_s=75,
            interval_s=0.3,
        )
        done_s = time.monotonic() - back_at

    for run in TcoRun.objects.filter(pk__in=ids):
        assert run.status == RunStatus.SUCCEEDED, run.error_message
        assert run.attempts == 1
        assert pdf_files(run) == [f"run-{run.pk}-{run.lang}.pdf"]
    after = api.get(f"/api/v1/tco/runs/{answer.json()['id']}/").json()
    assert after["status"] == "succeeded" and after["notice"] is None
    print(f"broker down: page {page_s:.2f} s, API {api_s:.2f} s; broker back: "
          f"both runs started in {started_s:.1f} s, done in {done_s:.1f} s")  # fmt: skip


# --- the PDF renderer fails ---------------------------------------------------------


def test_a_pdf_render_failure_stores_a_readable_error_and_touches_nothing_else(
    procurement, it_lead, manager, api_for, client_for, monkeypatch,
    django_capture_on_commit_callbacks, settings,
):  # fmt: skip
    from tco import report, services
    from tco.models import RunStatus, TcoRun

    settings.CELERY_TASK_ALWAYS_EAGER = True
    monkeypatch.setattr(services, "MONTE_CARLO_DRAWS", 300)
    monkeypatch.setattr(
        report, "build_tco_report", lambda *, run, analysis: b"%PDF-1.7 earlier"
    )
    scenario = new_scenario(procurement, it_lead)
    earlier = services.request_tco_run(scenario=scenario, user=it_lead, enqueue=False)
    services.execute_tco_run(run_id=earlier.pk)
    earlier.refresh_from_db()
    assert earlier.status == RunStatus.SUCCEEDED
    scenario.refresh_from_db()
    scenario_before = (scenario.name, scenario.inputs, scenario.updated_at)
    earlier_before = (earlier.status, earlier.result, earlier.pdf.name)

    def broken_renderer(*, run, analysis):
        raise RuntimeError("WeasyPrint could not load the font 'Noto Sans CJK'")

    monkeypatch.setattr(report, "build_tco_report", broken_renderer)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_for(manager).post(
            "/api/v1/tco/runs/",
            {"procurement": procurement.pk, "name": scenario.name, "inputs": INPUTS},
            format="json",
        )
    assert response.status_code == 202, response.content
    failed_id = response.json()["id"]

    body = api_for(manager).get(f"/api/v1/tco/runs/{failed_id}/").json()
    assert body["status"] == "failed"
    assert body["error_message"] == (
        "RuntimeError: WeasyPrint could not load the font 'Noto Sans CJK'"
    )
    assert body["report_url"] is None
    assert (
        api_for(manager).get(f"/api/v1/tco/runs/{failed_id}/report.pdf").status_code
        == 404
    )
    page = client_for(manager).get(
        f"/procurements/{procurement.pk}/tco/runs/{failed_id}/"
    )
    assert page.status_code == 200
    assert "WeasyPrint could not load the font" in page.content.decode()

    failed = TcoRun.objects.get(pk=failed_id)
    assert failed.result is None and not failed.pdf and failed.finished_at
    scenario.refresh_from_db()
    earlier.refresh_from_db()
    # The API saved the same inputs under the same name: nothing the user sees changed.
    assert (scenario.name, scenario.inputs) == scenario_before[:2]
    assert (earlier.status, earlier.result, earlier.pdf.name) == earlier_before
    assert earlier.pdf.open("rb").read() == b"%PDF-1.7 earlier"


# --- unique conflicts on save: clear messages, never a 500 --------------------------


def test_a_duplicate_procurement_name_is_a_field_error_in_the_api(
    procurement, it_lead, api_for
):
    api = in_english(api_for(it_lead))
    created = api.post(
        "/api/v1/procurements/", {"name": "Inference cluster"}, format="json"
    )
    assert created.status_code == 201

    duplicate = api.post(
        "/api/v1/procurements/", {"name": procurement.name}, format="json"
    )
    renamed = api.patch(
        f"/api/v1/procurements/{created.json()['id']}/",
        {"name": procurement.name},
        format="json",
    )

    for response in (duplicate, renamed):
        assert response.status_code == 400
        assert response.json() == {
            "name": [
                "A procurement with this name already exists in your organisation."
            ]
        }
    assert Procurement.objects.filter(name=procurement.name).count() == 1
    assert Procurement.objects.get(pk=created.json()["id"]).name == "Inference cluster"


def test_a_duplicate_procurement_name_is_a_form_error_in_the_ui(
    procurement, it_lead, client_for, settings
):
    settings.LANGUAGE_CODE = "en"
    client = client_for(it_lead)
    form = {"name": procurement.name, "currency": "CNY", "horizon_years": 5}
    form.update(deployment_site="on_prem", data_sensitivity="normal", region="cn")
    form["ops_staff_count"] = 0

    response = client.post("/procurements/new/", form, HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assert "A procurement with this name already exists" in response.content.decode()
    assert Procurement.objects.filter(name=procurement.name).count() == 1

    other = client.post(
        "/procurements/new/", {**form, "name": "Second"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert other.status_code == 302
    second = Procurement.objects.get(name="Second")
    edit = client.post(
        f"/procurements/{second.pk}/edit/", form, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert edit.status_code == 200
    assert "A procurement with this name already exists" in edit.content.decode()
    assert Procurement.objects.filter(name=procurement.name).count() == 1


def test_the_same_procurement_name_in_another_organisation_is_fine(
    procurement, outsider, api_for
):
    response = api_for(outsider).post(
        "/api/v1/procurements/", {"name": procurement.name}, format="json"
    )
    assert response.status_code == 201


def test_a_duplicate_tco_scenario_name_is_a_field_error(procurement, it_lead, api_for):
    new_scenario(procurement, it_lead, name="Baseline")
    response = in_english(api_for(it_lead)).post(
        f"/api/v1/procurements/{procurement.pk}/tco-scenarios/",
        {"name": "Baseline", "inputs": INPUTS},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"name": ["A scenario with this name already exists."]}


def test_a_duplicate_vendor_name_is_a_field_error(org, admin_user, api_for):
    vendors_api = "/api/v1/vendors/"
    api = api_for(admin_user)
    first = api.post(vendors_api, {"name": "Inspur"}, format="json")
    if first.status_code == 404:
        pytest.skip("the vendors API is not routed yet")
    assert first.status_code == 201, first.content

    duplicate = api.post(vendors_api, {"name": "Inspur"}, format="json")

    assert duplicate.status_code == 400
    assert list(duplicate.json()) == ["name"]
    assert duplicate.json()["name"][0]


def test_a_duplicate_vendor_name_is_a_form_error_in_the_ui(org, admin_user, client_for):
    from vendors.models import Vendor

    client = client_for(admin_user)
    form = {"name": "Inspur", "kind": "oem"}
    first = client.post("/vendors/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert first.status_code == 302

    duplicate = client.post("/vendors/", form, HTTP_ACCEPT_LANGUAGE="en")

    assert duplicate.status_code == 200
    assert (
        "A vendor with this name already exists in your organisation."
        in duplicate.content.decode()
    )
    assert Vendor.objects.filter(organisation=org, name="Inspur").count() == 1


def test_a_second_bid_from_the_same_vendor_is_a_field_error(
    org, procurement, admin_user, api_for
):
    api = api_for(admin_user)
    vendor = api.post("/api/v1/vendors/", {"name": "Sugon"}, format="json")
    if vendor.status_code == 404:
        pytest.skip("the vendors API is not routed yet")
    bids = f"/api/v1/procurements/{procurement.pk}/bids/"
    body = {
        "vendor": vendor.json()["id"],
        "accelerator": "h100-sxm",
        "gpu_count": 8,
        "scheduler": "slurm",
    }
    first = api.post(bids, body, format="json")
    assert first.status_code == 201, first.content

    duplicate = api.post(bids, body, format="json")

    assert duplicate.status_code == 400, duplicate.content
    assert duplicate.json()  # a message naming the field at fault
    assert api.get(bids).json()["count"] == 1


def test_a_viewer_cannot_trigger_the_unique_check(procurement, org, api_for):
    viewer = member(org, Role.VIEWER, "vera-viewer")
    response = api_for(viewer).post(
        "/api/v1/procurements/", {"name": procurement.name}, format="json"
    )
    assert response.status_code == 403


# --- the database unreachable while a run waits in the queue ------------------------


@pytest.mark.services
def test_a_run_queued_during_a_database_outage_starts_within_a_minute_of_its_return(
    procurement, manager, database_url, private_redis, workers, tmp_path
):
    """The probe's fault: PostgreSQL unreachable for 20 s while a queued run is
    delivered. The worker reaches the database through a proxy that is cut for 20 s
    (the server itself keeps running for the rest of the suite); the run must start
    within a minute of the database's return (it started 10 min 21 s later)."""
    from urllib.parse import urlsplit, urlunsplit

    from tco import services, tasks
    from tco.models import RunStatus, TcoRun
    from tests.proof.tcp_proxy import TcpProxy

    parts = urlsplit(database_url)
    proxy = TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    proxy.start()
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = (
        f"{userinfo}@127.0.0.1:{proxy.port}" if userinfo else f"127.0.0.1:{proxy.port}"
    )
    proxied = urlunsplit(parts._replace(netloc=netloc))
    queue = f"cb-fault-{uuid.uuid4().hex[:8]}"
    worker = start_worker(
        workers, proxied, private_redis.url, queue, "db", tmp_path,
        CB_FAULT_SWEEP_INTERVAL_S=300,  # only the task's own retries may bring it back
    )  # fmt: skip
    scenario = new_scenario(procurement, manager)
    try:
        proxy.cut()
        cut_at = time.monotonic()
        with pytest.raises(OSError):  # the database is out of the worker's reach
            socket.create_connection(("127.0.0.1", proxy.port), timeout=1).close()
        with tasks_sent_to(private_redis.url, queue):
            run = services.request_tco_run(scenario=scenario, user=manager)
        time.sleep(max(0.0, 20 - (time.monotonic() - cut_at)))
        assert TcoRun.objects.get(pk=run.pk).status == RunStatus.QUEUED
        proxy.start()
        back_at = time.monotonic()
        wait_for(
            lambda: TcoRun.objects.get(pk=run.pk).status != RunStatus.QUEUED,
            timeout_s=60,
            interval_s=0.2,
        )
        started_s = time.monotonic() - back_at
        wait_for(
            lambda: TcoRun.objects.get(pk=run.pk).status == RunStatus.SUCCEEDED,
            timeout_s=90,
            interval_s=0.3,
        )
        done = TcoRun.objects.get(pk=run.pk)
        assert done.attempts == 1  # the outage spent none of the run's attempts
        assert started_s <= tasks.OUTAGE_RETRY_MAX_S + 5
        print(f"database cut 20 s: run started {started_s:.1f} s after its return")
    finally:
        proxy.cut()
        worker.stop()
