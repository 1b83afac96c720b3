"""Sizing a procurement: the stateless estimate, the plan preview and the stored plans."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from sizing.engine import (
    ENGINE_VERSION,
    Catalog,
    Constraints,
    SizingInputError,
    constraints_from_dict,
    estimate,
    plan_cluster,
    workload_from_dict,
)
from sizing.engine import Accelerator as EngineAccelerator
from sizing.engine import Workload as EngineWorkload
from sizing.engine.model import param_counts
from sizing.engine.ranking import buyable_accelerators
from sizing.models import Requirement, SizingPlan, Workload

from .catalog import engine_catalog
from .requirements import constraints_for, requirement_for, save_requirement

# Bottlenecks that mean the accelerator cannot run a workload at all.
BLOCKING_CODES = frozenset(
    {
        "memory_exceeds_capacity",
        "latency_target_unmet",
        "gpu_count_below_load",
        "accelerator_not_available_in_region",
    }
)
#: Findings that mean the plan misses a latency target (stated or the interactive
#: default): the recommendation says so where it is shown (issue 21, item 4).
LATENCY_CODES = frozenset(
    {
        "latency_target_unmet",
        "gpu_count_below_load",
        "latency_above_interactive_default",
    }
)
ALTERNATIVES_SHOWN = 3


def estimate_from_body(body: Any) -> dict:
    """``POST /api/v1/sizing/estimate`` and ``manage.py size``: one workload, no writes.

    ``body`` is ``{"workload": {...}, "accelerator": key?, "constraints": {...}?}``;
    returns ``estimate(...).to_dict()``. Bad input raises ``SizingInputError`` whose
    ``field`` is the dotted path in the body.
    """
    if not isinstance(body, dict):
        raise SizingInputError(
            "must be a JSON object", field="non_field_errors", code="not_an_object"
        )
    if body.get("workload") is None:
        raise SizingInputError("is required", field="workload", code="required")
    accelerator = body.get("accelerator")
    if accelerator is not None and not isinstance(accelerator, str):
        raise SizingInputError(
            "must be an accelerator key",
            field="accelerator",
            code="unknown_accelerator",
            params={"key": accelerator},
        )
    catalog = engine_catalog()
    workload = workload_from_dict(body["workload"], catalog)
    constraints = constraints_from_dict(body.get("constraints"))
    return estimate(workload, catalog, accelerator or None, constraints).to_dict()


def plan_inputs(*, requirement: Requirement, workloads: list[Workload]) -> dict:
    """The snapshot a plan is computed from (stored with it): the workloads, the
    questionnaire's answers and the procurement's facts (region, budget, horizon)."""
    bodies = []
    data_tb = requirement.data_tb
    explicit = any(w.dataset_tb is not None for w in workloads)
    for index, workload in enumerate(workloads):
        body = workload.to_engine_dict()
        if not explicit and index == 0 and data_tb:
            body["dataset_tb"] = data_tb  # the questionnaire's data volume
        bodies.append({"id": workload.pk, "name": workload.name, "workload": body})
    return {
        "workloads": bodies,
        "constraints": constraints_for(requirement),
        "accelerator": requirement.accelerator_key or None,
        "data_tb": data_tb,
        "scenario": requirement.scenario,
    }


def _parse_inputs(
    inputs: dict, catalog: Catalog
) -> tuple[list[EngineWorkload], Constraints]:
    if not inputs["workloads"]:
        raise SizingInputError(_("Add at least one workload."), field="workloads")
    parsed = []
    for index, item in enumerate(inputs["workloads"]):
        try:
            parsed.append(workload_from_dict(item["workload"], catalog))
        except SizingInputError as exc:
            field = exc.field.replace("workload", f"workloads.{index}", 1)
            raise exc.at(field) from None
    return parsed, constraints_from_dict(inputs["constraints"])


def compute_plan(*, inputs: dict) -> dict:
    """``plan_cluster(...).to_dict()`` for a snapshot, without writing (the preview)."""
    catalog = engine_catalog()
    workloads, constraints = _parse_inputs(inputs, catalog)
    return plan_cluster(
        workloads, catalog, inputs.get("accelerator"), constraints
    ).to_dict()


def _alternative_row(acc: EngineAccelerator, plan: dict, chosen: str) -> dict:
    costs = [w.get("cost", {}) for w in plan["workloads"]]
    return {
        "accelerator": acc.key,
        "name": acc.name,
        "vendor": acc.vendor,
        "ecosystem": acc.ecosystem,
        "gpu_count": plan["gpu_count"],
        "nodes": plan["nodes"],
        "capex_usd": sum(c.get("capex_usd") or 0.0 for c in costs),
        "total_usd": sum(c.get("total_usd") or 0.0 for c in costs),
        "cooling": plan["power"]["cooling"],
        "it_kw": plan["power"]["it_kw"],
        "warnings": [b["code"] for b in plan["bottlenecks"]],
        "is_estimate": acc.is_estimate,
        "chosen": acc.key == chosen,
    }


def _alternatives(inputs: dict, chosen: str) -> list[dict]:
    """Other accelerators that run every workload, cheapest first (capex + energy).

    The engine ranks accelerators per workload; for a whole cluster it only returns
    the winner, so the runner-ups are sized here with the same entry point.
    """
    catalog = engine_catalog()
    workloads, constraints = _parse_inputs(inputs, catalog)
    rows = []
    for acc in buyable_accelerators(catalog, constraints.region):
        try:
            plan = plan_cluster(workloads, catalog, acc.key, constraints).to_dict()
        except SizingInputError:
            continue
        if any(b["code"] in BLOCKING_CODES for b in plan["bottlenecks"]):
            continue
        rows.append(_alternative_row(acc, plan, chosen))
    rows.sort(key=lambda r: (not r["chosen"], r["total_usd"], r["accelerator"]))
    chosen_rows = [r for r in rows if r["chosen"]]
    others = sorted(
        (r for r in rows if not r["chosen"]),
        key=lambda r: (r["total_usd"], r["accelerator"]),
    )
    return chosen_rows + others[:ALTERNATIVES_SHOWN]


def _model_facts(inputs: dict) -> None:
    """Add model name and parameter count to each workload of the snapshot."""
    catalog = engine_catalog()
    for item in inputs["workloads"]:
        arch = workload_from_dict(item["workload"], catalog).model
        item["model_name"] = arch.name
        item["params_b"] = round(param_counts(arch)[0] / 1e9, 3)


@transaction.atomic
def compute_sizing_plan(*, procurement: Procurement, user) -> SizingPlan:
    """Size the procurement's workloads with its requirement and store the plan."""
    requirement = requirement_for(procurement=procurement)
    workloads = list(Workload.objects.for_procurement(procurement))
    inputs = plan_inputs(requirement=requirement, workloads=workloads)
    result = compute_plan(inputs=inputs)
    _model_facts(inputs)
    return SizingPlan.objects.create(
        procurement=procurement,
        engine_version=result.get("engine_version", ENGINE_VERSION),
        result=result,
        alternatives=_alternatives(inputs, result["accelerator"]),
        inputs=inputs,
        created_by=user,
    )


@transaction.atomic
def save_requirement_and_plan(
    *, procurement: Procurement, user, **values
) -> SizingPlan:
    """The questionnaire's Save: store the answers, then compute and store a plan."""
    save_requirement(procurement=procurement, user=user, **values)
    return compute_sizing_plan(procurement=procurement, user=user)


def latest_plan(*, procurement: Procurement) -> SizingPlan | None:
    """The procurement's newest SizingPlan, or None when none was computed."""
    return SizingPlan.objects.for_procurement(procurement).first()
