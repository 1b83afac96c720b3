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
        "The sizing plan's fabric at the bid's scale: switches and links of the "
        "right-sized fat tree (NVIDIA RA-11333-001 Table 4), priced per switch port "
        "(64-port 400G switch 36,000 USD) and per link (cable and optics 810 USD; "
        "tech-talk-cto H100 sheet, 2024-08); compute NICs come with the servers."
    ),
    "storage": gettext_noop(
        "The sizing plan's storage capacity at its tier's price per TB (capacity "
        "tier 200 USD/TB, Pure FlashBlade//E launch price 2023; performance tier "
        "twice that, ClusterBuy assumption)."
    ),
    "power_cooling": gettext_noop(
        "Facility (power distribution, UPS, cooling) for every on-premises bid: 10 "
        "USD per W of the catalogue power of the offered servers, amortised over a "
        "12-year facility life, so the horizon carries horizon/12 of it (reallm "
        "Constants.py, Barroso-style datacenter TCO, 2024); a power and cooling line "
        "of the bid counts towards it."
    ),
    "installation": gettext_noop(
        "Racking, cabling, burn-in and acceptance: 20,000 CNY per GPU node. "
        "ClusterBuy assumption (no published per-node price found), indicative."
    ),
    "support": gettext_noop(
        "Support after the warranty: 10 per cent of hardware capex a year (contracts cost "
        "8-15 per cent a year, Sesterce GPU TCO calculator, 2025), for the years that "
        "neither the bid's warranty (3 years when not stated) nor its support lines "
        "cover; no failure cost is charged in the covered years."
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
