"""The TCO report: one context for the results page and the PDF, and the PDF itself.

The PDF is HTML (templates/tco/report.html) rendered in the run's language by the
app's one renderer (clusterbuy.pdf: the Noto Sans SC subset, the base stylesheet).
Charts are the engine's hand-written SVGs (tco.engine.charts, < 1 ms each), rendered
once per analysis and language (``chart_svgs`` keeps them in the cache under a digest
of the data they draw) and shared by the results page (inline) and the PDF (as
data: images, whose text WeasyPrint draws with the same @font-face subset, so chart
labels are searchable text in the PDF). Profile and figures: benchmarks/bench_tco_pdf.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from decimal import Decimal

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clusterbuy.engine.numbers import money, number
from clusterbuy.pdf import render_pdf
from sizing.engine.budget import BudgetCheck, check_budget
from sizing.names import accelerator_name

from .engine import (
    CLOUD_OPTIONS,
    CONVENTIONS,
    COST_CATEGORIES,
    OPEX_CATEGORIES,
    conventions,
    default_reason,
    default_source,
)
from .engine import charts as engine_charts
from .engine.currency import convert_money
from .engine.palette import chart_labels
from .labels import (
    CAPEX_LABELS,
    HIDDEN_COST_LABELS,
    INPUT_LABELS,
    OPTION_LABELS,
    format_input,
)
from .models import TcoRun


def category_label(category: str, lang: str) -> str:
    return chart_labels(lang).get(category, category)


#: Part of the cache key of rendered charts: bump it when the drawing changes.
CHARTS_VERSION = 2
CHARTS_CACHE_S = 24 * 3600


def _render_charts(analysis: dict, lang: str) -> dict[str, str]:
    result = analysis["result"]
    return {
        "stacked": engine_charts.stacked_bars_svg(result, lang),
        "cumulative": engine_charts.cumulative_svg(result, lang),
        "tornado": engine_charts.tornado_svg(analysis["sensitivity"], lang),
        "histogram": engine_charts.histogram_svg(analysis["monte_carlo"], lang),
    }


def charts_cache_key(analysis: dict, lang: str) -> str:
    """The key of an analysis's charts in ``lang``: a digest of what they draw, so the
    PDF (rendered before the run is saved) and the page share one rendering."""
    drawn = [analysis["result"], analysis["sensitivity"], analysis["monte_carlo"]]
    digest = hashlib.sha256(
        json.dumps(drawn, sort_keys=True, default=str).encode()
    ).hexdigest()[:32]
    return f"tco-charts-v{CHARTS_VERSION}-{lang}-{digest}"


def chart_svgs(analysis: dict, lang: str) -> dict[str, str]:
    """The four charts of an analysis as SVG markup (the same for the page and the
    PDF), rendered once per analysis and language."""
    key = charts_cache_key(analysis, lang)
    charts = cache.get(key)
    if charts is None:
        charts = _render_charts(analysis, lang)
        cache.set(key, charts, CHARTS_CACHE_S)
    return charts


def _conventions(analysis: dict, lang: str) -> list[str]:
    """The run's conventions in ``lang``; a run of another engine keeps its own text."""
    stored = analysis["conventions"]
    texts = conventions(lang) if stored == CONVENTIONS else stored
    return [name_keys(text) for text in texts]


def name_keys(text: str) -> str:
    """``text`` with each input or category key it cites by its shown name, in the
    active language ("按 fx_usd_cny 折算" -> "按 “汇率（人民币/美元）” 折算")."""
    text = _KEY.sub(_named_key, text)
    return text.replace("^year", "^" + _("year"))


#: An input or category key inside a convention: snake_case ("fx_usd_cny"), or one of
#: the one-word keys the conventions cite (words like "other" stay prose).
_KEY = re.compile(
    r"(?<![\w.])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|network|storage|pue|utilization)"
    r"(?![\w])"
)


def _named_key(match: re.Match) -> str:
    """The engine writes its conventions with input and category keys; a reader gets
    each by the name the assumptions table gives it (a key it does not name stays)."""
    key = match.group()
    label = INPUT_LABELS.get(key) or CAPEX_LABELS.get(key)
    return f"“{label}”" if label is not None else key


