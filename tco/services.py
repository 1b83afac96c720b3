"""TCO use cases: the only code that writes scenarios and runs.

Run lifecycle (design.md, "Celery tasks ... are safe to run twice"):

    QUEUED --claim--> RUNNING --success--> SUCCEEDED  (result + PDF stored together)
                         |--error----> FAILED     (error message only)
                         +--transient DB/OS error--> QUEUED again (task retries)

Claims (tco.claims): a worker takes a run that is QUEUED, or RUNNING under a claim
whose heartbeat is stale or whose process on this host is gone (a killed pool
child), with one conditional UPDATE that issues a new claim token; every later write
filters on that token. A delivery that finds the run RUNNING under a live claim
raises ``RunBusy`` and the task comes back when that claim would be stale. After
``MAX_ATTEMPTS`` claims the sweep marks a run FAILED. A delivery of a finished run
finds nothing to claim, so a run has one result and one PDF
(``tco/run-<id>-<lang>.pdf``).

Messages: a run records its queue and when its message reached the broker
(``enqueued_at``); when the broker is unreachable the run stays QUEUED with no
``enqueued_at`` (the user is told it will start) and the sweep (tco.sweep) sends it
once the broker answers.
"""

from __future__ import annotations

import logging
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from clusterbuy import task_runner
from clusterbuy.celery import app as celery_app
from clusterbuy.errors import error_sentence
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError
from sizing import services as sizing_services

from . import claims, report, sources
from .bid_costs import (  # noqa: F401  (what the vendors app reads of a bid's TCO)
    BidLine,
    BidPower,
    ClusterScale,
    TcoNormalisation,
    catalogue_power_kw,
    normalise_bid_tco,
    power_for_tco,
)
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
from .models import RunStatus, TcoRun, TcoScenario, run_pdf_path
from .price_book import cloud_prices_for, price_book  # noqa: F401  (vendors: gpu_only)

logger = logging.getLogger(__name__)


#: Hard time limit of the ``run_tco`` task (seconds); the soft limit is 30 s earlier.
TASK_TIME_LIMIT_S = 300
TASK_SOFT_TIME_LIMIT_S = 270
MONTE_CARLO_DRAWS = 10_000
MONTE_CARLO_SEED = 12345
#: Share of the progress bar the analysis takes; the PDF takes the rest.
ANALYSIS_SHARE_PCT = 80
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (DatabaseError, OSError)
LANGS = ("zh-hans", "en")
#: The Celery task that runs ``execute_tco_run`` (declared in tco/tasks.py, which
#: imports this module: the name is the only thing the services know of it).
RUN_TASK_NAME = "tco.tasks.run_tco"


class TransientRunError(Exception):
    """Infrastructure failed mid-run; the run was put back in the queue to retry."""


class RunBusy(Exception):
    """Another worker holds a live claim on the run: try again in ``retry_in_s``."""

    def __init__(self, run_id: int, retry_in_s: int):
        super().__init__(f"TCO run {run_id} is claimed; retry in {retry_in_s} s")
        self.retry_in_s = retry_in_s


# --- the sizing plan ----------------------------------------------------------------


def sizing_plan(*, procurement: Procurement) -> sizing_services.PlanSummary | None:
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


def _plan_snapshot(procurement: Procurement) -> dict | None:
    """The plan summary a run stores (its report shows this, never the current plan)."""
    plan = sizing_plan(procurement=procurement)
    return None if plan is None else plan.as_dict()


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
    data.update(
        cloud_prices_for(
            accelerator=plan.accelerator,
            region=procurement.region,
            currency=currency,
        )
        or {}
    )
    gpu_count = plan.gpu_count
    if gpu_count:
        data["gpu_count"] = int(gpu_count)
    if plan.it_power_kw:
        data["it_power_kw"] = round(float(plan.it_power_kw), 3)
    price = plan.gpu_price
    if price is not None and gpu_count:
        try:
            amount = convert_money(
                Decimal(str(price)) * int(gpu_count),
                from_currency=plan.gpu_price_currency or currency,
                to_currency=currency,  # at the default fx_usd_cny, as a Decimal
            )
        except (ValueError, InvalidOperation):
            return data
        name = plan.accelerator_name or plan.accelerator or "GPU"
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
    seed: sources.ScenarioSeed | None = None,
) -> TcoScenario:
    """Create a scenario, or update ``scenario``; inputs are validated by the engine.

    A scenario started from ``seed`` (a bid or the sizing plan) has a derived capex:
    while the user leaves capex and IT power as they are, both follow the GPU count
    (`sources.follow_gpu_count`); editing either marks capex overridden.
    """
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the scenario a name."), field="name")
    inputs, derived = sources.follow_gpu_count(scenario, inputs)
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
    if seed is not None:
        scenario.source_kind, scenario.source_id = seed.kind, seed.source_id
        scenario.derivation = sources.derivation_of(stored)
        scenario.capex_is_derived = True
    elif scenario.derivation:
        scenario.capex_is_derived = derived
    try:
        with transaction.atomic():
            scenario.save()
    except IntegrityError:
        raise ServiceError(
            _("A scenario with this name already exists."), field="name"
        ) from None
    return scenario


