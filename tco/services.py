"""TCO use cases: the only code that writes scenarios and runs.

Run lifecycle (design.md, "Celery tasks ... are safe to run twice"):

    QUEUED --claim--> RUNNING --success--> SUCCEEDED  (result + PDF stored together)
                         |--error----> FAILED     (error message only)
                         +--transient DB/OS error--> QUEUED again (task retries)

Claim rule: a worker may take a run that is QUEUED, or RUNNING with ``started_at``
older than ``RUN_STALE_AFTER`` (the task's hard time limit plus a margin: the worker
that held it must be dead, and Redis redelivers unacked messages only after its
visibility timeout, which is longer still). A claim is one conditional UPDATE that
also bumps ``attempts`` and stamps ``started_at``; that timestamp is the claim token
every later write filters on, so a worker that lost its claim can never overwrite the
winner's result. After ``MAX_ATTEMPTS`` claims a run is not claimed again and the
sweeper marks it FAILED. A second delivery of a finished run finds nothing to claim
and stops, so a run has one result and one PDF (``tco/run-<id>-<lang>.pdf``).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.celery import app as celery_app
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError
from sizing import services as sizing_services

from . import report
from .engine import (
    ENGINE_VERSION,
    TcoInputError,
    compute,
    defaults_used,
    full_analysis,
    hidden_cost_check,
    inputs_from_dict,
    inputs_to_dict,
)
from .engine.currency import convert_money  # also the vendors app's CNY/USD rule
from .engine.normalise import BidLine, TcoNormalisation, normalise_tco
from .models import RunStatus, TcoRun, TcoScenario, run_pdf_path

logger = logging.getLogger(__name__)

#: Hard time limit of the ``run_tco`` task (seconds); the soft limit is 30 s earlier.
TASK_TIME_LIMIT_S = 300
TASK_SOFT_TIME_LIMIT_S = 270
#: A RUNNING run older than this has lost its worker and may be claimed again.
RUN_STALE_AFTER = timedelta(seconds=TASK_TIME_LIMIT_S + 60)
#: A QUEUED run older than this has probably lost its broker message.
QUEUED_STALE_AFTER = timedelta(minutes=10)
MAX_ATTEMPTS = 3
MONTE_CARLO_DRAWS = 10_000
MONTE_CARLO_SEED = 12345
#: Share of the progress bar the analysis takes; the PDF takes the rest.
ANALYSIS_SHARE_PCT = 80
PROGRESS_MIN_INTERVAL_S = 0.3
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (DatabaseError, OSError)
LANGS = ("zh-hans", "en")
#: The Celery task that runs ``execute_tco_run`` (declared in tco/tasks.py, which
#: imports this module: the name is the only thing the services know of it).
RUN_TASK_NAME = "tco.tasks.run_tco"


class TransientRunError(Exception):
    """Infrastructure failed mid-run; the run was put back in the queue to retry."""


# --- the sizing plan ----------------------------------------------------------------


def sizing_plan(*, procurement: Procurement) -> dict | None:
    """The sizing app's current plan summary for the procurement, or None."""
    if procurement.pk is None:
        return None
    try:
        return sizing_services.plan_summary(procurement=procurement)
    except Exception:  # a broken plan must not break the TCO tab
        logger.exception(
            "sizing plan_summary failed for procurement %s", procurement.pk
        )
        return None


