"""Shown names of the codes the pure modules return (pitfalls, compliance items and
statuses, SLA severities, line categories) and of the hidden-cost fill-in rules:
pages never show a raw code."""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import (
    get_language,
    gettext_lazy,
    gettext_noop,
    pgettext_lazy,
)
from django.utils.translation import gettext as _

from tco import labels as tco_labels

from ..models import Cooling, LineCategory

# Why each category ClusterBuy fills in costs what it does, keyed by the codes of
# tco.engine.normalise (whose constants these sentences cite).
FILL_IN_SOURCES: dict[str, str] = {
    "gpu_servers": gettext_noop(
        "GPU servers priced from the sizing plan: GPU price x GPU count."
    ),
    "network": gettext_noop(
        "Interconnect is about 19 per cent of total cluster cost: network = GPU servers x "
        "0.19 / 0.81 (Epoch AI, cluster interconnect ≈ 19 per cent of cluster cost, 2024)."
    ),
    "storage": gettext_noop(
        "Shared high-throughput storage for data and checkpoints: 5 per cent of GPU-server "
        "capex. ClusterBuy assumption (no published share found), indicative."
    ),
    "power_cooling": gettext_noop(
        "Facility (power distribution, UPS, cooling): 10 USD per W of IT power, "
        "amortised over a 12-year facility life, so the horizon carries "
        "horizon/12 of it (reallm Constants.py, Barroso-style datacenter TCO, "
        "2024); on-premises sites only."
    ),
    "installation": gettext_noop(
        "Racking, cabling, burn-in and acceptance: 2 per cent of hardware capex (GPU "
        "servers + network + storage). ClusterBuy assumption, indicative."
    ),
    "support": gettext_noop(
        "Support after the warranty: 10 per cent of hardware capex a year (contracts cost "
        "8-15 per cent a year, Sesterce GPU TCO calculator, 2025), for the years after the "
        "bid's warranty (3 years when not stated)."
    ),
}


PITFALL_LABELS = {
    "gpu_only": gettext_lazy("GPU-only quote"),
    "over_promising": gettext_lazy("Over-promising"),
    "template_proposal": gettext_lazy("Template proposal"),
    "closed_ecosystem": gettext_lazy("Closed ecosystem"),
}
STATUS_LABELS = {
    "pass": pgettext_lazy("compliance status", "pass"),
    "warn": pgettext_lazy("compliance status", "warning"),
    "fail": pgettext_lazy("compliance status", "fail"),
}
SEVERITY_LABELS = {
    "sev1": gettext_lazy("Severity 1"),
    "sev2": gettext_lazy("Severity 2"),
    "sev3": gettext_lazy("Severity 3"),
}

COMPLIANCE_ITEMS = (
    "compute",
    "memory_fit",
    "vram_gb_per_gpu",
    "scaleup_domain_gpus",
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "storage_write_gbs",
    "it_power_kw",
    "cooling",
    "ecosystem",
)

ECOSYSTEM_NAMES = {
    "cuda": "CUDA",
    "rocm": "ROCm",
    "cann": "CANN",
    "synapseai": "SynapseAI",
}


def pitfall_label(code: str) -> str:
    return str(PITFALL_LABELS.get(str(code), code))


def status_label(status: str) -> str:
    return str(STATUS_LABELS.get(str(status), status))


def severity_label(code: str) -> str:
    return str(SEVERITY_LABELS.get(str(code), code))


def category_label(code: str) -> str:
    try:
        return str(LineCategory(code).label)
    except ValueError:
        return code


def breakdown_rows(items: list) -> list[dict]:
    """A bid's TCO breakdown as shown: bid line categories named as on the bid."""
    return tco_labels.breakdown_rows(items, category_label=_item_category_label)


def _item_category_label(code: str) -> str:
    if code in LineCategory.values:
        return category_label(code)
    return str(tco_labels.CAPEX_LABELS.get(code, code))


def compliance_label(item: str) -> str:
    labels = {
        "compute": _("Compute delivered"),
        "memory_fit": _("Workloads that fit in GPU memory"),
        "vram_gb_per_gpu": _("Memory per GPU"),
        "scaleup_domain_gpus": _("Scale-up domain"),
        "network_gbps_per_gpu": _("Network per GPU"),
        "storage_tb": _("Storage capacity"),
        "storage_read_gbs": _("Storage read throughput"),
        "storage_write_gbs": _("Storage write throughput"),
        "it_power_kw": _("IT power"),
        "cooling": _("Cooling"),
        "ecosystem": _("Software compatibility"),
    }
    return str(labels.get(item, item))


def fill_in_help() -> str:
    """Every fill-in rule, translated, for the hidden-cost row's tooltip."""
    return "\n".join(
        f"{category_label(category)}: {_(source)}"
        for category, source in FILL_IN_SOURCES.items()
    )


def current_language() -> str:
    """The language notes and pitfall reasons are written in (the pure modules carry
    both zh and en)."""
    return get_language() or "en"


def rounded_number(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return round(value, 4)
    return value


def shown_value(value: Any) -> Any:
    """A compliance value as the page shows it: cooling and ecosystem codes named."""
    if isinstance(value, str):
        if value in Cooling.values:
            return str(Cooling(value).label)
        return ECOSYSTEM_NAMES.get(value, value)
    return rounded_number(value)
