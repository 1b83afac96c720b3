"""Sizing use cases: the only code that writes the sizing models.

Other apps call ``latest_plan``, ``plan_summary``, ``training_lower_bound_days``,
``engine_catalog`` and ``estimate_from_body``; their names and return shapes are a
contract (issue 3).
"""

from __future__ import annotations

import math
import threading
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from sizing import reference_data
from sizing.engine import (
    ENGINE_VERSION,
    Catalog,
    SizingInputError,
    constraints_from_dict,
    estimate,
    plan_cluster,
    workload_from_dict,
)
from sizing.engine import catalog as engine_records

from .models import (
    CUSTOM_MODEL_FIELDS,
    INFERENCE_FIELDS,
    TRAINING_FIELDS,
    Accelerator,
    ModelPreset,
    NetworkOption,
    Requirement,
    ServerPlatform,
    SizingPlan,
    StorageTier,
    Workload,
)

CATALOG_MODELS = (Accelerator, ServerPlatform, NetworkOption, StorageTier, ModelPreset)
# Constraints' default exchange rate (engine.workload.Constraints.fx_cny_per_usd).
FX_CNY_PER_USD = 7.2
# Physical ceiling on model FLOPs utilisation for the training lower bound. Published
# large-run MFUs stay below it: PaLM 540B 46.2 % (Chowdhery et al. 2022, Table 3),
# Llama 3.1 405B 38-43 % (Dubey et al. 2024, Table 4), MegaScale 55.2 % (Jiang et al.
# 2024). 0.6 is above all of them, so no bid can honestly promise a shorter time.
MFU_CEILING = 0.6
# Bottlenecks that mean the accelerator cannot run a workload at all.
BLOCKING_CODES = frozenset(
    {
        "memory_exceeds_capacity",
        "latency_target_unmet",
        "accelerator_not_available_in_region",
    }
)
ALTERNATIVES_SHOWN = 3


# ------------------------------------------------------------------------ catalogue


def _decimal(value: float | None) -> Decimal | None:
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"))


def _model_fields(model) -> set[str]:
    return {f.name for f in model._meta.concrete_fields} - {
        "id",
        "created_at",
        "updated_at",
    }


def _upsert(model, rows: list[dict[str, Any]]) -> dict[str, int]:
    fields = _model_fields(model)
    decimals = {
        f.name
        for f in model._meta.concrete_fields
        if f.get_internal_type() == "DecimalField"
    }
    created = updated = 0
    for row in rows:
        defaults = {}
        for name, value in row.items():
            if name not in fields or name == "key":
                continue
            if name in decimals:
                value = _decimal(value)
            elif value is None and not model._meta.get_field(name).null:
                value = model._meta.get_field(name).get_default()
            defaults[name] = value
        _obj, was_created = model.objects.update_or_create(
            key=row["key"], defaults=defaults
        )
        created += was_created
        updated += not was_created
    return {"created": created, "updated": updated}


@transaction.atomic
def load_reference_catalog(
    *, data_dir: str | Path | None = None
) -> dict[str, dict[str, int]]:
    """Copy sizing/data into the catalogue tables (update_or_create by key).

    Idempotent: run twice, nothing doubles; rows edited in the admin are overwritten
    by the file's values, rows added in the admin are kept.
    """
    counts = {
        "accelerators": _upsert(
            Accelerator, reference_data.read_accelerator_rows(data_dir)
        ),
        "servers": _upsert(ServerPlatform, reference_data.read_server_rows(data_dir)),
        "networks": _upsert(NetworkOption, reference_data.read_network_rows(data_dir)),
        "storage_tiers": _upsert(
            StorageTier, reference_data.read_storage_rows(data_dir)
        ),
        "model_presets": _upsert(
            ModelPreset, reference_data.read_preset_rows(data_dir)
        ),
    }
    return counts


def ensure_catalog_loaded() -> bool:
    """Load the reference catalogue when the tables are empty; True when it loaded."""
    if Accelerator.objects.exists() and ModelPreset.objects.exists():
        return False
    load_reference_catalog()
    return True


def _float(value) -> float | None:
    return None if value is None else float(value)


def _row(obj, model) -> dict[str, Any]:
    row = {}
    for name in _model_fields(model):
        value = getattr(obj, name)
        row[name] = _float(value) if isinstance(value, Decimal) else value
    return row


