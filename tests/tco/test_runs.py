import socket
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from tco import claims, report, services, sweep, tasks
from tco.models import RunStatus, TcoRun


def _queued(scenario, user, lang="en"):
    return services.request_tco_run(
        scenario=scenario, user=user, lang=lang, enqueue=False
    )


def test_requesting_a_run_snapshots_inputs_and_enqueues_after_commit(
    scenario, it_lead, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        tasks.run_tco, "apply_async", lambda args, queue: sent.append((args, queue))
    )

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = services.request_tco_run(scenario=scenario, user=it_lead, lang="en")
    assert sent == []  # nothing is sent before the transaction commits
    for callback in callbacks:
        callback()

    assert sent == [([run.pk], "clusterbuy")]
    assert run.status == RunStatus.QUEUED
    assert run.inputs == scenario.inputs
    assert run.engine_version == "tco-2.0.0"
    run.refresh_from_db()
    assert run.queue == "clusterbuy" and run.enqueued_at is not None
    assert not run.waits_for_queue and run.queue_notice == ""


def _broker_down(*args, **kwargs):
    raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_with_the_broker_down_a_requested_run_is_saved_and_waits_for_the_queue(
    scenario, it_lead, monkeypatch, django_capture_on_commit_callbacks, settings
):
    settings.LANGUAGE_CODE = "en"
    monkeypatch.setattr(tasks.run_tco, "apply_async", _broker_down)

    with django_capture_on_commit_callbacks(execute=True):
        run = services.request_tco_run(scenario=scenario, user=it_lead)

    assert run.waits_for_queue
    stored = TcoRun.objects.get(pk=run.pk)
    assert (stored.status, stored.enqueued_at, stored.attempts) == (
        RunStatus.QUEUED,
        None,
        0,
    )
    assert stored.queue_notice == (
        "The task queue is unavailable right now. Your run is saved and will start "
        "when the queue is back."
    )


