"""A procurement's requirement (the questionnaire's answers) and its workloads.

Every write checks the row the way the engine will parse it, so a saved row can always
be sized; a ``SizingInputError`` names the model field, not the engine path.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.engine.currency import DEFAULT_FX_CNY_PER_USD, convert_money
from clusterbuy.models import Procurement
from sizing.engine import SizingInputError, constraints_from_dict, workload_from_dict
from sizing.engine.fields import read_number
from sizing.engine.limits import ceiling
from sizing.models import (
    CUSTOM_MODEL_FIELDS,
    INFERENCE_FIELDS,
    TRAINING_FIELDS,
    Requirement,
    Workload,
)

from .catalog import engine_catalog

REQUIREMENT_FIELDS = (
    "scenario",
    "data_tb",
    "growth_per_year",
    "rack_power_limit_kw",
    "liquid_cooling_ok",
    "preferred_ecosystem",
    "accelerator_key",
    "time_shared",
)
#: The questionnaire's former answers that are the procurement's facts (issue 12): a
#: write naming one is refused with the procurement field that holds it.
PROCUREMENT_FACTS = {
    "budget": "budget_max",
    "budget_currency": "currency",
    "planning_years": "horizon_years",
    "region": "region",
    "data_location": "deployment_site",
    "scheduler_experience": "slurm_experience",
}
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
    "kv_cache_precision",
    "gpu_memory_fraction",
    "expert_load_balancing",
    "arrival",
    "output_lengths",
    "dataset_tb",
)


def requirement_for(*, procurement: Procurement) -> Requirement:
    """The procurement's requirement, unsaved with defaults when none exists yet."""
    existing = Requirement.objects.filter(procurement=procurement).first()
    if existing is not None:
        return existing
    return Requirement(procurement=procurement)


def procurement_fact_error(name: str) -> str:
    """The message for a questionnaire write of a fact the procurement holds."""
    field = PROCUREMENT_FACTS[name]
    label = Procurement._meta.get_field(field).verbose_name
    return _(
        "This is the procurement's “%(label)s” (%(field)s): edit it on the "
        "procurement, not in the questionnaire."
    ) % {"label": label, "field": field}


def engine_field(field: str) -> str:
    """The form/model field behind an engine path (``workload.model.hidden_size``)."""
    name = field.rsplit(".", 1)[-1]
    if field.endswith("model.preset"):
        return "model_preset"
    if name == "data_growth_per_year":
        return "growth_per_year"
    return name


def usd_in_currency(amount_usd: float | None, procurement: Procurement) -> float | None:
    """A sizing figure in USD (the engine's prices) in the procurement's currency,
    at the default rate (``DEFAULT_FX_CNY_PER_USD``) for a CNY procurement: the rate
    `budget_usd` uses the other way."""
    if amount_usd is None:
        return None
    if procurement.currency == "CNY":
        return convert_money(float(amount_usd), from_currency="USD", to_currency="CNY")
    return float(amount_usd)


def budget_usd(procurement: Procurement) -> float | None:
    """The procurement's budget ceiling (``budget_max``) in USD, None when not set."""
    if procurement.budget_max is None:
        return None
    amount = float(procurement.budget_max)
    if procurement.currency == "CNY":
        amount = convert_money(amount, from_currency="CNY", to_currency="USD")
    return amount or None


def constraints_for(requirement: Requirement) -> dict:
    """The engine's ``constraints`` object: the questionnaire's site limits with the
    procurement's region, budget (in USD) and planning horizon."""
    procurement = requirement.procurement
    data = {
        "region": procurement.region,
        "rack_power_limit_kw": requirement.rack_power_limit_kw,
        "liquid_cooling_ok": requirement.liquid_cooling_ok,
        "preferred_ecosystem": requirement.preferred_ecosystem or None,
        "budget_usd": budget_usd(procurement),
        "data_growth_per_year": (requirement.growth_per_year or 0) / 100.0,
        "planning_years": float(procurement.horizon_years),
        "fx_cny_per_usd": DEFAULT_FX_CNY_PER_USD,
        "time_shared": requirement.time_shared,
        # the organisation's data, grown over the horizon: storage holds at least it
        "data_tb": float(requirement.data_tb) if requirement.data_tb else None,
    }
    return {k: v for k, v in data.items() if v is not None}


def check_workload(*, workload: Workload) -> None:
    """Parse the row as the engine will; SizingInputError names the model field."""
    try:
        workload_from_dict(workload.to_engine_dict(), engine_catalog())
    except SizingInputError as exc:
        raise exc.at(engine_field(exc.field)) from None


def effective_precision(*, workload: Workload) -> dict | None:
    """The weight precision the engine sizes this row at and why (engine.workload):
    ``{"weights": "fp8", "source": "published"}``; None when the row cannot be parsed."""
    try:
        parsed = workload_from_dict(workload.to_engine_dict(), engine_catalog())
    except SizingInputError:
        return None
    return {"weights": parsed.precision, "source": parsed.precision_source}


def _check_requirement(requirement: Requirement) -> None:
    try:
        constraints_from_dict(constraints_for(requirement))
        # The data volume becomes the first workload's dataset_tb (plans.py).
        read_number(
            {"data_tb": requirement.data_tb},
            "data_tb",
            "requirement",
            allow_zero=True,
            maximum=ceiling("dataset_tb"),
        )
    except SizingInputError as exc:
        raise exc.at(engine_field(exc.field)) from None
    _check_pinned_accelerator(requirement)


def _check_pinned_accelerator(requirement: Requirement) -> None:
    """A pinned accelerator must exist and be buyable in the procurement's region."""
    key = requirement.accelerator_key
    if not key:
        return
    accelerator = engine_catalog().accelerators.get(key)
    if accelerator is None:
        raise SizingInputError(
            _("Unknown accelerator %(key)s.") % {"key": key}, field="accelerator_key"
        )
    region = requirement.procurement.region
    if accelerator.status_in(region) == "restricted":
        raise SizingInputError(
            _(
                "%(name)s cannot be bought in %(region)s (export rules): choose "
                "another accelerator or change the procurement's region."
            )
            % {
                "name": accelerator.name,
                "region": requirement.procurement.get_region_display(),
            },
            field="accelerator_key",
        )


@transaction.atomic
def save_requirement(*, procurement: Procurement, user, **values) -> Requirement:
    for name in values:
        if name in PROCUREMENT_FACTS:
            raise SizingInputError(procurement_fact_error(name), field=name)
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
