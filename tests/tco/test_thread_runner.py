"""TCO runs under the embedded thread runner (no broker: `make run`).

The request answers before the analysis runs; the run then goes through the same
claim, progress, failure, retry and cancel rules as with a worker. The analysis is
held at a gate so each test looks at the run mid-way, whatever the machine's speed.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.urls import reverse
from django.utils import timezone

from clusterbuy import task_runner
from tco import services
from tco.models import RunStatus, TcoRun
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)  # the pool has its own connections


class Gate:
    """Stands in for the engine's full analysis: reports 50 %, waits, then runs it."""

    def __init__(self, real, fail_first: list[BaseException] | None = None):
        self.real = real
        self.fail_first = list(fail_first or [])
        self.reached = threading.Event()
        self.opened = threading.Event()
        self.calls = 0

    def __call__(self, inputs, *, progress, **kwargs):
        self.calls += 1
        progress(50)  # the analysis share is 0..80 %: the bar shows 40 %
        self.reached.set()
        assert self.opened.wait(20), "the test never opened the gate"
        if self.fail_first:
            raise self.fail_first.pop(0)
        return self.real(inputs, progress=progress, **kwargs)


@pytest.fixture
def gate(monkeypatch, settings, few_draws):
    settings.CLUSTERBUY_TASK_RUNNER = "thread"
    task_runner.wait_for_idle(timeout_s=30)
    gate = Gate(services.full_analysis)
    monkeypatch.setattr(services, "full_analysis", gate)
    yield gate
    gate.opened.set()
    task_runner.wait_for_idle(timeout_s=60)


@pytest.fixture
def pdfs(monkeypatch):
    """WeasyPrint is not the subject here: a fake PDF, and the runs it was made for."""
    from tco import report

    made: list[int] = []

    def fake(*, run, analysis):
        made.append(run.pk)
        return b"%PDF-1.7 fake"

    monkeypatch.setattr(report, "build_tco_report", fake)
    return made


def _start(client, procurement, scenario) -> tuple[TcoRun, float]:
    url = reverse("tco:run-start", args=[procurement.pk, scenario.pk])
    started = time.perf_counter()
    response = client.post(url)
    elapsed_s = time.perf_counter() - started
    run = TcoRun.objects.get(scenario=scenario)
    assert response.status_code == 302
    assert response["Location"] == reverse("tco:run", args=[procurement.pk, run.pk])
    return run, elapsed_s


def _finished(run: TcoRun) -> TcoRun:
    return wait_for(
        lambda: (r := TcoRun.objects.get(pk=run.pk)).is_finished and r, timeout_s=60
    )


def test_the_request_answers_before_the_analysis_and_the_page_shows_progress(
    gate, pdfs, procurement, scenario, it_lead, client_for
):
    client = client_for(it_lead)

    run, elapsed_s = _start(client, procurement, scenario)

    assert elapsed_s < 1.0  # the browser test holds the 200 ms target
    assert gate.reached.wait(20)
    progress = client.get(
        reverse("tco:run-progress", args=[procurement.pk, run.pk]),
        headers={"HX-Request": "true"},
    )
    assert progress.status_code == 200
    html = progress.content.decode()
    assert 'aria-valuenow="40"' in html and 'hx-trigger="every 1s"' in html
    page = client.get(reverse("tco:run", args=[procurement.pk, run.pk]))
    assert b'id="cancel-run"' in page.content

    gate.opened.set()
    done = _finished(run)
    assert (done.status, done.progress_pct, done.attempts) == (
        RunStatus.SUCCEEDED,
        100,
        1,
    )
    assert done.result["result"]["total_cost"] == 1_595_180  # tests/tco/test_api.py
    assert pdfs == [run.pk]
    assert done.claimed_by.endswith(f":{os.getpid()}")  # this process
    finished = client.get(
        reverse("tco:run-progress", args=[procurement.pk, run.pk]),
        headers={"HX-Request": "true"},
    )
    assert finished["HX-Refresh"] == "true"  # the poll reloads into the results


def test_an_error_in_the_analysis_fails_the_run_with_its_message(
    gate, pdfs, procurement, scenario, it_lead, client_for, settings
):
    settings.LANGUAGE_CODE = "en"
    gate.fail_first = [ValueError("no convergence")]
    client = client_for(it_lead)

    run, _elapsed = _start(client, procurement, scenario)
    gate.opened.set()
    done = _finished(run)

    assert done.status == RunStatus.FAILED
    assert done.error_message == "ValueError: no convergence"
    assert done.finished_at is not None and not done.pdf and pdfs == []
    page = client.get(reverse("tco:run", args=[procurement.pk, run.pk]))
    assert b"ValueError: no convergence" in page.content
    assert b'id="retry-run"' in page.content and b'id="cancel-run"' not in page.content


