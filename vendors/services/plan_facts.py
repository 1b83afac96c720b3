"""What vendor evaluation needs from the sizing side: the plan's headline figures,
the physical lower bound of a training run, what an offer delivers for the planned
workloads and the accelerator catalog. Vendors read
them through sizing's services (apps depend one way: sizing never imports vendors).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from sizing import services as sizing_services
from sizing.models import Accelerator


def plan_summary(*, procurement: Procurement) -> sizing_services.PlanSummary | None:
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


def accelerator_choices(*, procurement=None) -> list[tuple[str, list[tuple[str, str]]]]:
    """The catalog grouped by vendor for a select: [(vendor, [(key, name)])]. With
    a ``procurement``, the accelerators buyable in its region (export rules,
    `sizing.services.buyable_accelerators_for`) come first, by vendor, and the rest
    in one last group that says they are not."""
    groups = sizing_services.accelerator_choices()
    if procurement is None:
        return groups
    buyable = set(
        sizing_services.buyable_accelerators_for(procurement=procurement).values_list(
            "key", flat=True
        )
    )
    first = [
        (vendor, [c for c in options if c[0] in buyable]) for vendor, options in groups
    ]
    rest = [c for _vendor, options in groups for c in options if c[0] not in buyable]
    choices = [(vendor, options) for vendor, options in first if options]
    if rest:
        region = procurement.get_region_display()
        choices.append(
            (
                _("Not buyable in %(region)s (export rules)") % {"region": region},
                rest,
            )
        )
    return choices


def catalog_loaded() -> bool:
    return Accelerator.objects.exists()