@pytest.mark.django_db(transaction=True)  # on_commit runs as in production
@pytest.mark.parametrize(
    ("language", "notice"),
    [
        ("en", "The task queue is unavailable right now. Your run is saved"),
        ("zh-hans", "任务队列暂时不可用。您的运行已保存，队列恢复后将自动开始。"),
    ],
)
def test_starting_a_run_with_the_broker_down_tells_the_user_in_the_ui_and_the_api(
    language, notice, procurement, scenario, manager, client_for, api_for,
    hand_inputs, monkeypatch,
):  # fmt: skip
    monkeypatch.setattr(tasks.run_tco, "apply_async", _broker_down)
    client = client_for(manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    api = api_for(manager)
    api.credentials(HTTP_ACCEPT_LANGUAGE=language)

    page = client.post(
        reverse("tco:run-start", args=[procurement.pk, scenario.pk]), follow=True
    )
    answer = api.post(
        "/api/v1/tco/runs/",
        {"procurement": procurement.pk, "inputs": hand_inputs},
        format="json",
    )

    assert page.status_code == 200
    assert notice in page.content.decode()
    assert answer.status_code == 202, answer.content
    assert answer.json()["status"] == "queued"
    assert notice in answer.json()["notice"]
    assert notice in api.get(answer["Location"]).json()["notice"]
    assert TcoRun.objects.filter(status=RunStatus.QUEUED, enqueued_at=None).count() == 2


def test_a_run_goes_from_queued_to_succeeded_with_result_and_pdf(
    scenario, it_lead, fake_pdf, few_draws, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        run = services.request_tco_run(scenario=scenario, user=it_lead, lang="en")

    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED
    assert run.progress_pct == 100
    assert run.attempts == 1
    assert run.started_at <= run.finished_at
    assert run.result["result"]["total_cost"] == 1_595_180
    assert run.result["monte_carlo"]["draws"] == 500
    assert run.pdf.name == f"tco/run-{run.pk}-en.pdf"
    assert run.pdf.read() == b"%PDF-1.7 fake"


def test_a_run_delivered_twice_has_one_result_and_one_pdf(
    scenario, it_lead, fake_pdf, few_draws
):
    run = _queued(scenario, it_lead)

    first = services.execute_tco_run(run_id=run.pk)
    second = services.execute_tco_run(run_id=run.pk)

    assert second is None  # nothing left to claim
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED
    assert run.attempts == 1
    assert run.pdf.name == first.pdf.name == f"tco/run-{run.pk}-en.pdf"
    _dirs, files = default_storage.listdir("tco")
    # no second copy with a collision suffix (run-<id>-en_AbC123.pdf)
    assert [f for f in files if f.startswith(f"run-{run.pk}-en")] == [
        f"run-{run.pk}-en.pdf"
    ]


def test_a_failing_run_stores_a_readable_error_and_touches_nothing_else(
    scenario, it_lead, few_draws, monkeypatch
):
    inputs_before = dict(scenario.inputs)
    updated_before = scenario.updated_at

    def broken(*, run, analysis):
        raise RuntimeError("font cache is corrupt")

    monkeypatch.setattr(report, "build_tco_report", broken)
    run = services.execute_tco_run(run_id=_queued(scenario, it_lead).pk)

    assert run.status == RunStatus.FAILED
    assert run.error_message == "RuntimeError: font cache is corrupt"
    assert run.result is None and not run.pdf
    assert run.finished_at is not None
    scenario.refresh_from_db()
    assert scenario.inputs == inputs_before and scenario.updated_at == updated_before


def test_a_failed_run_leaves_earlier_runs_untouched(
    scenario, it_lead, fake_pdf, few_draws, monkeypatch
):
    good = services.execute_tco_run(run_id=_queued(scenario, it_lead).pk)
    monkeypatch.setattr(
        report, "build_tco_report", lambda **kw: (_ for _ in ()).throw(ValueError("x"))
    )
    bad = services.execute_tco_run(run_id=_queued(scenario, it_lead).pk)

    good_after = TcoRun.objects.get(pk=good.pk)
    assert bad.status == RunStatus.FAILED
    assert good_after.status == RunStatus.SUCCEEDED
    assert good_after.result == good.result and good_after.pdf.name == good.pdf.name


def test_a_transient_error_puts_the_run_back_in_the_queue(
    scenario, it_lead, few_draws, monkeypatch
):
    def disk_full(*, run, analysis):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "build_tco_report", disk_full)
    run = _queued(scenario, it_lead)

    with pytest.raises(services.TransientRunError):
        services.execute_tco_run(run_id=run.pk)

    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED and run.attempts == 1
    assert "No space left" in run.error_message


def _running(run, *, heartbeat_ago: timedelta, attempts: int = 1):
    """The run as a worker that beat ``heartbeat_ago`` left it."""
    beat = timezone.now() - heartbeat_ago
    TcoRun.objects.filter(pk=run.pk).update(
        status=RunStatus.RUNNING,
        started_at=beat - timedelta(seconds=10),
        heartbeat_at=beat,
        attempts=attempts,
    )


def test_a_running_run_is_reclaimed_only_when_its_heartbeat_is_stale(scenario, it_lead):
    run = _queued(scenario, it_lead)
    started = timezone.now()
    first = claims.claim_run(run_id=run.pk, now=started)
    assert first is not None

    silent = started + claims.HEARTBEAT_STALE_AFTER + timedelta(seconds=1)
    assert claims.claim_run(run_id=run.pk, now=started + timedelta(seconds=20)) is None
    TcoRun.objects.filter(pk=run.pk).update(heartbeat_at=started + timedelta(minutes=2))
    assert claims.claim_run(run_id=run.pk, now=silent) is None  # it beat since

    second = claims.claim_run(
        run_id=run.pk, now=silent + timedelta(minutes=2, seconds=1)
    )
    assert second is not None and second != first
    run.refresh_from_db()
    assert (run.attempts, run.claim_token, run.status) == (2, second, "running")
    assert run.claimed_by == claims.worker_name()
    assert not claims.held(run_id=run.pk, token=first).exists()


def test_a_run_claimed_by_a_release_without_heartbeats_waits_for_the_old_bound(
    scenario, it_lead
):
    run = _queued(scenario, it_lead)
    now = timezone.now()
    TcoRun.objects.filter(pk=run.pk).update(
        status=RunStatus.RUNNING, started_at=now - timedelta(minutes=2), attempts=1
    )

    assert claims.claim_run(run_id=run.pk, now=now) is None
    later = now + claims.LEGACY_CLAIM_STALE_AFTER
    assert claims.claim_run(run_id=run.pk, now=later) is not None


@pytest.mark.parametrize(
    ("holder", "taken_over"),
    [("gone", True), ("alive", False), ("other-host", False)],
)
def test_a_run_whose_process_on_this_host_is_gone_is_taken_over_at_once(
    holder, taken_over, scenario, it_lead
):
    run = _queued(scenario, it_lead)
    _running(run, heartbeat_ago=timedelta(seconds=1))  # the heartbeat is fresh
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    if holder != "alive":
        process.kill()
        process.wait()  # reaped: its pid names no process now
    host = "elsewhere" if holder == "other-host" else socket.gethostname()
    dead_token = uuid.uuid4()
    TcoRun.objects.filter(pk=run.pk).update(
        claimed_by=f"{host}:{process.pid}", claim_token=dead_token
    )
    try:
        token = claims.claim_run(run_id=run.pk)
    finally:
        process.kill()
        process.wait()

    assert (token is not None) == taken_over
    run.refresh_from_db()
    assert run.attempts == (2 if taken_over else 1)
    assert run.claim_token == (token if taken_over else dead_token)


def test_a_delivery_of_a_run_held_by_a_live_worker_is_told_when_to_come_back(
    scenario, it_lead
):
    run = _queued(scenario, it_lead)
    _running(run, heartbeat_ago=timedelta(seconds=10))

    with pytest.raises(services.RunBusy) as busy:
        services.execute_tco_run(run_id=run.pk)

    # The claim is stale 30 s after its last beat, 10 s ago: back in about 21 s.
    assert 19 <= busy.value.retry_in_s <= 21
    run.refresh_from_db()
    assert (run.status, run.attempts) == (RunStatus.RUNNING, 1)


def test_a_redelivered_run_whose_worker_fell_silent_is_taken_over_at_once(
    scenario, it_lead, fake_pdf, few_draws
):
    run = _queued(scenario, it_lead)
    _running(run, heartbeat_ago=claims.HEARTBEAT_STALE_AFTER + timedelta(seconds=1))

    done = services.execute_tco_run(run_id=run.pk)

    assert done.status == RunStatus.SUCCEEDED
    assert done.attempts == 2 and done.progress_pct == 100
    assert done.pdf.name == f"tco/run-{run.pk}-en.pdf"


def test_nothing_to_wait_for_when_the_run_is_done_or_on_its_last_attempt(
    scenario, it_lead
):
    done = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=done.pk).update(status=RunStatus.SUCCEEDED, result={})
    last = _queued(scenario, it_lead)
    _running(last, heartbeat_ago=timedelta(0), attempts=claims.MAX_ATTEMPTS)

    assert services.execute_tco_run(run_id=done.pk) is None
    assert services.execute_tco_run(run_id=last.pk) is None