def _catalog_from_db() -> Catalog:
    accelerators = {
        a.key: reference_data.accelerator_from_row(_row(a, Accelerator))
        for a in Accelerator.objects.all()
    }
    servers = {
        s.key: engine_records.ServerPlatform(**_row(s, ServerPlatform))
        for s in ServerPlatform.objects.all()
    }
    networks = {
        n.key: engine_records.NetworkOption(**_row(n, NetworkOption))
        for n in NetworkOption.objects.all()
    }
    storage = {
        t.key: engine_records.StorageTier(**_row(t, StorageTier))
        for t in StorageTier.objects.all()
    }
    presets = {
        p.key: reference_data.model_from_row(_row(p, ModelPreset))
        for p in ModelPreset.objects.all()
    }
    return Catalog(
        accelerators=accelerators,
        servers=servers,
        networks=networks,
        storage_tiers=storage,
        presets=presets,
    )


def catalog_version() -> tuple:
    """Row count and newest ``updated_at`` of every catalogue table, in one query.

    Any admin edit, addition or deletion changes it, so it keys the cache below.
    """
    quote = connection.ops.quote_name
    parts = []
    for model in CATALOG_MODELS:
        table = quote(model._meta.db_table)
        parts.append(f"(SELECT COUNT(*) FROM {table})")
        parts.append(f"(SELECT MAX({quote('updated_at')}) FROM {table})")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        return tuple(cursor.fetchone())


_catalog_lock = threading.Lock()
_catalog_cache: dict[str, Any] = {"version": None, "catalog": None}


def engine_catalog() -> Catalog:
    """The engine's Catalog built from the database rows (so admin edits count).

    Cached per process; one cheap query (``catalog_version``) per call decides whether
    the cache is stale. An empty database falls back to the shipped files, so a fresh
    install can size before ``manage.py load_catalog`` has run.
    """
    version = catalog_version()
    with _catalog_lock:
        if _catalog_cache["version"] == version:
            return _catalog_cache["catalog"]
    if version[0] == 0 and version[-2] == 0:
        catalog = reference_data.load_catalog()
    else:
        catalog = _catalog_from_db()
    with _catalog_lock:
        _catalog_cache.update(version=version, catalog=catalog)
    return catalog


# --------------------------------------------------------------------- stateless API


def estimate_from_body(body: Any) -> dict:
    """``POST /api/v1/sizing/estimate`` and ``manage.py size``: one workload, no writes.

    ``body`` is ``{"workload": {...}, "accelerator": key?, "constraints": {...}?}``;
    returns ``estimate(...).to_dict()``. Bad input raises ``SizingInputError`` whose
    ``field`` is the dotted path in the body.
    """
    if not isinstance(body, dict):
        raise SizingInputError("must be a JSON object", field="non_field_errors")
    if body.get("workload") is None:
        raise SizingInputError("is required", field="workload")
    accelerator = body.get("accelerator")
    if accelerator is not None and not isinstance(accelerator, str):
        raise SizingInputError("must be an accelerator key", field="accelerator")
    catalog = engine_catalog()
    workload = workload_from_dict(body["workload"], catalog)
    constraints = constraints_from_dict(body.get("constraints"))
    return estimate(workload, catalog, accelerator or None, constraints).to_dict()


# -------------------------------------------------------------- requirement + workloads

REQUIREMENT_FIELDS = (
    "scenario",
    "data_tb",
    "data_location",
    "growth_per_year",
    "planning_years",
    "budget",
    "budget_currency",
    "region",
    "rack_power_limit_kw",
    "liquid_cooling_ok",
    "preferred_ecosystem",
    "scheduler_experience",
    "accelerator_key",
    "time_shared",
)
WORKLOAD_FIELDS = (
    "name",
    "kind",
    "model_preset",
    "model_name",
    *CUSTOM_MODEL_FIELDS,
    "precision",
    "seq_len",
    *TRAINING_FIELDS,
    *(f for f in INFERENCE_FIELDS if f not in TRAINING_FIELDS),
    "dataset_tb",
)


def requirement_for(*, procurement: Procurement) -> Requirement:
    """The procurement's requirement, unsaved with defaults when none exists yet."""
    existing = Requirement.objects.filter(procurement=procurement).first()
    if existing is not None:
        return existing
    return Requirement(procurement=procurement, budget_currency=procurement.currency)


