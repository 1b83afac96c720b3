from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.utils import timezone

from tco import report, services, tasks
from tco.models import RunStatus, TcoRun


def _queued(scenario, user, lang="en"):
    return services.request_tco_run(
        scenario=scenario, user=user, lang=lang, enqueue=False
    )


def test_requesting_a_run_snapshots_inputs_and_enqueues_after_commit(
    scenario, it_lead, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(tasks.run_tco, "delay", lambda run_id: sent.append(run_id))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = services.request_tco_run(scenario=scenario, user=it_lead, lang="en")
    assert sent == []  # nothing is sent before the transaction commits
    for callback in callbacks:
        callback()

    assert sent == [run.pk]
    assert run.status == RunStatus.QUEUED
    assert run.inputs == scenario.inputs
    assert run.engine_version == "tco-1.0.0"


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


def test_a_running_run_is_reclaimed_only_when_its_worker_is_presumed_dead(
    scenario, it_lead
):
    run = _queued(scenario, it_lead)
    started = timezone.now()
    assert services.claim_run(run_id=run.pk, now=started) == started

    fresh = started + timedelta(seconds=60)
    stale = started + services.RUN_STALE_AFTER + timedelta(seconds=1)
    assert services.claim_run(run_id=run.pk, now=fresh) is None
    assert services.claim_run(run_id=run.pk, now=stale) == stale
    run.refresh_from_db()
    assert run.attempts == 2


def test_sweeper_reenqueues_a_run_stuck_in_the_queue(scenario, it_lead, monkeypatch):
    sent = []
    monkeypatch.setattr(services, "_enqueue", sent.append)
    old = _queued(scenario, it_lead)
    new = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(minutes=30)
    )

    counts = services.sweep_stuck_runs()

    assert sent == [old.pk]
    assert counts == {"requeued": 1, "failed": 0}
    assert TcoRun.objects.get(pk=new.pk).status == RunStatus.QUEUED


def test_sweeper_retries_a_dead_workers_run_and_gives_up_after_max_attempts(
    scenario, it_lead, monkeypatch
):
    sent = []
    monkeypatch.setattr(services, "_enqueue", sent.append)
    long_ago = timezone.now() - services.RUN_STALE_AFTER - timedelta(minutes=1)
    retry = _queued(scenario, it_lead)
    give_up = _queued(scenario, it_lead)
    TcoRun.objects.filter(pk=retry.pk).update(
        status=RunStatus.RUNNING, started_at=long_ago, attempts=1
    )
    TcoRun.objects.filter(pk=give_up.pk).update(
        status=RunStatus.RUNNING, started_at=long_ago, attempts=services.MAX_ATTEMPTS
    )

    counts = services.sweep_stuck_runs()

    assert counts == {"requeued": 1, "failed": 1}
    assert sent == [retry.pk]
    assert TcoRun.objects.get(pk=retry.pk).status == RunStatus.QUEUED
    failed = TcoRun.objects.get(pk=give_up.pk)
    assert failed.status == RunStatus.FAILED and failed.error_message


def test_sweep_is_on_the_beat_schedule():
    from clusterbuy.celery import app

    entry = app.conf.beat_schedule[tasks.SWEEP_SCHEDULE_NAME]
    assert entry["task"] == "tco.tasks.sweep_tco_runs"


def test_the_task_is_late_acked_with_time_limits_and_retries():
    assert tasks.run_tco.acks_late is True
    assert tasks.run_tco.time_limit == services.TASK_TIME_LIMIT_S
    assert tasks.run_tco.soft_time_limit == services.TASK_SOFT_TIME_LIMIT_S
    assert services.TransientRunError in tasks.run_tco.autoretry_for
    assert services.RUN_STALE_AFTER.total_seconds() > services.TASK_TIME_LIMIT_S


def test_prefill_uses_the_sizing_plan_and_converts_the_gpu_price(
    procurement, monkeypatch
):
    from decimal import Decimal

    plan = {
        "gpu_count": 16,
        "it_power_kw": 20.4,
        "accelerator": "h100-sxm",
        "accelerator_name": "H100 SXM",
        "gpu_price": Decimal("25000"),
        "gpu_price_currency": "USD",
    }
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