def create_scenario_from_source(
    *,
    procurement: Procurement,
    user,
    bid: int | None = None,
    sizing_plan: int | None = None,
    name: str = "",
) -> TcoScenario:
    """A scenario started from a bid or from the current sizing plan (tco.sources):
    capex, GPU count and IT power from it, every other input the default. Raises
    ServiceError (or PermissionDenied when the bid's prices are sealed from the user)."""
    if (bid is None) == (sizing_plan is None):
        raise ServiceError(_("Give exactly one of a bid or a sizing plan."))
    if bid is not None:
        seed = sources.seed_from_bid(procurement=procurement, bid_id=bid, user=user)
    else:
        seed = sources.seed_from_plan(procurement=procurement, plan_id=sizing_plan)
    if not name:  # the source's name, numbered when taken
        taken = set(
            TcoScenario.objects.for_procurement(procurement).values_list(
                "name", flat=True
            )
        )
        base = seed.name[:190]
        name = next(
            candidate
            for n in range(1, len(taken) + 2)
            if (candidate := base if n == 1 else f"{base} ({n})") not in taken
        )
    return save_scenario(
        procurement=procurement, user=user, name=name, inputs=seed.inputs, seed=seed
    )


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


def send_run(*, run_id: int, queue: str) -> bool:
    """Hand the run's task to its runner (clusterbuy.task_runner); False when the
    broker is down.

    The broker settings make this fail within seconds (clusterbuy/settings.py), so a
    web request never hangs on an unreachable Redis. Without a broker the run starts
    in a thread of this process once the request has answered.
    """
    try:
        task_runner.enqueue(RUN_TASK_NAME, args=[run_id], queue=queue)
    except BrokerError as exc:
        logger.warning("TCO run %s: broker unreachable, left queued: %s", run_id, exc)
        return False
    return True


def _send_new_run(run: TcoRun) -> None:
    """After commit: send the message; if the broker is down, mark the run unsent."""
    if send_run(run_id=run.pk, queue=run.queue):
        return
    TcoRun.objects.filter(
        pk=run.pk, status=RunStatus.QUEUED, enqueued_at=run.enqueued_at
    ).update(enqueued_at=None)
    run.enqueued_at = None


def request_tco_run(
    *, scenario: TcoScenario, user, lang: str = "zh-hans", enqueue: bool = True
) -> TcoRun:
    """Snapshot the scenario's inputs and the sizing plan into a QUEUED run; enqueue
    after commit. The report shows that plan, whatever is planned later.

    With the broker unreachable the run is still saved and ``run.waits_for_queue``
    is true: the sweep sends it when the broker is back. ``enqueue=False`` leaves it
    for the caller to execute in-process (demo data).
    """
    lang = lang if lang in LANGS else "zh-hans"
    with transaction.atomic():
        run = TcoRun.objects.create(
            scenario=scenario,
            inputs=normalise_inputs(inputs=scenario.inputs),
            sizing_plan=_plan_snapshot(scenario.procurement),
            engine_version=ENGINE_VERSION,
            status=RunStatus.QUEUED,
            lang=lang,
            requested_by=user,
            queue=celery_app.conf.task_default_queue or "",
            enqueued_at=timezone.now(),
        )
        if enqueue:
            transaction.on_commit(lambda: _send_new_run(run))
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


