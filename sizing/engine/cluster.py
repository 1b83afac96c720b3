"""Entry point ``plan_cluster``: several workloads on one cluster of one accelerator.

Combination rule: GPUs are summed (each workload gets its own partition) unless
``constraints.time_shared``, when the cluster is sized for the largest one. The fabric,
storage and power are sized for the whole cluster: scale-out bandwidth per GPU is the
maximum need, checkpoint writes and capacities add up.
"""

from __future__ import annotations

import math

from .catalog import Accelerator, Catalog, ServerPlatform
from .errors import SizingInputError
from .estimate import ENGINE_VERSION, estimate
from .explain import Explainer, Section
from .network import size_interconnect
from .platform import server_for
from .power import size_power
from .ranking import cheapest_for_all
from .result import Bottleneck, ClusterPlan, SizingResult
from .sized_workload import accelerator_by_key
from .workload import Constraints, Workload

SUMMED_STORAGE_UNITS = (
    ("dataset_tb", "TB"),
    ("checkpoint_gb", "GB"),
    ("checkpoint_write_gbs", "GB/s"),
    ("read_gbs_total", "GB/s"),
    ("capacity_tb", "TB"),
)


def plan_cluster(
    workloads: list[Workload],
    catalog: Catalog,
    accelerator_key: str | None = None,
    constraints: Constraints | None = None,
) -> ClusterPlan:
    """Several workloads on one cluster of one accelerator (see the module docstring)."""
    if not workloads:
        raise SizingInputError(
            "give at least one workload", field="workloads", code="no_workloads"
        )
    constraints = constraints or Constraints()
    if accelerator_key is None:
        accelerator_key = cheapest_for_all(workloads, catalog, constraints)
    results = [
        estimate(workload, catalog, accelerator_key, constraints)
        for workload in workloads
    ]
    acc = accelerator_by_key(catalog, accelerator_key)
    server = server_for(acc, catalog)
    explainer = Explainer()
    gpus, nodes, rule = _size(results, server, constraints, explainer)
    interconnect = _interconnect(
        results, acc, server, gpus, nodes, constraints, catalog, explainer
    )
    storage = _summed_storage(results, explainer, constraints)
    power = _power(acc, server, gpus, nodes, constraints, explainer)
    return ClusterPlan(
        engine_version=ENGINE_VERSION,
        accelerator=accelerator_key,
        gpu_count=gpus,
        nodes=nodes,
        combination_rule=rule,
        workloads=results,
        interconnect=interconnect,
        storage=storage,
        power=power,
        bottlenecks=_first_of_each_code(results),
        explanation=explainer.as_list(),
    )


def _size(
    results: list[SizingResult],
    server: ServerPlatform,
    constraints: Constraints,
    explainer: Explainer,
) -> tuple[int, int, str]:
    """GPUs, nodes and the combination rule, with their explanation entries."""
    counts = [result.gpu_count for result in results]
    gpus = max(counts) if constraints.time_shared else sum(counts)
    rule = (
        "time-shared: GPUs = max over workloads"
        if constraints.time_shared
        else "partitioned: GPUs = sum over workloads"
    )
    nodes = math.ceil(gpus / server.gpus_per_node)
    top = Section(explainer, "")
    top.put(
        key="gpu_count",
        value=gpus,
        unit="GPUs",
        formula=rule,
        inputs={"per_workload": counts},
    )
    top.put(
        key="nodes",
        value=nodes,
        unit="nodes",
        formula="ceil(GPUs / GPUs per node)",
        inputs={"gpus_per_node": server.gpus_per_node},
        source=server.source[:200],
    )
    return gpus, nodes, rule


def _interconnect(
    results: list[SizingResult],
    acc: Accelerator,
    server: ServerPlatform,
    gpus: int,
    nodes: int,
    constraints: Constraints,
    catalog: Catalog,
    explainer: Explainer,
) -> dict:
    """The fabric for the greatest per-GPU need and the widest tensor split."""
    need_gbps = max(
        (result.interconnect["scale_out_gbps_per_gpu"] for result in results),
        default=0.0,
    )
    return size_interconnect(
        nodes=nodes,
        gpus=gpus,
        gpus_per_node=server.gpus_per_node,
        scaleup_domain=acc.scaleup_domain_gpus,
        tensor=max(result.parallelism["tensor"] or 1 for result in results),
        need_gbps_per_gpu=need_gbps,
        server_nic_count=server.nic_count,
        server_nic_gbps=server.nic_gbps,
        training=any(result.training for result in results),
        ecosystem=acc.ecosystem,
        preferred_fabric=constraints.preferred_fabric,
        catalog=catalog,
        ex=explainer,
    )


def _summed_storage(
    results: list[SizingResult], explainer: Explainer, constraints: Constraints
) -> dict:
    """Workloads' figures summed, except the data: the cluster stores the larger of
    the organisation's data grown over the horizon (the questionnaire) and the
    workloads' datasets, then every workload's checkpoints (issue 21, item 7)."""
    sums = {
        key: sum(result.storage[key] for result in results)
        for key, _unit in SUMMED_STORAGE_UNITS
    }
    checkpoints_tb = sums["capacity_tb"] - sums["dataset_tb"]
    grown_tb = 0.0
    if constraints.data_tb:
        growth = (1.0 + constraints.data_growth_per_year) ** constraints.planning_years
        grown_tb = constraints.data_tb * growth
    sums["dataset_tb"] = max(grown_tb, sums["dataset_tb"])
    sums["capacity_tb"] = sums["dataset_tb"] + checkpoints_tb
    formulas = {
        "dataset_tb": "max(organisation data today x (1 + growth)^years, sum of the "
        "workloads' datasets grown)",
        "capacity_tb": "dataset_tb + every workload's kept checkpoints",
    }
    inputs = {
        "dataset_tb": {
            "data_tb": constraints.data_tb,
            "growth_per_year": constraints.data_growth_per_year,
            "years": constraints.planning_years,
        },
        "capacity_tb": {"checkpoints_tb": checkpoints_tb},
    }
    section = Section(explainer, "storage")
    for key, unit in SUMMED_STORAGE_UNITS:
        section.put(
            key=key,
            value=sums[key],
            unit=unit,
            formula=formulas.get(key, "sum over workloads"),
            inputs=inputs.get(key, {}),
            source="buyer input" if key == "dataset_tb" else "",
        )
    return section.values


def _power(
    acc: Accelerator,
    server: ServerPlatform,
    gpus: int,
    nodes: int,
    constraints: Constraints,
    explainer: Explainer,
) -> dict:
    return size_power(
        nodes=nodes,
        node_kw=float(server.node_max_kw or 0.0),
        gpus=gpus,
        peak_tflops=acc.bf16_tflops or 0.0,
        rack_limit_kw=constraints.rack_power_limit_kw,
        platform_liquid=server.liquid_cooled,
        pue=constraints.pue,
        ex=explainer,
    )


def _first_of_each_code(results: list[SizingResult]) -> list[Bottleneck]:
    """Every workload's bottlenecks, each code once (its first occurrence)."""
    unique: dict[str, Bottleneck] = {}
    for result in results:
        for bottleneck in result.bottlenecks:
            unique.setdefault(bottleneck.code, bottleneck)
    return list(unique.values())
