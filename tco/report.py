"""The TCO report: one context for the results page and the PDF, and the PDF itself.

The PDF is HTML (templates/tco/report.html) rendered by WeasyPrint in the run's
language. Chinese comes from the GB2312 subset of Noto Sans SC shipped in
static/fonts, loaded with @font-face from a file:// URL: a system CJK collection
would cost ~5 s a render instead of ~1 s (shared/reference/pdf-rendering.md).
Charts are the engine's SVGs embedded as data: URIs, so they stay vector in the PDF.
Their text stays text (``text_as_paths=False``): WeasyPrint draws it with the same
@font-face subset, which is ~15 % faster than thousands of glyph paths and keeps the
chart labels searchable.
"""

from __future__ import annotations

import base64
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .engine import (
    CLOUD_OPTIONS,
    CONVENTIONS,
    COST_CATEGORIES,
    DEFAULTS,
    conventions,
    default_reason,
    default_source,
)
from .engine import charts as engine_charts
from .models import TcoRun

FONT_DIR = Path(settings.BASE_DIR) / "static" / "fonts"

#: Labels of the engine's inputs, in the order the form and the report show them.
INPUT_LABELS: dict[str, Any] = {
    "horizon_years": gettext_lazy("Horizon (years)"),
    "currency": gettext_lazy("Currency"),
    "fx_usd_cny": gettext_lazy("Exchange rate (CNY per USD)"),
    "discount_rate": gettext_lazy("Discount rate (per year)"),
    "electricity_escalation": gettext_lazy("Electricity price escalation (per year)"),
    "staff_escalation": gettext_lazy("Staff cost escalation (per year)"),
    "capex": gettext_lazy("Capital expenditure lines"),
    "gpu_count": gettext_lazy("Number of GPUs"),
    "it_power_kw": gettext_lazy("IT power (kW)"),
    "load_factor": gettext_lazy("Average load (share of peak power)"),
    "pue": gettext_lazy("PUE"),
    "electricity_price_per_kwh": gettext_lazy("Electricity price (per kWh)"),
    "colocation_per_kw_month": gettext_lazy("Colocation fee (per kW and month)"),
    "support_rate": gettext_lazy("Support after warranty (share of hardware per year)"),
    "warranty_years": gettext_lazy("Warranty (years)"),
    "software_per_year": gettext_lazy("Software licences (per year)"),
    "staff_fte": gettext_lazy("Operations staff (FTE)"),
    "staff_cost_per_fte_year": gettext_lazy("Staff cost (per FTE and year)"),
    "annual_failure_rate": gettext_lazy("GPU failure rate (per year)"),
    "replacement_cost_share": gettext_lazy("Replacement cost (share of GPU price)"),
    "residual_value_rate": gettext_lazy("Residual value (share of hardware)"),
    "utilization": gettext_lazy("Utilization (useful share of GPU-hours)"),
    "cloud_on_demand_per_gpu_hour": gettext_lazy("Cloud on-demand (per GPU-hour)"),
    "cloud_reserved_per_gpu_hour": gettext_lazy("Cloud reserved (per GPU-hour)"),
    "cloud_spot_per_gpu_hour": gettext_lazy("Cloud spot (per GPU-hour)"),
    "spot_overhead": gettext_lazy("Spot overhead (work lost to interruptions)"),
    "hybrid_cloud_share": gettext_lazy("Hybrid: share of GPU-hours on cloud"),
}
CAPEX_LABELS: dict[str, Any] = {
    "gpu_servers": gettext_lazy("GPU servers"),
    "network": gettext_lazy("Network"),
    "storage": gettext_lazy("Storage"),
    "facility": gettext_lazy("Power and cooling"),
    "installation": gettext_lazy("Installation"),
    "software_once": gettext_lazy("Software (one-off)"),
    "other": gettext_lazy("Other"),
}
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
PERCENT_INPUTS = frozenset(
    {
        "discount_rate",
        "electricity_escalation",
        "staff_escalation",
        "load_factor",
        "support_rate",
        "annual_failure_rate",
        "replacement_cost_share",
        "residual_value_rate",
        "utilization",
        "spot_overhead",
        "hybrid_cloud_share",
    }
)


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


def category_label(category: str, lang: str) -> str:
    return engine_charts._labels(lang, None).get(category, category)


def chart_svgs(analysis: dict, lang: str, text_as_paths: bool = True) -> dict[str, str]:
    """The four charts of a run, as SVG text (same for the page and the PDF)."""
    result = analysis["result"]
    return {
        "stacked": engine_charts.stacked_bars_svg(result, lang, None, text_as_paths),
        "cumulative": engine_charts.cumulative_svg(result, lang, None, text_as_paths),
        "tornado": engine_charts.tornado_svg(
            analysis["sensitivity"], lang, None, text_as_paths
        ),
        "histogram": engine_charts.histogram_svg(
            analysis["monte_carlo"], lang, None, text_as_paths
        ),
    }


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def _conventions(analysis: dict, lang: str) -> list[str]:
    """The run's conventions in ``lang``; a run of another engine keeps its own text."""
    stored = analysis["conventions"]
    return conventions(lang) if stored == CONVENTIONS else stored


