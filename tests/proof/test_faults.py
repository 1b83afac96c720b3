"""Faults a deployment meets: a worker killed mid-run, a broker that lost its queue,
a PDF renderer that crashes, a save that hits a unique constraint.

The worker and broker tests use real processes: a private `redis-server` on a spare
port (never the shared 6379, which other test sessions use; and kombu restores
*every* queue's unacked messages, so a short visibility timeout must not touch a
shared broker) and `celery worker` processes (tests.conftest.WorkerProcess) started
through a small boot script that can slow the analysis down, so a test can catch a
run while it is RUNNING. The tco code itself is not changed.

Two recovery paths after a SIGKILL, both tested:
- redelivery: the worker runs with CELERY_VISIBILITY_TIMEOUT_S=3, so the broker gives
  the unacked message to the next worker. The claim rule (tco.services.claim_run)
  only lets a RUNNING run be taken again once it is older than RUN_STALE_AFTER
  (6 minutes), so the test moves the dead claim's ``started_at`` back by that much
  ("the worker died six minutes ago") before the second worker starts.
- sweeper: ``sweep_stuck_runs(now=...)`` called as if it were six minutes later puts
  the stale run back to QUEUED and enqueues it; the second worker runs with the
  settings' default visibility timeout (900 s), so only the sweeper brings it back.
The sending process needs no visibility setting: only the consuming worker restores.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models import F
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
# CB_FAULT_SLOW_RUN_S sleeps before the analysis (after the claim), and
# CB_FAULT_MC_DRAWS lowers the Monte Carlo draw count to keep the runs quick.
WORKER_BOOT = """
import os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")
import django
django.setup()
from clusterbuy.celery import app
from tco import services
if os.environ.get("CB_FAULT_MC_DRAWS"):
    services.MONTE_CARLO_DRAWS = int(os.environ["CB_FAULT_MC_DRAWS"])
slow_s = float(os.environ.get("CB_FAULT_SLOW_RUN_S") or 0)
if slow_s:
    real_full_analysis = services.full_analysis
    def slow_full_analysis(*args, **kwargs):
        time.sleep(slow_s)
        return real_full_analysis(*args, **kwargs)
    services.full_analysis = slow_full_analysis
app.worker_main(["worker", *sys.argv[1:]])
"""


class FaultWorker(WorkerProcess):
    """A WorkerProcess started through WORKER_BOOT with extra environment."""

    def __init__(self, *args, extra_env: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.extra_env = extra_env or {}

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
                "--pool=solo",
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


class PrivateRedis:
    """A throw-away redis-server on a spare port that keeps nothing on restart."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.port = self._spare_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    @staticmethod
    def _spare_port() -> int:
        for _ in range(50):
            port = 6390 + random.randrange(2000)
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError("no spare port for redis-server")

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5)

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def answers():
            try:
                return self.client().ping()
            except Exception:  # noqa: BLE001 - still starting
                return False

        wait_for(answers, timeout_s=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def private_redis(tmp_path):
    if not shutil.which("redis-server"):
        missing_service("redis-server is needed for the broker fault tests")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def database_url(transactional_db):
    from django.db import connection

    url = _database_url(connection.settings_dict)
    if not url:
        missing_service("PostgreSQL (DATABASE_URL) is needed for worker tests")
    return url


@pytest.fixture
def workers(tmp_path):
    started: list[FaultWorker] = []
    yield started
    for worker in started:
        worker.stop()
        if worker.proc is not None:
            print(f"--- {worker.log_path.name}\n{worker.log_text()}")


def start_worker(workers, database_url, broker_url, queue, name, tmp_path, **env):
    worker = FaultWorker(
        database_url,
        broker_url,
        queue,
        tmp_path / f"{name}.log",
        extra_env={k: str(v) for k, v in env.items()},
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


@pytest.mark.services
@pytest.mark.parametrize("recovery", ["redelivery", "sweeper"])
def test_a_run_whose_worker_is_sigkilled_completes_exactly_once(
    recovery, procurement, it_lead, database_url, private_redis, workers, tmp_path
):
    from tco import services
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
        killed = TcoRun.objects.get(pk=run.pk)
        assert (killed.status, killed.attempts) == (RunStatus.RUNNING, 1)
        assert pdf_files(run) == []

        stale = services.RUN_STALE_AFTER + timedelta(seconds=5)
        if recovery == "redelivery":
            TcoRun.objects.filter(pk=run.pk).update(started_at=F("started_at") - stale)
            time.sleep(4)  # past the 3 s visibility timeout of the delivered message
            start_worker(
                workers, database_url, private_redis.url, queue, "second", tmp_path,
                **vt,
            )  # fmt: skip
        else:
            start_worker(
                workers, database_url, private_redis.url, queue, "second", tmp_path
            )
            swept = services.sweep_stuck_runs(now=timezone.now() + stale)
            assert swept == {"requeued": 1, "failed": 0}

        wait_for(
            lambda: TcoRun.objects.filter(pk=run.pk).exclude(
                status__in=[RunStatus.QUEUED, RunStatus.RUNNING]
            ),
            timeout_s=120,
            interval_s=0.3,
        )
        time.sleep(2)  # a duplicate delivery, if any, would show up by now

    done = TcoRun.objects.get(pk=run.pk)
    assert done.status == RunStatus.SUCCEEDED, done.error_message
    assert done.attempts == 2
    assert done.result is not None and done.progress_pct == 100
    assert TcoRun.objects.filter(scenario=scenario).count() == 1
    assert done.pdf.name == f"tco/run-{run.pk}-zh-hans.pdf"
    assert pdf_files(run) == [f"run-{run.pk}-zh-hans.pdf"]
    assert done.pdf.open("rb").read(5) == b"%PDF-"


# --- the broker restarted while runs were queued ------------------------------------


@pytest.mark.services
def test_runs_queued_when_redis_restarts_are_recovered_by_the_sweeper(
    procurement, it_lead, database_url, private_redis, workers, tmp_path
):
    from tco import services
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
        swept = services.sweep_stuck_runs(queued_after=timedelta(0))
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
    form.update(deployment_site="on_prem", data_sensitivity="normal")
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
