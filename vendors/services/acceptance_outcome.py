"""What acceptance measured, set against what was promised and predicted.

- Promised vs measured: the winning bid's own figures (network per GPU, storage read
  and write, the delivery weeks, the training time or serving throughput it
  promised) against the acceptance results and the delivery date.
- The TCO re-forecast: the bid's normalised TCO (tco.engine, as the comparison
  computes it) run again with the useful GPU-hours the measurements allow: the
  utilisation scaled by the measured over the planned workload performance and by the
  share of the horizon left after the delivery delay. Its cost per GPU-hour is then
  the cost per *effective* GPU-hour. The math is the TCO engine's
  (`tco.services.estimate`); only the utilisation changes.
- The sizing plan's predicted workload figure against the measured one, as its error
  (the calibration loop).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tco import services as tco_services
from tco.engine.errors import TcoInputError

from ..comparison import pricing
from ..models import AcceptancePlan, Decision
from . import plan_facts
from .acceptance_inputs import SECONDS_PER_DAY
from .acceptance_standing import ClauseStanding, standings

DAYS_PER_YEAR = 365


@dataclass(frozen=True)
class Comparison:
    item: str  # a code: network_gbps_per_gpu, storage_read_gbs, delivery, workload...
    promised: float | None
    measured: float | None
    unit: str
    met: bool | None  # None: not measured yet
    promised_text: str = ""  # a date, where the figure is one
    measured_text: str = ""


def _standing(rows: list[ClauseStanding], *keys: str) -> ClauseStanding | None:
    for row in rows:
        if row.clause.key in keys and row.current:
            return row
    return None


def _at_least(promised, measured) -> bool | None:
    if promised is None or measured is None:
        return None
    return measured >= promised


def promised_date(plan: AcceptancePlan) -> dt.date | None:
    """The decision's date plus the bid's delivery weeks (None: either missing)."""
    bid = plan.bid
    decision = Decision.objects.filter(procurement_id=plan.procurement_id).first()
    if bid is None or decision is None or bid.delivery_weeks is None:
        return None
    decided = decision.decided_at.date()
    return decided + dt.timedelta(weeks=bid.delivery_weeks)


def delay_days(plan: AcceptancePlan) -> int | None:
    due = promised_date(plan)
    if due is None or plan.delivered_on is None:
        return None
    return max(0, (plan.delivered_on - due).days)


def measured_workload(rows: list[ClauseStanding]) -> float | None:
    row = _standing(rows, "workload")
    return None if row is None else row.measured


def promises_vs_measured(plan: AcceptancePlan) -> list[Comparison]:
    """The bid's promises, each with what acceptance measured."""
    bid = plan.bid
    if bid is None:
        return []
    rows = standings(plan)
    out: list[Comparison] = []
    nic = _standing(rows, "ib_write_bw_nic")
    if bid.network_gbps_per_gpu:
        # ib_write_bw reports GB/s (MB/s / 1000); the line rate is in Gb/s: x 8
        measured = None if nic is None or nic.measured is None else nic.measured * 8
        out.append(
            Comparison(
                "network_gbps_per_gpu",
                bid.network_gbps_per_gpu,
                measured,
                "Gb/s",
                _at_least(bid.network_gbps_per_gpu, measured),
            )
        )
    for field, key in (
        ("storage_read_gbs", "fio_read"),
        ("storage_write_gbs", "fio_write"),
    ):
        promised = getattr(bid, field)
        if promised:
            row = _standing(rows, key)
            measured = None if row is None else row.measured
            out.append(
                Comparison(
                    field, promised, measured, "GB/s", _at_least(promised, measured)
                )
            )
    due = promised_date(plan)
    if due is not None:
        delay = delay_days(plan)
        out.append(
            Comparison(
                "delivery",
                float(bid.delivery_weeks),
                None if delay is None else float(delay),
                "days late",
                None if delay is None else delay == 0,
                promised_text=due.isoformat(),
                measured_text=plan.delivered_on.isoformat()
                if plan.delivered_on
                else "",
            )
        )
    throughput = measured_workload(rows)
    kind = plan.inputs.get("workload_kind")
    if kind == "serving" and bid.promised_tokens_per_s:
        out.append(
            Comparison(
                "promised_tokens_per_s",
                bid.promised_tokens_per_s,
                throughput,
                "tokens/s",
                _at_least(bid.promised_tokens_per_s, throughput),
            )
        )
    if kind == "training" and bid.promised_training_days:
        days = _training_days(plan, throughput)
        out.append(
            Comparison(
                "promised_training_days",
                bid.promised_training_days,
                days,
                "days",
                None if days is None else days <= bid.promised_training_days,
            )
        )
    return out