def test_a_transient_database_error_puts_the_run_back_and_the_retry_finishes_it(
    gate, pdfs, procurement, scenario, it_lead, client_for, monkeypatch
):
    from tco import tasks

    waits: list[float] = []
    monkeypatch.setattr(task_runner, "retry_sleep", waits.append)
    # Twice: before the runner drove the retries, the second one escaped the
    # in-process apply and the run was left queued for the sweep.
    gate.fail_first = [OperationalError("server closed the connection")] * 2

    run, _elapsed = _start(client_for(it_lead), procurement, scenario)
    gate.opened.set()
    done = _finished(run)

    assert gate.calls == 3  # the task's autoretry, as in a worker
    # each retry after its countdown: full jitter up to 5 s, then up to 10 s
    assert len(waits) == 2
    assert 0 <= waits[0] <= tasks.RETRY_BACKOFF_S
    assert 0 <= waits[1] <= 2 * tasks.RETRY_BACKOFF_S
    assert (done.status, done.attempts, done.error_message) == (
        RunStatus.SUCCEEDED,
        3,
        "",
    )
    assert pdfs == [run.pk]


def test_cancelling_a_running_run_stops_it_and_keeps_it_cancelled(
    gate, pdfs, procurement, scenario, it_lead, client_for, settings
):
    settings.LANGUAGE_CODE = "en"
    client = client_for(it_lead)
    run, _elapsed = _start(client, procurement, scenario)
    assert gate.reached.wait(20)

    answer = client.post(
        reverse("tco:run-cancel", args=[procurement.pk, run.pk]), follow=True
    )
    gate.opened.set()
    task_runner.wait_for_idle(timeout_s=60)

    assert b"The run was cancelled." in answer.content
    stopped = TcoRun.objects.get(pk=run.pk)
    assert stopped.status == RunStatus.FAILED
    assert stopped.error_message == f"Cancelled by {it_lead.get_username()}."
    assert stopped.progress_pct == 40 and stopped.result is None
    assert pdfs == []  # stopped at its next progress step, before the PDF
    again = client.post(
        reverse("tco:run-cancel", args=[procurement.pk, run.pk]), follow=True
    )
    assert b"The run had already finished." in again.content


def test_only_members_who_may_run_analyses_can_cancel(
    gate, pdfs, procurement, scenario, it_lead, viewer, outsider, client_for
):
    run, _elapsed = _start(client_for(it_lead), procurement, scenario)
    url = reverse("tco:run-cancel", args=[procurement.pk, run.pk])

    assert client_for(outsider).post(url).status_code == 404
    assert client_for(viewer).post(url).status_code == 403
    page = client_for(viewer).get(reverse("tco:run", args=[procurement.pk, run.pk]))
    assert b'id="cancel-run"' not in page.content
    gate.opened.set()
    assert _finished(run).status == RunStatus.SUCCEEDED


def test_the_dev_server_sweeps_from_its_first_request_and_finishes_a_stuck_run(
    gate, pdfs, procurement, scenario, it_lead, client_for, settings
):
    settings.CLUSTERBUY_EMBEDDED_BEAT_S = 60
    run = services.request_tco_run(
        scenario=scenario, user=it_lead, lang="en", enqueue=False
    )
    beat = timezone.now() - timedelta(minutes=5)  # the dev server restarted mid-run
    TcoRun.objects.filter(pk=run.pk).update(
        status=RunStatus.RUNNING, attempts=1, started_at=beat, heartbeat_at=beat
    )
    gate.opened.set()

    try:
        client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk]))
        done = _finished(run)
    finally:
        task_runner.stop_embedded_beat()

    assert (done.status, done.attempts) == (RunStatus.SUCCEEDED, 2)
    assert pdfs == [run.pk]


def test_without_the_thread_runner_requests_start_no_sweep(
    procurement, it_lead, client_for, settings
):
    settings.CLUSTERBUY_EMBEDDED_BEAT_S = 60
    settings.CLUSTERBUY_TASK_RUNNER = "eager"

    client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk]))

    assert not [t for t in threading.enumerate() if t.name == "clusterbuy-beat"]