def report_context(*, run: TcoRun, analysis: dict, lang: str) -> dict:
    """Everything both the results page and the PDF display, formatted."""
    from .services import sizing_plan

    result = analysis["result"]
    inputs = analysis["inputs"]
    mc = analysis["monte_carlo"]
    currency = result["currency"]
    user_fields = set(inputs.get("user_fields") or [])
    assumptions = []
    for name, label in INPUT_LABELS.items():
        if name == "capex":
            continue
        known = name in DEFAULTS
        assumptions.append(
            {
                "name": name,
                "label": label,
                "value": format_input(name, inputs[name]),
                "is_default": name not in user_fields,
                "reason": default_reason(name, lang) if known else "",
                "source": default_source(name, lang) if known else "",
            }
        )
    capex_lines = [
        {
            "category": CAPEX_LABELS.get(line["category"], line["category"]),
            "description": line["description"],
            "amount": money(line["amount"]),
        }
        for line in inputs.get("capex") or []
    ]
    shown = [c for c in COST_CATEGORIES if any(r[c] for r in result["years"])]
    years = [
        {
            "year": row["year"],
            "cells": [money(row[c]) for c in shown],
            "total": money(row["total"]),
            "discounted": money(row["discounted_total"]),
        }
        for row in result["years"]
    ]
    totals_row = [money(result["totals_by_category"][c]) for c in shown]
    options = []
    onprem_total = result["total_cost"]
    for option in CLOUD_OPTIONS:
        c = result["cloud"][option]
        month = result["break_even_month"][option]
        options.append(
            {
                "key": option,
                "label": OPTION_LABELS[option],
                "total": money(c["total"]),
                "npv": money(c["npv"]),
                "per_gpu_hour": money(c["per_gpu_hour"], 2),
                "break_even_month": month,
                "cheaper": onprem_total < c["total"],
                "prob_onprem_cheaper_pct": round(
                    mc["prob_onprem_cheaper"][option] * 100
                ),
            }
        )
    hybrid = result["hybrid"]
    options.append(
        {
            "key": "hybrid",
            "label": OPTION_LABELS["hybrid"],
            "total": money(hybrid["total"]),
            "npv": money(hybrid["npv"]),
            "per_gpu_hour": money(hybrid["per_gpu_hour"], 2),
            "break_even_month": None,
            "cheaper": onprem_total < hybrid["total"],
            "prob_onprem_cheaper_pct": None,
        }
    )
    hidden = []
    for row in analysis["hidden_costs"]:
        label, warning = HIDDEN_COST_LABELS.get(
            row["category"], (row["label"], row["message"])
        )
        if row["status"] == "ok" and row["message"]:
            message = _("Colocation fee covers power and cooling.")
        else:
            message = warning if row["status"] == "warning" else ""
        hidden.append(
            {
                "label": label,
                "amount": money(row["amount"]),
                "status": row["status"],
                "message": message,
            }
        )
    procurement = run.scenario.procurement
    sizing = sizing_plan(procurement=procurement)
    sensitivity = [
        {
            "label": category_label(r["parameter"], lang),
            "metric": category_label(r["metric"], lang),
            "low": money(r["low_value"]),
            "base": money(r["base_value"]),
            "high": money(r["high_value"]),
            "swing_pct": r["swing_pct"],
        }
        for r in analysis["sensitivity"]
    ]
    return {
        "run": run,
        "procurement": procurement,
        "organisation": procurement.organisation,
        "scenario": run.scenario,
        "currency": currency,
        "horizon_years": result["horizon_years"],
        "gpu_count": inputs["gpu_count"],
        "summary": {
            "total": money(result["total_cost"]),
            "npv": money(result["npv_cost"]),
            "capex": money(result["capex_total"]),
            "per_gpu_hour": money(result["cost_per_gpu_hour"], 2),
            "useful_gpu_hours": money(result["useful_gpu_hours"]),
            "energy_mwh_per_year": money(result["energy_mwh_per_year"], 1),
            "p10": money(mc["total_cost"]["p10"]),
            "p50": money(mc["total_cost"]["p50"]),
            "p90": money(mc["total_cost"]["p90"]),
            "npv_p10": money(mc["npv_cost"]["p10"]),
            "npv_p90": money(mc["npv_cost"]["p90"]),
            "draws": mc["draws"],
        },
        "options": options,
        "assumptions": assumptions,
        "capex_lines": capex_lines,
        "capex_total": money(result["capex_total"]),
        "year_columns": [category_label(c, lang) for c in shown],
        "years": years,
        "year_totals": totals_row,
        "year_total": money(result["total_cost"]),
        "year_npv": money(result["npv_cost"]),
        "hidden_costs": hidden,
        "hidden_warnings": sum(1 for h in hidden if h["status"] == "warning"),
        "sensitivity": sensitivity,
        "sizing": sizing,
        "conventions": _conventions(analysis, lang),
        "engine_version": analysis["engine_version"],
    }


# --- PDF ----------------------------------------------------------------------------

_font_config_lock = threading.Lock()
_font_config = None


def _font_configuration():
    """One FontConfiguration per process: WeasyPrint caches fonts it has loaded."""
    global _font_config
    with _font_config_lock:
        if _font_config is None:
            from weasyprint.text.fonts import FontConfiguration

            _font_config = FontConfiguration()
        return _font_config


def render_report_html(*, run: TcoRun, analysis: dict) -> str:
    lang = run.lang
    with translation.override(lang):
        context = report_context(run=run, analysis=analysis, lang=lang)
        charts = chart_svgs(analysis, lang, text_as_paths=False)
        context.update(
            charts={name: _data_uri(svg) for name, svg in charts.items()},
            font_dir_url=FONT_DIR.as_uri(),
            generated_at=timezone.localtime(),
            lang=lang,
        )
        return render_to_string("tco/report.html", context)


def build_tco_report(*, run: TcoRun, analysis: dict) -> bytes:
    """The run's PDF (A4, in ``run.lang``)."""
    from weasyprint import HTML

    html = render_report_html(run=run, analysis=analysis)
    document = HTML(string=html, base_url=str(FONT_DIR))
    return document.write_pdf(font_config=_font_configuration())