def prefill_inputs(*, procurement: Procurement) -> dict:
    """Scenario inputs known before the user types: horizon, currency, sizing plan.

    GPU server capex = gpu_count x gpu_price (per GPU, from the sizing catalogue),
    converted to the procurement's currency at the default fx_usd_cny.
    """
    currency = procurement.currency if procurement.currency in ("CNY", "USD") else "CNY"
    data: dict[str, Any] = {
        "horizon_years": procurement.horizon_years,
        "currency": currency,
    }
    plan = sizing_plan(procurement=procurement)
    if not plan:
        return data
    gpu_count = plan.get("gpu_count")
    if gpu_count:
        data["gpu_count"] = int(gpu_count)
    if plan.get("it_power_kw"):
        data["it_power_kw"] = round(float(plan["it_power_kw"]), 3)
    price = plan.get("gpu_price")
    if price is not None and gpu_count:
        try:
            amount = convert_money(
                Decimal(str(price)) * int(gpu_count),
                from_currency=plan.get("gpu_price_currency") or currency,
                to_currency=currency,  # at the default fx_usd_cny, as a Decimal
            )
        except (ValueError, InvalidOperation):
            return data
        name = plan.get("accelerator_name") or plan.get("accelerator") or "GPU"
        data["capex"] = [
            {
                "category": "gpu_servers",
                "description": f"{gpu_count} x {name}",
                "amount": float(amount.quantize(Decimal("0.01"))),
            }
        ]
    return data


# --- scenarios and the deterministic estimate --------------------------------------


def normalise_inputs(*, inputs: dict) -> dict:
    """Validate (TcoInputError names the field) and fill defaults: the stored form."""
    return inputs_to_dict(inputs_from_dict(inputs))


@transaction.atomic
def save_scenario(
    *,
    procurement: Procurement,
    user,
    name: str,
    inputs: dict,
    scenario: TcoScenario | None = None,
) -> TcoScenario:
    """Create a scenario, or update ``scenario``; inputs are validated by the engine."""
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the scenario a name."), field="name")
    stored = normalise_inputs(inputs=inputs)
    clash = TcoScenario.objects.filter(procurement=procurement, name=name)
    if scenario is not None:
        clash = clash.exclude(pk=scenario.pk)
    if clash.exists():
        raise ServiceError(_("A scenario with this name already exists."), field="name")
    if scenario is None:
        scenario = TcoScenario(procurement=procurement, created_by=user)
    scenario.name = name
    scenario.inputs = stored
    try:
        with transaction.atomic():
            scenario.save()
    except IntegrityError:
        raise ServiceError(
            _("A scenario with this name already exists."), field="name"
        ) from None
    return scenario


def estimate(*, inputs: dict) -> dict:
    """Deterministic TCO (no Monte Carlo): fast enough for every keystroke."""
    parsed = inputs_from_dict(inputs)
    return {
        "engine_version": ENGINE_VERSION,
        "inputs": inputs_to_dict(parsed),
        "defaults_used": defaults_used(parsed),
        "result": compute(parsed).to_dict(),
        "hidden_costs": hidden_cost_check(parsed),
    }


# --- runs ---------------------------------------------------------------------------


def _enqueue(run_id: int) -> None:
    celery_app.tasks[RUN_TASK_NAME].delay(run_id)


def request_tco_run(
    *, scenario: TcoScenario, user, lang: str = "zh-hans", enqueue: bool = True
) -> TcoRun:
    """Snapshot the scenario's inputs and the sizing plan into a QUEUED run; enqueue
    after commit. The report shows that plan, whatever is planned later.

    ``enqueue=False`` leaves it for the caller to execute in-process (demo data).
    """
    lang = lang if lang in LANGS else "zh-hans"
    with transaction.atomic():
        run = TcoRun.objects.create(
            scenario=scenario,
            inputs=normalise_inputs(inputs=scenario.inputs),
            sizing_plan=sizing_plan(procurement=scenario.procurement),
            engine_version=ENGINE_VERSION,
            status=RunStatus.QUEUED,
            lang=lang,
            requested_by=user,
        )
        run_id = run.pk
        if enqueue:
            transaction.on_commit(lambda: _enqueue(run_id))
    return run