def test_a_worker_that_lost_its_claim_writes_nothing(
    scenario, it_lead, few_draws, monkeypatch
):
    run = _queued(scenario, it_lead)

    def render_while_another_worker_takes_over(*, run, analysis):
        later = timezone.now() + claims.HEARTBEAT_STALE_AFTER + timedelta(seconds=1)
        assert claims.claim_run(run_id=run.pk, now=later) is not None
        return b"%PDF-1.7 late"

    monkeypatch.setattr(
        report, "build_tco_report", render_while_another_worker_takes_over
    )

    assert services.execute_tco_run(run_id=run.pk) is None
    run.refresh_from_db()
    assert (run.status, run.attempts, run.result) == (RunStatus.RUNNING, 2, None)
    assert not run.pdf
    assert not default_storage.exists(f"tco/run-{run.pk}-en.pdf")


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_beats_while_a_step_reports_no_progress(
    scenario, it_lead, monkeypatch
):
    monkeypatch.setattr(claims, "HEARTBEAT_INTERVAL_S", 0.05)
    run = _queued(scenario, it_lead)
    token = claims.claim_run(run_id=run.pk)
    claimed_at = TcoRun.objects.get(pk=run.pk).heartbeat_at

    with claims.heartbeat(run_id=run.pk, token=token):
        time.sleep(0.5)  # the PDF render: one long call, no progress callbacks

    beat = TcoRun.objects.get(pk=run.pk).heartbeat_at
    assert beat > claimed_at
    time.sleep(0.2)
    assert TcoRun.objects.get(pk=run.pk).heartbeat_at == beat  # stopped with the block
    assert not [t for t in threading.enumerate() if t.name.endswith("-heartbeat")]


