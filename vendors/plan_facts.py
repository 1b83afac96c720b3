"""What vendor evaluation needs from the sizing side: the plan's headline figures,
the physical lower bound of a training run, what an offer delivers for the planned
workloads and the accelerator catalog. Vendors read
them through sizing's services (apps depend one way: sizing never imports vendors).
"""

from __future__ import annotations

from collections.abc import Iterable

from clusterbuy.models import Procurement
from sizing import services as sizing_services
from sizing.models import Accelerator


def plan_summary(*, procurement: Procurement) -> dict | None:
    """The sizing plan's headline figures, or None when there is no plan (yet)."""
    return sizing_services.plan_summary(procurement=procurement)


def training_lower_bound_days(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> float | None:
    return sizing_services.training_lower_bound_days(
        procurement=procurement, accelerator_key=accelerator_key, gpu_count=gpu_count
    )


def delivery_basis(*, procurement: Procurement) -> sizing_services.DeliveryBasis | None:
    """The stored plan's workloads, read once for every bid (None: no plan)."""
    return sizing_services.delivery_basis(procurement=procurement)


def delivered_capability(
    *, basis: sizing_services.DeliveryBasis, accelerator_key: str, gpu_count: int
) -> dict:
    """What ``gpu_count`` x ``accelerator_key`` delivers for each planned workload
    (`sizing.services.delivered`): training days, memory fit, serving capacity."""
    return sizing_services.delivered_from_basis(
        basis=basis, accelerator_key=accelerator_key, gpu_count=gpu_count
    )


def accelerators_by_key(keys: Iterable[str]) -> dict[str, Accelerator]:
    """Catalog rows for the given keys in one query."""
    return {a.key: a for a in Accelerator.objects.filter(key__in=set(keys))}


def accelerator_key_for(text: str) -> str | None:
    """The catalog key for a key or a shown name ("NVIDIA H200 SXM 141GB")."""
    return sizing_services.accelerator_key_for(text)


def accelerator_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The catalog grouped by vendor for a select: [(vendor, [(key, name)])]."""
    return sizing_services.accelerator_choices()


def catalog_loaded() -> bool:
    return Accelerator.objects.exists()