def engine_field(field: str) -> str:
    """The form/model field behind an engine path (``workload.model.hidden_size``)."""
    name = field.rsplit(".", 1)[-1]
    if field.endswith("model.preset"):
        return "model_preset"
    if name == "budget_usd":
        return "budget"
    if name == "data_growth_per_year":
        return "growth_per_year"
    return name


def constraints_for(requirement: Requirement | None) -> dict:
    """The engine's ``constraints`` object for a requirement (budget in USD)."""
    if requirement is None:
        return {}
    budget_usd = None
    if requirement.budget is not None:
        budget_usd = float(requirement.budget)
        if requirement.budget_currency == "CNY":
            budget_usd /= FX_CNY_PER_USD
    data = {
        "region": requirement.region,
        "rack_power_limit_kw": requirement.rack_power_limit_kw,
        "liquid_cooling_ok": requirement.liquid_cooling_ok,
        "preferred_ecosystem": requirement.preferred_ecosystem or None,
        "budget_usd": budget_usd or None,
        "data_growth_per_year": (requirement.growth_per_year or 0) / 100.0,
        "planning_years": float(requirement.planning_years or 3),
        "fx_cny_per_usd": FX_CNY_PER_USD,
        "time_shared": requirement.time_shared,
    }
    return {k: v for k, v in data.items() if v is not None}


def check_workload(*, workload: Workload) -> None:
    """Parse the row as the engine will; SizingInputError names the model field."""
    try:
        workload_from_dict(workload.to_engine_dict(), engine_catalog())
    except SizingInputError as exc:
        raise SizingInputError(exc.message, field=engine_field(exc.field)) from None


def _check_requirement(requirement: Requirement) -> None:
    try:
        constraints_from_dict(constraints_for(requirement))
    except SizingInputError as exc:
        raise SizingInputError(exc.message, field=engine_field(exc.field)) from None
    if requirement.accelerator_key and requirement.accelerator_key not in (
        engine_catalog().accelerators
    ):
        raise SizingInputError(
            _("Unknown accelerator %(key)s.") % {"key": requirement.accelerator_key},
            field="accelerator_key",
        )


@transaction.atomic
def save_requirement(*, procurement: Procurement, user, **values) -> Requirement:
    requirement = requirement_for(procurement=procurement)
    for name, value in values.items():
        if name in REQUIREMENT_FIELDS:
            setattr(requirement, name, value)
    _check_requirement(requirement)
    requirement.updated_by = user
    requirement.save()
    return requirement


def _assign(workload: Workload, values: dict) -> None:
    for name, value in values.items():
        if name in WORKLOAD_FIELDS:
            setattr(workload, name, value)
    if workload.model_preset:
        for name in (*CUSTOM_MODEL_FIELDS, "model_name"):
            setattr(workload, name, "" if name == "model_name" else None)
    fields = TRAINING_FIELDS if workload.is_training else INFERENCE_FIELDS
    for name in {*TRAINING_FIELDS, *INFERENCE_FIELDS} - set(fields):
        setattr(workload, name, None)


@transaction.atomic
def create_workload(*, procurement: Procurement, **values) -> Workload:
    workload = Workload(procurement=procurement)
    _assign(workload, values)
    check_workload(workload=workload)
    workload.save()
    return workload


@transaction.atomic
def update_workload(*, workload: Workload, **values) -> Workload:
    _assign(workload, values)
    check_workload(workload=workload)
    workload.save()
    return workload


@transaction.atomic
def delete_workload(*, workload: Workload) -> None:
    workload.delete()


# --------------------------------------------------------------------------- plans


def plan_inputs(*, requirement: Requirement | None, workloads: list[Workload]) -> dict:
    """The snapshot a plan is computed from (stored with it)."""
    bodies = []
    data_tb = requirement.data_tb if requirement else 0.0
    explicit = any(w.dataset_tb is not None for w in workloads)
    for index, workload in enumerate(workloads):
        body = workload.to_engine_dict()
        if not explicit and index == 0 and data_tb:
            body["dataset_tb"] = data_tb  # the questionnaire's data volume
        bodies.append({"id": workload.pk, "name": workload.name, "workload": body})
    return {
        "workloads": bodies,
        "constraints": constraints_for(requirement),
        "accelerator": (requirement.accelerator_key or None) if requirement else None,
        "data_tb": data_tb,
        "scenario": requirement.scenario if requirement else None,
    }


