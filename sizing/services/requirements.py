"""A procurement's requirement (the questionnaire's answers) and its workloads.

Every write checks the row the way the engine will parse it, so a saved row can always
be sized; a ``SizingInputError`` names the model field, not the engine path.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

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

# Constraints' default exchange rate (engine.workload.Constraints.fx_cny_per_usd).
FX_CNY_PER_USD = 7.2
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
    "kv_cache_precision",
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
        # The data volume becomes the first workload's dataset_tb (plans.py).
        read_number(
            {"data_tb": requirement.data_tb},
            "data_tb",
            "requirement",
            allow_zero=True,
            maximum=ceiling("dataset_tb"),
        )
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
