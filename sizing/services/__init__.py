"""Sizing use cases: the only code that writes the sizing models.

Other apps call ``latest_plan``, ``plan_summary``, ``training_lower_bound_days``,
``engine_catalog``, ``estimate_from_body`` and ``delivered_capability``; their names and return shapes are a
contract (issue 3). Callers import this package (``from sizing import services``); the
modules behind it are ``catalog`` (reference data, the engine's Catalog),
``requirements`` (the questionnaire and workloads), ``plans`` (estimates and stored
plans) and ``summary`` (what the TCO and vendor apps read) and ``delivered`` (what an offer of N
accelerators delivers for the planned workloads).
"""

from .accelerator_names import accelerator_choices, accelerator_key_for
from .budget import plan_budget, usd_to_procurement_money
from .catalog import (
    CATALOG_MODELS,
    buyable_accelerators_for,
    catalog_version,
    engine_catalog,
    ensure_catalog_loaded,
    load_reference_catalog,
    server_facts,
    servers_facts,
)
from .delivered import (
    DeliveryBasis,
    delivered_capability,
    delivered_from_basis,
    delivery_basis,
)
from .plans import (
    ALTERNATIVES_SHOWN,
    BLOCKING_CODES,
    LATENCY_CODES,
    compute_plan,
    compute_sizing_plan,
    estimate_from_body,
    latest_plan,
    plan_inputs,
    save_requirement_and_plan,
)
from .requirements import (
    PROCUREMENT_FACTS,
    REQUIREMENT_FIELDS,
    WORKLOAD_FIELDS,
    budget_usd,
    check_workload,
    constraints_for,
    create_workload,
    delete_workload,
    effective_precision,
    engine_field,
    procurement_fact_error,
    requirement_for,
    save_requirement,
    update_workload,
    usd_in_currency,
)
from .staleness import plan_is_stale
from .summary import (
    MFU_CEILING,
    PlanSummary,
    has_workloads_and_plan,
    plan_summary,
    training_lower_bound_days,
)

__all__ = [
    "ALTERNATIVES_SHOWN",
    "BLOCKING_CODES",
    "LATENCY_CODES",
    "CATALOG_MODELS",
    "DeliveryBasis",
    "MFU_CEILING",
    "PlanSummary",
    "PROCUREMENT_FACTS",
    "REQUIREMENT_FIELDS",
    "WORKLOAD_FIELDS",
    "accelerator_choices",
    "accelerator_key_for",
    "budget_usd",
    "plan_budget",
    "usd_to_procurement_money",
    "usd_in_currency",
    "buyable_accelerators_for",
    "catalog_version",
    "check_workload",
    "compute_plan",
    "compute_sizing_plan",
    "constraints_for",
    "create_workload",
    "delivered_capability",
    "delivered_from_basis",
    "delivery_basis",
    "delete_workload",
    "effective_precision",
    "engine_catalog",
    "engine_field",
    "ensure_catalog_loaded",
    "estimate_from_body",
    "has_workloads_and_plan",
    "latest_plan",
    "load_reference_catalog",
    "plan_inputs",
    "plan_is_stale",
    "plan_summary",
    "procurement_fact_error",
    "requirement_for",
    "save_requirement",
    "save_requirement_and_plan",
    "server_facts",
    "servers_facts",
    "training_lower_bound_days",
    "update_workload",
]