def _parse_inputs(inputs: dict, catalog: Catalog):
    if not inputs["workloads"]:
        raise SizingInputError(_("Add at least one workload."), field="workloads")
    parsed = []
    for index, item in enumerate(inputs["workloads"]):
        try:
            parsed.append(workload_from_dict(item["workload"], catalog))
        except SizingInputError as exc:
            field = exc.field.replace("workload", f"workloads.{index}", 1)
            raise SizingInputError(exc.message, field=field) from None
    return parsed, constraints_from_dict(inputs["constraints"])


def compute_plan(*, inputs: dict) -> dict:
    """``plan_cluster(...).to_dict()`` for a snapshot, without writing (the preview)."""
    catalog = engine_catalog()
    workloads, constraints = _parse_inputs(inputs, catalog)
    return plan_cluster(
        workloads, catalog, inputs.get("accelerator"), constraints
    ).to_dict()


def _alternatives(inputs: dict, chosen: str) -> list[dict]:
    """Other accelerators that run every workload, cheapest first (capex + energy).

    The engine ranks accelerators per workload; for a whole cluster it only returns
    the winner, so the runner-ups are sized here with the same entry point.
    """
    catalog = engine_catalog()
    workloads, constraints = _parse_inputs(inputs, catalog)
    rows = []
    for acc in catalog.accelerators.values():
        if acc.status_in(constraints.region) not in ("available", "conditional"):
            continue
        if acc.price is None:
            continue
        try:
            plan = plan_cluster(workloads, catalog, acc.key, constraints).to_dict()
        except SizingInputError:
            continue
        if any(b["code"] in BLOCKING_CODES for b in plan["bottlenecks"]):
            continue
        costs = [w.get("cost", {}) for w in plan["workloads"]]
        total = sum(c.get("total_usd") or 0.0 for c in costs)
        rows.append(
            {
                "accelerator": acc.key,
                "name": acc.name,
                "vendor": acc.vendor,
                "ecosystem": acc.ecosystem,
                "gpu_count": plan["gpu_count"],
                "nodes": plan["nodes"],
                "capex_usd": sum(c.get("capex_usd") or 0.0 for c in costs),
                "total_usd": total,
                "cooling": plan["power"]["cooling"],
                "it_kw": plan["power"]["it_kw"],
                "warnings": [b["code"] for b in plan["bottlenecks"]],
                "is_estimate": acc.is_estimate,
                "chosen": acc.key == chosen,
            }
        )
    rows.sort(key=lambda r: (not r["chosen"], r["total_usd"], r["accelerator"]))
    chosen_rows = [r for r in rows if r["chosen"]]
    others = sorted(
        (r for r in rows if not r["chosen"]),
        key=lambda r: (r["total_usd"], r["accelerator"]),
    )
    return chosen_rows + others[:ALTERNATIVES_SHOWN]


def _model_facts(inputs: dict) -> None:
    """Add model name and parameter count to each workload of the snapshot."""
    from sizing.engine.model import param_counts

    catalog = engine_catalog()
    for item in inputs["workloads"]:
        arch = workload_from_dict(item["workload"], catalog).model
        item["model_name"] = arch.name
        item["params_b"] = round(param_counts(arch)[0] / 1e9, 3)


@transaction.atomic
def compute_sizing_plan(*, procurement: Procurement, user) -> SizingPlan:
    """Size the procurement's workloads with its requirement and store the plan."""
    requirement = Requirement.objects.filter(procurement=procurement).first()
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


def _explained(result: dict, quantity: str) -> dict:
    for entry in result.get("explanation", []):
        if entry.get("quantity") == quantity:
            return entry
    return {}