def _training_days(plan: AcceptancePlan, tokens_per_s: float | None) -> float | None:
    """The planned run's days at the measured training throughput."""
    tokens_b = plan.inputs.get("training_tokens_b")
    if not tokens_per_s or not tokens_b:
        return None
    return tokens_b * 1e9 / (tokens_per_s * SECONDS_PER_DAY)


@dataclass(frozen=True)
class SizingError:
    kind: str
    predicted: float
    measured: float
    unit: str
    error_pct: float  # (measured - predicted) / predicted x 100


def sizing_error(plan: AcceptancePlan) -> SizingError | None:
    """The sizing plan's predicted workload figure for this cluster against the
    measured one (None until the workload clause has a result)."""
    predicted = plan.inputs.get("workload_predicted") or plan.inputs.get(
        "workload_target"
    )
    measured = measured_workload(standings(plan))
    if not predicted or measured is None:
        return None
    return SizingError(
        kind=plan.inputs.get("workload_kind") or "",
        predicted=float(predicted),
        measured=float(measured),
        unit=plan.inputs.get("workload_unit") or "",
        error_pct=(measured - predicted) / predicted * 100,
    )


@dataclass(frozen=True)
class TcoReforecast:
    currency: str
    horizon_years: int
    total_cost: float
    planned_utilization: float
    effective_utilization: float
    performance_ratio: float  # measured / planned workload figure (1 when unmeasured)
    available_share: float  # of the horizon left after the delay
    delay_days: int
    cost_per_gpu_hour: float  # as planned
    cost_per_effective_gpu_hour: float
    performance_measured: bool


def _performance_ratio(plan: AcceptancePlan, rows) -> tuple[float, bool]:
    predicted = plan.inputs.get("workload_target")
    measured = measured_workload(rows)
    if not predicted or measured is None:
        return 1.0, False
    return measured / predicted, True


def tco_reforecast(plan: AcceptancePlan) -> TcoReforecast | None:
    """The winning bid's TCO with the measured performance and the delivery delay
    (None without a decided bid or a computable TCO)."""
    bid = plan.bid
    if bid is None:
        return None
    procurement = plan.procurement
    lines = pricing.bid_lines(bid) if pricing.lines_are_valid(bid) else None
    tco = pricing.bid_tco(
        bid,
        lines,
        procurement=procurement,
        plan=plan_facts.plan_summary(procurement=procurement),
    )
    if tco is None:
        return None
    rows = standings(plan)
    ratio, measured = _performance_ratio(plan, rows)
    delay = delay_days(plan) or 0
    horizon_days = procurement.horizon_years * DAYS_PER_YEAR
    share = max(0.0, 1 - delay / horizon_days)
    try:
        base = tco_services.estimate(inputs=dict(tco.inputs))
        planned = base["inputs"]["utilization"]
        effective = min(1.0, planned * ratio * share)
        if effective <= 0:
            return None
        again = tco_services.estimate(
            inputs={**base["inputs"], "utilization": effective}
        )
    except TcoInputError:
        return None
    return TcoReforecast(
        currency=base["result"]["currency"],
        horizon_years=procurement.horizon_years,
        total_cost=base["result"]["total_cost"],
        planned_utilization=planned,
        effective_utilization=effective,
        performance_ratio=ratio,
        available_share=share,
        delay_days=delay,
        cost_per_gpu_hour=base["result"]["cost_per_gpu_hour"],
        cost_per_effective_gpu_hour=again["result"]["cost_per_gpu_hour"],
        performance_measured=measured,
    )