def cancel_tco_run(*, run: TcoRun, user) -> bool:
    """Stop a queued or running run: it ends FAILED, with who cancelled it.

    One conditional UPDATE, so a run that finished meanwhile keeps its result (False).
    The worker holding the run loses its claim: it stops at its next progress step
    (claims.ClaimLost) or, at the latest, discards its work before storing it.
    """
    who = user.get_full_name() or user.get_username()
    return bool(
        TcoRun.objects.filter(
            pk=run.pk, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]
        ).update(
            status=RunStatus.FAILED,
            finished_at=timezone.now(),
            error_message=_("Cancelled by %(user)s.") % {"user": who},
        )
    )


def request_tco_run_from_source(
    *,
    procurement: Procurement,
    user,
    bid: int | None = None,
    sizing_plan: int | None = None,
    lang: str = "zh-hans",
    name: str = "",
) -> TcoRun:
    """API path: a new scenario from the bid or the plan (`create_scenario_from_source`),
    run at once."""
    with transaction.atomic():
        scenario = create_scenario_from_source(
            procurement=procurement,
            user=user,
            bid=bid,
            sizing_plan=sizing_plan,
            name=name,
        )
        return request_tco_run(scenario=scenario, user=user, lang=lang)


def _readable_error(exc: BaseException) -> str:
    if isinstance(exc, TcoInputError):
        return _("Invalid input: %(error)s") % {"error": error_sentence(exc)}
    text = str(exc) or exc.__class__.__name__
    return f"{exc.__class__.__name__}: {text}"[:2000]


def execute_tco_run(*, run_id: int) -> TcoRun | None:
    """Run the full analysis and the PDF for a queued run (the task's whole body).

    Returns the run after this attempt, or None when there was nothing to claim
    (already finished, or gone, or out of attempts). Raises RunBusy when another
    worker holds a live claim: the caller tries again when that claim would be stale.
    """
    token = claims.claim_run(run_id=run_id)
    if token is None:
        retry_in_s = claims.seconds_until_claimable(run_id=run_id)
        if retry_in_s is not None:
            raise RunBusy(run_id, retry_in_s)
        logger.info("TCO run %s: nothing to claim", run_id)
        return None
    with claims.heartbeat(run_id=run_id, token=token):
        return _analyse_and_store(run_id=run_id, token=token)


def _analyse_and_store(*, run_id: int, token) -> TcoRun | None:
    """The work of one claim: analysis, PDF, then result and file in one commit."""
    mine = claims.held(run_id=run_id, token=token)
    run = TcoRun.objects.with_related().get(pk=run_id)
    try:
        inputs = inputs_from_dict(run.inputs)
        analysis = full_analysis(
            inputs,
            draws=MONTE_CARLO_DRAWS,
            seed=MONTE_CARLO_SEED,
            progress=claims.progress_reporter(
                run_id=run_id, token=token, low=0, high=ANALYSIS_SHARE_PCT
            ),
        )
        if not mine.update(
            progress_pct=ANALYSIS_SHARE_PCT + 5, heartbeat_at=timezone.now()
        ):
            raise claims.ClaimLost(f"TCO run {run_id}: claim gone before the PDF")
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
    except claims.ClaimLost:
        logger.info("TCO run %s: claim lost (cancelled or taken over), stopped", run_id)
        return None
    except TRANSIENT_ERRORS as exc:
        # Infrastructure, not the inputs: give the claim back so a retry can take it.
        logger.warning("TCO run %s: transient error %r, requeued", run_id, exc)
        try:
            mine.update(status=RunStatus.QUEUED, error_message=_readable_error(exc))
        except DatabaseError:
            pass  # the heartbeat stops with this attempt: the claim goes stale
        raise TransientRunError(str(exc)) from exc
    except Exception as exc:  # noqa: BLE001 - any other error fails this run only
        logger.exception("TCO run %s failed", run_id)
        mine.update(
            status=RunStatus.FAILED,
            error_message=_readable_error(exc),
            finished_at=timezone.now(),
        )
    return TcoRun.objects.with_related().get(pk=run_id)


# --- a vendor's bid as a TCO (read by the vendors comparison) ---------------------