def plan_summary(*, procurement: Procurement) -> dict | None:
    """The latest plan's headline figures for the TCO and vendor apps (None: no plan).

    Keys: plan_id, engine_version, accelerator (key), accelerator_name, gpu_count,
    nodes, vram_gb_per_gpu, scaleup_domain_gpus, network_gbps_per_gpu (provisioned
    scale-out per GPU), fabric, storage_tb, storage_read_gbs, storage_write_gbs
    (checkpoint write need), it_power_kw, cooling ("air"/"liquid"), ecosystem
    ("cuda"/"rocm"/"cann"/...), gpu_price (Decimal, USD per GPU incl. its server share,
    or None), gpu_price_currency, workload_kinds, model_names, model_params_b (largest
    model, billions), data_tb. Every number comes from the stored plan.
    """
    plan = latest_plan(procurement=procurement)
    if plan is None:
        return None
    result, inputs = plan.result, plan.inputs
    first = (result.get("workloads") or [{}])[0]
    interconnect = result.get("interconnect", {})
    storage = result.get("storage", {})
    power = result.get("power", {})
    gpu_count, nodes = result["gpu_count"], result["nodes"]
    per_node = _explained(result, "nodes").get("inputs", {}).get("gpus_per_node") or (
        math.ceil(gpu_count / nodes) if nodes else gpu_count
    )
    nic_gbps = (interconnect.get("nics_per_node") or 0) * (
        interconnect.get("nic_gbps") or 0
    )
    price_usd = None
    for workload in result.get("workloads", []):
        inputs_cost = _explained(workload, "cost.capex_usd").get("inputs", {})
        if inputs_cost.get("price_usd_per_gpu") is not None:
            price_usd = inputs_cost["price_usd_per_gpu"]
            break
    accelerator = Accelerator.objects.filter(key=result["accelerator"]).first()
    items = inputs.get("workloads", [])
    params = [i["params_b"] for i in items if i.get("params_b") is not None]
    return {
        "plan_id": plan.pk,
        "engine_version": plan.engine_version,
        "accelerator": result["accelerator"],
        "accelerator_name": str(accelerator) if accelerator else result["accelerator"],
        "gpu_count": gpu_count,
        "nodes": nodes,
        "vram_gb_per_gpu": first.get("memory", {}).get("capacity_gb"),
        "scaleup_domain_gpus": interconnect.get("scaleup_domain_gpus"),
        "network_gbps_per_gpu": nic_gbps / per_node if per_node else None,
        "fabric": interconnect.get("fabric"),
        "storage_tb": storage.get("capacity_tb"),
        "storage_read_gbs": storage.get("read_gbs_total"),
        "storage_write_gbs": storage.get("checkpoint_write_gbs"),
        "it_power_kw": power.get("it_kw"),
        "cooling": power.get("cooling"),
        "ecosystem": first.get("compatibility", {}).get("ecosystem"),
        "gpu_price": None if price_usd is None else _decimal(price_usd),
        "gpu_price_currency": "USD",
        "workload_kinds": [w.get("kind") for w in result.get("workloads", [])],
        "model_names": [i.get("model_name") or i.get("name") for i in items],
        "model_params_b": max(params) if params else None,
        "data_tb": storage.get("dataset_tb"),
    }


def training_lower_bound_days(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> float | None:
    """Physical lower bound (days) for the procurement's training workloads.

    sum over training workloads of model FLOPs (6N + attention, no recompute;
    Kaplan et al. 2020, PaLM App. B) / (gpu_count x dense peak of the workload's
    precision x MFU_CEILING = 0.6) / 86400. A bid promising less is impossible.
    None when there is no training workload, the accelerator is unknown, it has no
    peak for a workload's precision, or gpu_count is not positive.
    """
    from sizing.engine.model import training_flops_per_token

    catalog = engine_catalog()
    acc = catalog.accelerators.get(accelerator_key)
    if acc is None or not gpu_count or gpu_count <= 0:
        return None
    seconds = 0.0
    found = False
    for row in Workload.objects.for_procurement(procurement):
        if not row.is_training:
            continue
        try:
            workload = workload_from_dict(row.to_engine_dict(), catalog)
        except SizingInputError:
            continue
        peak = acc.peak_tflops(workload.precision)
        if not peak:
            return None
        per_token, _extra = training_flops_per_token(
            workload.model, workload.seq_len, "none", workload.lora_trainable_fraction
        )
        tokens = (workload.tokens_b or 0.0) * 1e9
        seconds += per_token * tokens / (gpu_count * peak * 1e12 * MFU_CEILING)
        found = True
    return seconds / 86400.0 if found else None


def has_workloads_and_plan(procurement: Procurement) -> bool:
    return (
        Workload.objects.for_procurement(procurement).exists()
        and SizingPlan.objects.filter(procurement=procurement).exists()
    )