def request_tco_run_for_inputs(
    *,
    procurement: Procurement,
    user,
    inputs: dict,
    lang: str = "zh-hans",
    name: str = "",
) -> TcoRun:
    """API path: save the inputs as a scenario (named, or a new timestamped one), run it."""
    with transaction.atomic():
        existing = None
        if name:
            existing = TcoScenario.objects.filter(
                procurement=procurement, name=name
            ).first()
        else:
            name = "API " + timezone.localtime().strftime("%Y-%m-%d %H:%M:%S.%f")
        scenario = save_scenario(
            procurement=procurement,
            user=user,
            name=name,
            inputs=inputs,
            scenario=existing,
        )
        return request_tco_run(scenario=scenario, user=user, lang=lang)


def claim_run(*, run_id: int, now: datetime | None = None) -> datetime | None:
    """Take the run for this worker; returns the claim token (started_at) or None."""
    now = now or timezone.now()
    claimable = Q(status=RunStatus.QUEUED) | Q(
        status=RunStatus.RUNNING, started_at__lt=now - RUN_STALE_AFTER
    )
    taken = TcoRun.objects.filter(
        claimable, pk=run_id, attempts__lt=MAX_ATTEMPTS
    ).update(
        status=RunStatus.RUNNING,
        started_at=now,
        finished_at=None,
        attempts=F("attempts") + 1,
        progress_pct=0,
        error_message="",
    )
    return now if taken else None


def _readable_error(exc: BaseException) -> str:
    if isinstance(exc, TcoInputError):
        return _("Invalid input %(field)s: %(message)s") % {
            "field": exc.field,
            "message": exc.message,
        }
    text = str(exc) or exc.__class__.__name__
    return f"{exc.__class__.__name__}: {text}"[:2000]


def _progress_reporter(run_id: int, token: datetime, low: int, high: int):
    """A callback mapping 0..100 to low..high, writing at most every 0.3 s."""
    last = {"pct": -1, "at": 0.0}

    def report(percent: int) -> None:
        pct = low + (high - low) * max(0, min(100, int(percent))) // 100
        now = time.monotonic()
        if pct <= last["pct"]:
            return
        if now - last["at"] < PROGRESS_MIN_INTERVAL_S and percent < 100:
            return
        last.update(pct=pct, at=now)
        TcoRun.objects.filter(
            pk=run_id, status=RunStatus.RUNNING, started_at=token
        ).update(progress_pct=pct)

    return report


def execute_tco_run(*, run_id: int) -> TcoRun | None:
    """Run the full analysis and the PDF for a queued run (the task's whole body).

    Returns the run after this attempt, or None when there was nothing to claim
    (already finished, running elsewhere, or gone).
    """
    token = claim_run(run_id=run_id)
    if token is None:
        logger.info("TCO run %s: nothing to claim", run_id)
        return None
    mine = TcoRun.objects.filter(pk=run_id, status=RunStatus.RUNNING, started_at=token)
    run = TcoRun.objects.with_related().get(pk=run_id)
    try:
        inputs = inputs_from_dict(run.inputs)
        analysis = full_analysis(
            inputs,
            draws=MONTE_CARLO_DRAWS,
            seed=MONTE_CARLO_SEED,
            progress=_progress_reporter(run_id, token, 0, ANALYSIS_SHARE_PCT),
        )
        mine.update(progress_pct=ANALYSIS_SHARE_PCT + 5)
        pdf_bytes = report.build_tco_report(run=run, analysis=analysis)
        name = run_pdf_path(run, "")
        with transaction.atomic():
            # Lock our claim first: if we lost it, the file and result stay untouched.
            if not mine.select_for_update().exists():
                logger.warning("TCO run %s: claim lost, result discarded", run_id)
                return None
            if default_storage.exists(name):
                default_storage.delete(name)
            saved = default_storage.save(name, ContentFile(pdf_bytes))
            mine.update(
                status=RunStatus.SUCCEEDED,
                result=analysis,
                pdf=saved,
                progress_pct=100,
                finished_at=timezone.now(),
                error_message="",
            )
    except TRANSIENT_ERRORS as exc:
        # Infrastructure, not the inputs: give the claim back so a retry can take it.
        logger.warning("TCO run %s: transient error %r, requeued", run_id, exc)
        try:
            mine.update(status=RunStatus.QUEUED, error_message=_readable_error(exc))
        except DatabaseError:
            pass  # the sweeper will find it RUNNING and stale
        raise TransientRunError(str(exc)) from exc
    except Exception as exc:  # noqa: BLE001 - any other error fails this run only
        logger.exception("TCO run %s failed", run_id)
        mine.update(
            status=RunStatus.FAILED,
            error_message=_readable_error(exc),
            finished_at=timezone.now(),
        )
    return TcoRun.objects.with_related().get(pk=run_id)