def test_a_busy_delivery_retries_when_the_claim_could_be_stale(
    scenario, it_lead, monkeypatch
):
    run = _queued(scenario, it_lead)
    _running(run, heartbeat_ago=timedelta(seconds=5))
    retried = []

    def retry(**kwargs):
        retried.append(kwargs)
        return RuntimeError("retry")

    monkeypatch.setattr(tasks.run_tco, "retry", retry)

    with pytest.raises(RuntimeError, match="retry"):
        tasks.run_tco.run(run.pk)

    assert len(retried) == 1
    assert 24 <= retried[0]["countdown"] <= 26
    assert retried[0]["max_retries"] == tasks.BUSY_RECHECKS_MAX


def _sent_to(monkeypatch, *, broker_up=True):
    sent = []

    def send_run(*, run_id, queue):
        if broker_up:
            sent.append((run_id, queue))
        return broker_up

    monkeypatch.setattr(services, "send_run", send_run)
    return sent


def test_sweeper_resends_a_run_whose_message_is_old_or_was_never_sent(
    scenario, it_lead, monkeypatch
):
    sent = _sent_to(monkeypatch)
    old = _queued(scenario, it_lead)
    new = _queued(scenario, it_lead)
    unsent = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=old.pk).update(
        enqueued_at=timezone.now() - timedelta(minutes=30)
    )
    TcoRun.objects.filter(pk=unsent.pk).update(enqueued_at=None)

    counts = sweep.sweep_stuck_runs()

    assert sent == [(old.pk, "clusterbuy"), (unsent.pk, "clusterbuy")]
    assert counts == {"requeued": 2, "failed": 0}
    assert TcoRun.objects.get(pk=new.pk).status == RunStatus.QUEUED
    assert not TcoRun.objects.get(pk=unsent.pk).waits_for_queue
    assert sweep.sweep_stuck_runs() == {"requeued": 0, "failed": 0}  # twice: no-op
    assert len(sent) == 2


def test_sweeper_leaves_a_run_unsent_while_the_broker_is_down(
    scenario, it_lead, monkeypatch
):
    _sent_to(monkeypatch, broker_up=False)
    unsent = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=unsent.pk).update(enqueued_at=None)

    assert sweep.sweep_stuck_runs() == {"requeued": 0, "failed": 0}

    assert TcoRun.objects.get(pk=unsent.pk).waits_for_queue


def test_sweeper_touches_no_run_while_the_broker_does_not_answer(
    scenario, it_lead, monkeypatch
):
    sent = _sent_to(monkeypatch)
    monkeypatch.setattr(sweep, "_broker_answers", lambda: False)
    unsent = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=unsent.pk).update(enqueued_at=None)

    assert sweep.sweep_stuck_runs() == {"requeued": 0, "failed": 0}

    assert sent == []
    assert TcoRun.objects.get(pk=unsent.pk).waits_for_queue  # the notice stays


def test_sweeper_retries_a_dead_workers_run_and_gives_up_after_max_attempts(
    scenario, it_lead, monkeypatch
):
    sent = _sent_to(monkeypatch)
    silent = claims.HEARTBEAT_STALE_AFTER + timedelta(seconds=1)
    retry = _queued(scenario, it_lead)
    give_up = _queued(scenario, it_lead)
    alive = _queued(scenario, it_lead)
    _running(retry, heartbeat_ago=silent)
    _running(give_up, heartbeat_ago=silent, attempts=claims.MAX_ATTEMPTS)
    _running(alive, heartbeat_ago=timedelta(seconds=5))

    counts = sweep.sweep_stuck_runs()

    assert counts == {"requeued": 1, "failed": 1}
    assert sent == [(retry.pk, "clusterbuy")]
    assert TcoRun.objects.get(pk=retry.pk).status == RunStatus.QUEUED
    failed = TcoRun.objects.get(pk=give_up.pk)
    assert failed.status == RunStatus.FAILED and failed.error_message
    assert TcoRun.objects.get(pk=alive.pk).status == RunStatus.RUNNING


