"""What the TCO form, pages and PDF call things, in the active language.

Input and capex labels come from the engine's input table (``label_en``/``label_zh``),
so a new input needs no gettext entry; they are lazy, like ``gettext_lazy``, and pick
the language when they are displayed. The cloud options and the hidden-cost checks
are UI copy and go through gettext.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext_lazy

from .engine import CAPEX_CATEGORIES, INPUT_TABLE, capex_label, input_label


def _in_active_language(label_of, key: str) -> str:
    return label_of(key, get_language() or "en")


_lazy_label = lazy(_in_active_language, str)

#: Labels of the engine's inputs, in the order of the input table.
INPUT_LABELS: dict[str, Any] = {
    spec.name: _lazy_label(input_label, spec.name) for spec in INPUT_TABLE
}
CAPEX_LABELS: dict[str, Any] = {
    key: _lazy_label(capex_label, key) for key in CAPEX_CATEGORIES
}
#: Inputs shown as percentages (the table's ``share`` kind).
PERCENT_INPUTS = frozenset(spec.name for spec in INPUT_TABLE if spec.kind == "share")

OPTION_LABELS: dict[str, Any] = {
    "on_demand": gettext_lazy("Cloud on-demand"),
    "reserved": gettext_lazy("Cloud reserved (3 years)"),
    "spot": gettext_lazy("Cloud spot"),
    "hybrid": gettext_lazy("Hybrid (on-prem + cloud spot)"),
}
HIDDEN_COST_LABELS: dict[str, tuple[Any, Any]] = {
    "installation": (
        gettext_lazy("Installation and commissioning"),
        gettext_lazy(
            "No installation cost: racking, cabling, burn-in and acceptance tests are "
            "rarely free; ask the vendor or add a line."
        ),
    ),
    "software_licences": (
        gettext_lazy("Software licences"),
        gettext_lazy(
            "No software cost: check scheduler, OS, NVIDIA AI Enterprise or storage "
            "licences."
        ),
    ),
    "support_after_warranty": (
        gettext_lazy("Support after warranty"),
        gettext_lazy(
            "No support cost within the horizon: confirm the warranty covers on-site "
            "parts and labour for the whole period."
        ),
    ),
    "network": (
        gettext_lazy("Network (fabric, switches, cables, NICs)"),
        gettext_lazy(
            "No network capex: the cluster interconnect is about 19 percent of cluster "
            "cost; add switches, optics and cables."
        ),
    ),
    "storage": (
        gettext_lazy("Storage"),
        gettext_lazy(
            "No storage capex: training needs shared high-throughput storage for "
            "data and checkpoints."
        ),
    ),
    "facility": (
        gettext_lazy("Power and cooling (facility)"),
        gettext_lazy(
            "No facility capex: power distribution, UPS and cooling for the racks "
            "are needed unless colocation covers them."
        ),
    ),
    "staff": (
        gettext_lazy("Operations staff"),
        gettext_lazy(
            "No staff cost: someone has to run, patch and repair the cluster."
        ),
    ),
}


def money(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "—"
    return f"{value:,.{digits}f}"


def format_input(name: str, value: Any) -> str:
    if name in PERCENT_INPUTS:
        return f"{float(value) * 100:.4g} %"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.2f}"
    return str(value)


#: What each item of a cost breakdown is (tco.engine.breakdown); ``%(category)s``
#: is the category's shown name.
BREAKDOWN_LABELS: dict[str, Any] = {
    "capex": gettext_lazy("Capex: %(category)s"),
    "quoted_one_off": gettext_lazy("Quoted one-off: %(category)s"),
    "quoted_recurring": gettext_lazy("Quoted yearly, over the horizon: %(category)s"),
    "added": gettext_lazy("Added by ClusterBuy: %(category)s"),
    "energy": gettext_lazy("Energy"),
    "colocation": gettext_lazy("Colocation"),
    "support": gettext_lazy("Support after warranty"),
    "software": gettext_lazy("Software licences (yearly)"),
    "staff": gettext_lazy("Operations staff"),
    "failures": gettext_lazy("GPU failures (replacement parts)"),
    "residual": gettext_lazy("Residual value (deducted)"),
}
#: Who set the figures of a breakdown item.
BREAKDOWN_SOURCES: dict[str, Any] = {
    "bid": gettext_lazy("the bid's price"),
    "clusterbuy": gettext_lazy("added by ClusterBuy (sourced rule)"),
    "default": gettext_lazy("ClusterBuy default, the same for every bid"),
    "scenario": gettext_lazy("scenario input"),
}


def breakdown_label(code: str, category: str = "") -> str:
    """The shown name of a breakdown item; ``category`` is already a shown name
    (the caller knows whether it is a capex or a bid line category)."""
    label = BREAKDOWN_LABELS.get(code)
    if label is None:
        return code
    return str(label) % {"category": category} if "%(" in str(label) else str(label)


def breakdown_rows(items: list[dict], category_label=None) -> list[dict]:
    """Breakdown items (``CostItem.to_dict()`` or CostItem) as a page shows them:
    label, amount, source and basis; ``category_label`` names a category (capex
    categories by default)."""
    rows = []
    for item in items:
        data = item if isinstance(item, dict) else item.to_dict()
        category = data["category"]
        if category_label is not None:
            shown = category_label(category)
        else:
            shown = str(CAPEX_LABELS.get(category, category))
        rows.append(
            {
                "code": data["code"],
                "category": category,
                "label": breakdown_label(data["code"], shown),
                "amount": data["amount"],
                "source": str(BREAKDOWN_SOURCES.get(data["source"], data["source"])),
                "basis": data["basis"],
            }
        )
    return rows