def sweep_stuck_runs(
    *,
    now: datetime | None = None,
    queued_after: timedelta = QUEUED_STALE_AFTER,
) -> dict[str, int]:
    """Re-enqueue runs whose message was lost; retry or fail runs whose worker died."""
    now = now or timezone.now()
    requeued = 0
    failed = 0
    stale_running = TcoRun.objects.filter(
        status=RunStatus.RUNNING, started_at__lt=now - RUN_STALE_AFTER
    )
    failed = stale_running.filter(attempts__gte=MAX_ATTEMPTS).update(
        status=RunStatus.FAILED,
        finished_at=now,
        error_message=_("The analysis stopped responding %(n)d times and was given up.")
        % {"n": MAX_ATTEMPTS},
    )
    failed += TcoRun.objects.filter(
        status=RunStatus.QUEUED, attempts__gte=MAX_ATTEMPTS
    ).update(
        status=RunStatus.FAILED,
        finished_at=now,
        error_message=_("The analysis failed %(n)d times and was given up.")
        % {"n": MAX_ATTEMPTS},
    )
    retry_ids = list(stale_running.values_list("pk", flat=True))
    if retry_ids:
        TcoRun.objects.filter(
            pk__in=retry_ids,
            status=RunStatus.RUNNING,
            started_at__lt=now - RUN_STALE_AFTER,
        ).update(status=RunStatus.QUEUED)
    lost_ids = list(
        TcoRun.objects.filter(
            status=RunStatus.QUEUED, created_at__lt=now - queued_after
        ).values_list("pk", flat=True)
    )
    for run_id in sorted(set(lost_ids) | set(retry_ids)):
        _enqueue(run_id)
        requeued += 1
    return {"requeued": requeued, "failed": failed}


# --- a vendor's bid as a TCO (read by the vendors comparison) ---------------------


def normalise_bid_tco(
    *,
    lines: list[BidLine],
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float | None,
    warranty_years: float | None,
    on_prem: bool,
    plan_gpu_price: Decimal | None = None,
    plan_gpu_price_currency: str | None = None,
) -> TcoNormalisation:
    """The bid's TCO over the horizon with what it omits filled in (engine.normalise).

    ``plan_gpu_price`` is the sizing plan's price per GPU in ``plan_gpu_price_currency``
    (default ``currency``), converted at the default fx_usd_cny like `prefill_inputs`
    (a pair with no conversion keeps the price as it is); it prices the GPU servers of
    a bid that has none. TcoInputError goes through when the bid's figures are not
    valid TCO inputs.
    """
    gpu_price = plan_gpu_price
    if plan_gpu_price is not None:
        source = plan_gpu_price_currency or currency
        try:
            gpu_price = convert_money(
                plan_gpu_price, from_currency=source, to_currency=currency
            )
        except ValueError:
            gpu_price = plan_gpu_price
    return normalise_tco(
        lines,
        horizon_years=horizon_years,
        currency=currency,
        gpu_count=gpu_count,
        it_power_kw=it_power_kw,
        warranty_years=warranty_years,
        on_prem=on_prem,
        gpu_price=gpu_price,
    )
