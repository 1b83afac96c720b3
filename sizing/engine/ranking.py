"""The recommendation: catalogue accelerators ranked by the cost to meet the target.

Candidates are the accelerators buyable in the buyer's region (available or conditional)
that have a price: ``buyable_accelerators`` is the one filter, used for one workload, for a
whole cluster and for the plan's alternatives. An accelerator that cannot run a
workload (no layout fits, latency missed, no peak for the precision) drops out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .catalog import Accelerator, Catalog
from .cost import workload_cost
from .errors import SizingInputError
from .sized_workload import SizedWorkload, size_workload
from .workload import Constraints, Workload

BUYABLE_STATUSES = ("available", "conditional")
ALTERNATIVES_SHOWN = 3


def buyable_accelerators(catalog: Catalog, region: str) -> list[Accelerator]:
    """Catalogue order; available or conditional in ``region`` and priced."""
    return [
        acc
        for acc in catalog.accelerators.values()
        if acc.status_in(region) in BUYABLE_STATUSES and acc.price is not None
    ]


def _sized_runs(
    workloads: list[Workload],
    acc: Accelerator,
    catalog: Catalog,
    refusals: list[SizingInputError] | None = None,
) -> list[SizedWorkload] | None:
    """Every workload sized on ``acc``, or None when one of them cannot run on it
    (the engine's refusal, if any, is added to ``refusals``)."""
    try:
        sized = [size_workload(workload, acc, catalog) for workload in workloads]
    except SizingInputError as exc:
        if refusals is not None:
            refusals.append(exc)
        return None
    return sized if all(item.runs for item in sized) else None


def _raise_shared_refusal(refusals: list[SizingInputError], candidates: int) -> None:
    """When no candidate could run the workload, a refusal that names a workload
    field (a target no GPU count meets, a layout the batch cannot split) is the
    answer: it names the field to change, where "no accelerator can run it" names
    none. The most frequent such refusal is raised; refusals about one accelerator
    (a missing datasheet figure) are not the workload's fault and are skipped."""
    if not candidates:
        return
    counts: dict[tuple[str, str], int] = {}
    first: dict[tuple[str, str], SizingInputError] = {}
    for exc in refusals:
        if (
            exc.code
            and exc.field.startswith("workload")
            and "accelerator" not in (exc.params)
        ):
            key = (exc.code, exc.field)
            counts[key] = counts.get(key, 0) + 1
            first.setdefault(key, exc)
    if counts:
        raise first[max(counts, key=lambda key: counts[key])]


@dataclass(frozen=True)
class RankedOption:
    total_usd: float
    sized: SizedWorkload
    cost: dict


def rank_accelerators(
    workload: Workload, catalog: Catalog, constraints: Constraints
) -> list[RankedOption]:
    """Cheapest first (ties by key); narrowed to the preferred ecosystem when it has any."""
    pool = buyable_accelerators(catalog, constraints.region)
    preferred = constraints.preferred_ecosystem
    if preferred and any(acc.ecosystem == preferred for acc in pool):
        pool = [acc for acc in pool if acc.ecosystem == preferred]
    ranked = []
    refusals: list[SizingInputError] = []
    for acc in pool:
        sized = _sized_runs([workload], acc, catalog, refusals)
        if sized is None:
            continue
        cost = workload_cost(sized[0], constraints)
        ranked.append(RankedOption(cost["total_usd"], sized[0], cost))
    if not ranked:
        _raise_shared_refusal(refusals, len(pool))
    ranked.sort(key=lambda option: (option.total_usd, option.sized.accelerator.key))
    return ranked


def cheapest_for_all(
    workloads: list[Workload], catalog: Catalog, constraints: Constraints
) -> str:
    """The key of the accelerator that runs every workload at the least summed cost."""
    best: tuple[float, str] | None = None
    pool = buyable_accelerators(catalog, constraints.region)
    refusals: list[SizingInputError] = []
    for acc in pool:
        sized = _sized_runs(workloads, acc, catalog, refusals)
        if sized is None:
            continue
        total = sum(
            workload_cost(item, constraints)["total_usd"] or 0.0 for item in sized
        )
        if best is None or (total, acc.key) < best:
            best = (total, acc.key)
    if best is None:
        _raise_shared_refusal(refusals, len(pool))
        raise SizingInputError(
            "no priced accelerator available in the region can run all workloads",
            field="accelerator",
            code="no_accelerator_for_all",
            params={"region": constraints.region},
        )
    return best[1]


def _trade_offs(
    option: RankedOption, cheapest: RankedOption, constraints: Constraints
) -> Iterator[str]:
    sized, acc = option.sized, option.sized.accelerator
    if sized is not cheapest.sized and cheapest.total_usd:
        extra_share = option.cost["total_usd"] / cheapest.total_usd - 1
        yield f"{extra_share * 100:.0f}% more than the cheapest"
    if sized.training:
        yield f"{sized.training.days:.1f} days on {sized.gpus} GPUs"
    if sized.inference:
        yield (
            f"TTFT {sized.inference.ttft_s * 1e3:.0f} ms, TPOT "
            f"{sized.inference.tpot_s * 1e3:.1f} ms on {sized.gpus} GPUs"
        )
    if acc.ecosystem != "cuda":
        yield f"{acc.ecosystem.upper()} software stack: {acc.framework_notes}"
    if acc.status_in(constraints.region) == "conditional":
        yield f"availability conditional: {acc.china_availability}"
    if acc.is_estimate:
        yield "specifications or price are estimates (no datasheet)"


def alternative_rows(
    ranked: list[RankedOption], constraints: Constraints
) -> list[dict]:
    """The result's ``alternatives``: the cheapest few, the first one chosen."""
    cheapest = ranked[0]
    rows = []
    for option in ranked[:ALTERNATIVES_SHOWN]:
        sized = option.sized
        rows.append(
            {
                "accelerator": sized.accelerator.key,
                "name": sized.accelerator.name,
                "gpu_count": sized.gpus,
                "total_usd": option.total_usd,
                "capex_usd": option.cost["capex_usd"],
                "energy_usd": option.cost["energy_usd"],
                "days": sized.training.days if sized.training else None,
                "tokens_per_second": sized.inference.tokens_per_second
                if sized.inference
                else None,
                "chosen": option is cheapest,
                "trade_offs": list(_trade_offs(option, cheapest, constraints)),
            }
        )
    return rows