def _assumptions(inputs: dict, lang: str) -> list[dict]:
    """Every scalar input with its value; defaults carry their reason and source."""
    user_fields = set(inputs.get("user_fields") or [])
    return [
        {
            "name": name,
            "label": label,
            "value": format_input(name, inputs[name]),
            "is_default": name not in user_fields,
            "reason": default_reason(name, lang),
            "source": default_source(name, lang),
        }
        for name, label in INPUT_LABELS.items()
        if name != "capex"
    ]


def _capex_lines(inputs: dict) -> list[dict]:
    return [
        {
            "category": CAPEX_LABELS.get(line["category"], line["category"]),
            "description": line["description"],
            "amount": money(line["amount"]),
        }
        for line in inputs.get("capex") or []
    ]


def _year_table(result: dict, lang: str) -> dict:
    """The cost-by-year table: only the categories with a cost in some year."""
    shown = [c for c in COST_CATEGORIES if any(r[c] for r in result["years"])]
    return {
        "year_columns": [category_label(c, lang) for c in shown],
        "years": [
            {
                "year": row["year"],
                "cells": [money(row[c]) for c in shown],
                "total": money(row["total"]),
                "discounted": money(row["discounted_total"]),
            }
            for row in result["years"]
        ],
        "year_totals": [money(result["totals_by_category"][c]) for c in shown],
        "year_total": money(result["total_cost"]),
        "year_npv": money(result["npv_cost"]),
    }


def _option_row(key: str, figures: dict, onprem_total: float) -> dict:
    return {
        "key": key,
        "label": OPTION_LABELS[key],
        "total": money(figures["total"]),
        "npv": money(figures["npv"]),
        "per_gpu_hour": money(figures["per_gpu_hour"], 2),
        "cheaper": onprem_total < figures["total"],
    }


def _options(result: dict, simulation: dict) -> list[dict]:
    """Each cloud option and the hybrid against the on-prem total."""
    onprem_total = result["total_cost"]
    options = []
    for option in CLOUD_OPTIONS:
        row = _option_row(option, result["cloud"][option], onprem_total)
        row["break_even_month"] = result["break_even_month"][option]
        cheaper_share = simulation["prob_onprem_cheaper"][option]
        row["prob_onprem_cheaper_pct"] = round(cheaper_share * 100)
        options.append(row)
    hybrid = _option_row("hybrid", result["hybrid"], onprem_total)
    hybrid.update(break_even_month=None, prob_onprem_cheaper_pct=None)
    options.append(hybrid)
    return options


def _hidden_costs(rows: list[dict]) -> list[dict]:
    """The engine's hidden-cost checks with the UI's (translated) wording."""
    hidden = []
    for row in rows:
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
    return hidden


def _sensitivity(rows: list[dict], lang: str) -> list[dict]:
    return [
        {
            "label": category_label(r["parameter"], lang),
            "metric": category_label(r["metric"], lang),
            "low": money(r["low_value"]),
            "base": money(r["base_value"]),
            "high": money(r["high_value"]),
            "swing_pct": r["swing_pct"],
        }
        for r in rows
    ]


def _summary(result: dict, simulation: dict) -> dict:
    total, npv = simulation["total_cost"], simulation["npv_cost"]
    return {
        "total": money(result["total_cost"]),
        "npv": money(result["npv_cost"]),
        "capex": money(result["capex_total"]),
        "per_gpu_hour": money(result["cost_per_gpu_hour"], 2),
        "useful_gpu_hours": money(result["useful_gpu_hours"]),
        "energy_mwh_per_year": money(result["energy_mwh_per_year"], 1),
        "p10": money(total["p10"]),
        "p50": money(total["p50"]),
        "p90": money(total["p90"]),
        "npv_p10": money(npv["p10"]),
        "npv_p90": money(npv["p90"]),
        "draws": simulation["draws"],
    }


#: The cost categories the methodology's formulas add up, named as the charts name them.
FORMULA_CATEGORIES = (*OPEX_CATEGORIES, "residual")