def test_a_workers_sweep_looks_after_the_runs_of_its_own_queues(
    scenario, it_lead, monkeypatch
):
    sent = _sent_to(monkeypatch)
    mine = _queued(scenario, it_lead)
    legacy = _queued(scenario, it_lead)
    other = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=legacy.pk).update(queue="")
    TcoRun.objects.filter(pk=other.pk).update(queue="staging")
    TcoRun.objects.update(enqueued_at=None)

    sweep.sweep_stuck_runs(queues=["clusterbuy"])

    assert sent == [(mine.pk, "clusterbuy"), (legacy.pk, "")]
    assert TcoRun.objects.get(pk=other.pk).waits_for_queue


def test_the_worker_sweep_thread_sweeps_its_queues_until_stopped(monkeypatch):
    swept = []
    monkeypatch.setattr(
        sweep, "sweep_stuck_runs", lambda *, queues: swept.append(queues) or {}
    )
    monkeypatch.setattr(sweep, "SWEEP_INTERVAL_S", 0.05)

    class Consumer:
        from clusterbuy.celery import app

    tasks.start_worker_sweep(Consumer())
    time.sleep(0.3)
    tasks.stop_worker_sweep()

    assert len(swept) >= 2  # one at once, then every interval
    assert swept[0] == sorted(Consumer.app.amqp.queues.consume_from)
    assert not tasks._worker_sweep["thread"].is_alive()


def test_sweep_is_on_the_beat_schedule():
    from clusterbuy.celery import app

    entry = app.conf.beat_schedule[tasks.SWEEP_SCHEDULE_NAME]
    assert entry["task"] == "tco.tasks.sweep_tco_runs"


def test_the_task_is_late_acked_with_time_limits_retries_and_heartbeat_bounds():
    from clusterbuy.celery import app

    assert tasks.run_tco.acks_late is True
    assert tasks.run_tco.reject_on_worker_lost is True
    assert tasks.run_tco.time_limit == services.TASK_TIME_LIMIT_S
    assert tasks.run_tco.soft_time_limit == services.TASK_SOFT_TIME_LIMIT_S
    assert services.TransientRunError in tasks.run_tco.autoretry_for
    # A claim is stale only after several missed beats, and long before Redis would
    # redeliver a dead worker's message.
    stale_s = claims.HEARTBEAT_STALE_AFTER.total_seconds()
    assert 3 * claims.HEARTBEAT_INTERVAL_S <= stale_s <= 60
    visibility_s = app.conf.broker_transport_options["visibility_timeout"]
    assert visibility_s > app.conf.task_time_limit >= services.TASK_TIME_LIMIT_S


def test_prefill_uses_the_sizing_plan_and_converts_the_gpu_price(
    procurement, monkeypatch
):
    from decimal import Decimal

    from sizing.services import PlanSummary

    plan = PlanSummary(
        gpu_count=16,
        it_power_kw=20.4,
        accelerator="h100-sxm",
        accelerator_name="H100 SXM",
        gpu_price=Decimal("25000"),
        gpu_price_currency="USD",
    )
    monkeypatch.setattr(services, "sizing_plan", lambda *, procurement: plan)

    inputs = services.prefill_inputs(procurement=procurement)

    assert inputs["gpu_count"] == 16 and inputs["it_power_kw"] == 20.4
    # 16 x 25,000 USD x 7.2 CNY/USD = 2,880,000 CNY
    assert inputs["capex"] == [
        {
            "category": "gpu_servers",
            "description": "16 x H100 SXM",
            "amount": 2_880_000.0,
        }
    ]


def test_prefill_without_a_plan_takes_horizon_and_currency(procurement, monkeypatch):
    monkeypatch.setattr(services, "sizing_plan", lambda *, procurement: None)

    assert services.prefill_inputs(procurement=procurement) == {
        "horizon_years": 5,
        "currency": "CNY",
    }