def _formula_terms(lang: str) -> dict[str, str]:
    """The methodology's formulas in the report's language: each term by the name
    the charts and the cost table give it, not by the engine's key."""
    terms = {c: category_label(c, lang) for c in FORMULA_CATEGORIES}
    terms["capex"] = _("Capital expenditure")
    terms["opex"] = _("Operating cost")
    for term, name in (
        ("gpus", "gpu_count"),
        ("load", "load_factor"),
        ("price", "electricity_price_per_kwh"),
        ("utilization", "utilization"),
    ):
        terms[term] = str(INPUT_LABELS[name])
    return terms


def _sizing_shown(plan: dict | None) -> dict:
    """The plan snapshot's figures as shown: the accelerator by its catalogue name,
    storage to a tenth of a TB (a 3.5 TB store is not "4")."""
    plan = plan or {}
    return {
        "accelerator": plan.get("accelerator_name")
        or accelerator_name(plan.get("accelerator")),
        "storage_tb": number(plan.get("storage_tb"), 1),
        "it_power_kw": number(plan.get("it_power_kw"), 1),
    }


def run_budget(run: TcoRun, analysis: dict) -> BudgetCheck | None:
    """The run's nominal on-prem total against the procurement's budget ceiling, in
    the procurement's currency (converted at the run's own fx_usd_cny)."""
    procurement = run.scenario.procurement
    result = analysis["result"]
    total = Decimal(str(result["total_cost"]))
    fx = analysis["inputs"].get("fx_usd_cny")
    amount = convert_money(
        total,
        from_currency=result["currency"],
        to_currency=procurement.currency,
        fx_usd_cny=None if fx is None else Decimal(str(fx)),
    )
    return check_budget(amount, procurement.budget_max, procurement.currency)


def report_context(*, run: TcoRun, analysis: dict, lang: str) -> dict:
    """Everything both the results page and the PDF display, formatted.

    The sizing plan is the run's snapshot (taken when the run was requested), so a
    plan computed later never changes what an earlier run's report says.
    """
    result = analysis["result"]
    inputs = analysis["inputs"]
    simulation = analysis["monte_carlo"]
    hidden = _hidden_costs(analysis["hidden_costs"])
    procurement = run.scenario.procurement
    return {
        "run": run,
        "procurement": procurement,
        "organisation": procurement.organisation,
        "scenario": run.scenario,
        "currency": result["currency"],
        "horizon_years": result["horizon_years"],
        "gpu_count": inputs["gpu_count"],
        "summary": _summary(result, simulation),
        "budget": run_budget(run, analysis),
        "options": _options(result, simulation),
        # Data that must stay on-premises (procurement.data_sensitivity) makes the
        # cloud no alternative: the options are shown for reference, caveated.
        "cloud_excluded": procurement.requires_local_deployment,
        "assumptions": _assumptions(inputs, lang),
        "capex_lines": _capex_lines(inputs),
        "capex_total": money(result["capex_total"]),
        **_year_table(result, lang),
        "hidden_costs": hidden,
        "hidden_warnings": sum(1 for h in hidden if h["status"] == "warning"),
        "sensitivity": _sensitivity(analysis["sensitivity"], lang),
        "sizing": run.sizing_plan,
        "sizing_shown": _sizing_shown(run.sizing_plan),
        "formula_terms": _formula_terms(lang),
        "conventions": _conventions(analysis, lang),
        "engine_version": analysis["engine_version"],
    }


# --- PDF ----------------------------------------------------------------------------


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def render_report_html(*, run: TcoRun, analysis: dict) -> str:
    lang = run.lang
    with translation.override(lang):
        context = report_context(run=run, analysis=analysis, lang=lang)
        context.update(
            # As images: WeasyPrint parses each chart on its own (~15 % less work
            # than cascading the page's CSS over inline SVG nodes).
            charts={k: _data_uri(v) for k, v in chart_svgs(analysis, lang).items()},
            generated_at=timezone.localtime(),
            lang=lang,
        )
        return render_to_string("tco/report.html", context)


def build_tco_report(*, run: TcoRun, analysis: dict) -> bytes:
    """The run's PDF (A4, in ``run.lang``)."""
    return render_pdf(render_report_html(run=run, analysis=analysis))
