"""The decision's frozen record and its memo.

`comparison_snapshot` freezes the comparison as the decider saw it (columns with their
totals, flags, compliance, scores and ranks; the weights; the requirement and the
plan) into plain JSON, with both languages of every sentence the pure modules write,
so that the memo reads the same whatever happens to the bids afterwards.
`decision_memo_pdf` renders the memo (in the request's language, through the one PDF
renderer, clusterbuy.pdf) from that snapshot only.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from clusterbuy.engine.numbers import money, number
from clusterbuy.models import DeploymentSite
from clusterbuy.pdf import render_pdf
from sizing.engine.budget import check_budget
from sizing.models import Workload, WorkloadKind
from sizing.names import accelerator_name, fabric_name, model_name, precision_name
from tco.labels import breakdown_rows

from ..comparison import Comparison, pitfall_label, status_label
from ..comparison.labels import (
    category_label,
    compliance_label,
    current_language,
    shown_value,
)
from ..comparison.pitfall_texts import fact_json, fact_text
from ..models import ChecklistSection, Decision
from ..models.checklist_default import section_title
from .decision_memo_tender import tender_memo, tender_snapshot
from .decision_override import check_text

SNAPSHOT_VERSION = 1
LANGUAGES = ("en", "zh-hans")
_PLAN_FIELDS = (
    "accelerator",
    "accelerator_name",
    "gpu_count",
    "nodes",
    "fabric",
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "it_power_kw",
    "cooling",
    "ecosystem",
)
_WORKLOAD_FIELDS = (
    "name",
    "kind",
    "model_name",
    "model_preset",
    "precision",
    "tokens_b",
    "target_days",
    "concurrent_requests",
    "tokens_per_second",
    "ttft_ms",
    "tpot_ms",
)


def jsonable(value: Any) -> Any:
    """``value`` as JSON: Decimals as strings (exact), dataclasses as dicts."""
    if isinstance(value, Decimal):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, float | int | str | bool) or value is None:
        return value
    return str(value)


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _column(column) -> dict:
    bid = column.bid
    entry = {
        "bid": bid.pk,
        "label": column.label,
        "vendor": column.vendor,
        "accelerator": bid.accelerator,
        "bid_version": bid.version,
        "gpu_count": bid.checked("gpu_count"),
        "quoted_total": _money(column.quoted_total),
        "normalized_tco": _money(column.normalized_tco),
        "hidden_costs": jsonable(column.hidden_costs),
        "compliance": [
            {
                "item": i.item,
                "status": str(i.status),
                "required": jsonable(i.required),
                "offered": jsonable(i.offered),
                "unit": i.unit,
                "note_en": i.note_for("en"),
                "note_zh": i.note_for("zh"),
            }
            for i in column.compliance
        ],
        "pitfalls": [
            {
                "code": str(p.code),
                "reason_en": p.reason("en"),
                "reason_zh": p.reason("zh"),
                "evidence": list(p.evidence),
                "facts": [fact_json(f) for f in p.facts],
            }
            for p in column.pitfalls
        ],
        "sections": jsonable(column.sections),
        "automatic": {
            code: {"points": auto.points, "counted": code not in column.criteria}
            for code, auto in column.automatic.items()
        },
        "technical_100": column.technical_100,
        "price_100": column.price_100,
        "weighted_total": column.weighted_total,
        "rank": column.rank,
        "excluded": column.excluded,
        "complete": column.scores_complete,
        "unscored_sections": list(column.unscored_sections),
        "partial_sections": list(column.partial_sections),
        "invalid": sorted(column.invalid),
    }
    breakdown = getattr(column, "tco_breakdown", None)
    if breakdown:
        entry["tco_breakdown"] = jsonable(breakdown)
    return entry


def _sections(result: Comparison) -> list[dict]:
    stored = {
        s.code: s.title
        for s in ChecklistSection.objects.filter(
            template_id=result.settings.template_id
        )
    }
    out = []
    for section in result.sections:
        titles = {}
        for lang in LANGUAGES:
            with translation.override(lang):
                titles[lang] = section_title(
                    section.code, stored.get(section.code, section.title)
                )
        out.append(
            {
                "code": section.code,
                "titles": titles,
                "weight": section.weight,
                "auto_price": section.auto_price,
            }
        )
    return out


def _requirement(result: Comparison) -> dict:
    procurement = result.procurement
    return {
        "name": procurement.name,
        "description": procurement.description,
        "currency": procurement.currency,
        "budget_min": _money(procurement.budget_min),
        "budget_max": _money(procurement.budget_max),
        "horizon_years": procurement.horizon_years,
        "deployment_site": procurement.deployment_site,
        "city": procurement.city,
        "workloads": [
            {name: jsonable(getattr(w, name)) for name in _WORKLOAD_FIELDS}
            for w in Workload.objects.for_procurement(procurement).order_by("id")
        ],
    }


def comparison_snapshot(result: Comparison, *, chosen_bid_id: int) -> dict:
    """The comparison ``result`` (as built for the decider) frozen as JSON."""
    plan = result.plan
    return {
        "version": SNAPSHOT_VERSION,
        "chosen_bid": chosen_bid_id,
        "blind": result.blind,
        "prices_hidden": result.prices_hidden,
        "settings": {
            "blind_grading": result.settings.blind_grading,
            "sealed_envelope": result.settings.sealed_envelope,
            "technical_threshold": result.settings.technical_threshold,
        },
        "requirement": _requirement(result),
        "plan": {k: jsonable(getattr(plan, k)) for k in _PLAN_FIELDS} if plan else None,
        "weights": jsonable(result.weights),
        "sections": _sections(result),
        "columns": [_column(c) for c in result.columns],
        "tender": tender_snapshot(result),
    }


# --- the memo ---------------------------------------------------------------------


def _fmt(value: Any, digits: int = 1) -> str:
    """A snapshot figure as shown: codes named, the number rule of
    clusterbuy.engine.numbers."""
    return number(shown_value(value), digits)


def _breakdown_rows(breakdown: Any) -> list[dict]:
    """A column's ``tco_breakdown`` (CostItem dicts) as rows of (label, amount,
    source) by their shown names (tco.labels.breakdown_rows, as the page and the
    workbook name them); an item of another shape is left out."""
    items = [
        item
        for item in breakdown or []
        if isinstance(item, dict) and {"code", "category", "amount"} <= item.keys()
    ]
    return [
        {"label": row["label"], "amount": money(row["amount"]), "source": row["source"]}
        for row in breakdown_rows(
            [{"source": "", "basis": "", **item} for item in items]
        )
    ]


def _budget_checks(entry: dict, requirement: dict) -> dict:
    """The column's quoted price and normalised TCO against the snapshot's budget
    ceiling (`sizing.engine.budget`): {"quoted", "tco", "over"}; checks None when a
    figure, or the ceiling, is missing."""
    ceiling = requirement.get("budget_max")

    def check(value):
        if value is None or ceiling is None:
            return None
        return check_budget(
            Decimal(value), Decimal(ceiling), requirement.get("currency", "")
        )

    quoted, tco = check(entry.get("quoted_total")), check(entry.get("normalized_tco"))
    return {
        "quoted": quoted,
        "tco": tco,
        "over": any(c is not None and c.over for c in (quoted, tco)),
    }


def _memo_column(entry: dict, zh: bool, sections: list[dict]) -> dict:
    statuses = [c["status"] for c in entry["compliance"]]
    titles = {s["code"]: s["titles"]["zh-hans" if zh else "en"] for s in sections}
    return {
        **entry,
        "gpu": f"{accelerator_name(entry['accelerator'])} × {_fmt(entry['gpu_count'])}",
        "quoted": money(entry["quoted_total"]),
        "tco": money(entry["normalized_tco"]),
        "total": _fmt(entry["weighted_total"]),
        "technical": _fmt(entry["technical_100"]),
        "price": _fmt(entry["price_100"]),
        "passed": statuses.count("pass"),
        "warned": statuses.count("warn"),
        "failed": statuses.count("fail"),
        "flags": [
            {
                "label": pitfall_label(p["code"]),
                "reason": p["reason_zh"] if zh else p["reason_en"],
                "facts": [fact_text(f) for f in p.get("facts", ())],
                "evidence": p["evidence"],
            }
            for p in entry["pitfalls"]
        ],
        "section_points": [_fmt(entry["sections"].get(s["code"]), 2) for s in sections],
        "unscored": [titles.get(code, code) for code in entry["unscored_sections"]],
        "hidden": [
            {"label": category_label(h["category"]), "amount": money(h["amount"])}
            for h in entry["hidden_costs"]
        ],
        "breakdown": _breakdown_rows(entry.get("tco_breakdown")),
    }


def _compliance_rows(columns: list[dict], zh: bool) -> list[dict]:
    items = list(dict.fromkeys(c["item"] for col in columns for c in col["compliance"]))
    rows = []
    for item in items:
        cells = []
        for col in columns:
            found = next((c for c in col["compliance"] if c["item"] == item), None)
            if found is None:
                cells.append({"text": "—", "status": ""})
                continue
            text = (
                f"{_fmt(found['offered'])} / {_fmt(found['required'])} {found['unit']}"
            )
            cells.append(
                {
                    "text": text,
                    "status": found["status"],
                    "status_label": status_label(found["status"]),
                    "note": found["note_zh"] if zh else found["note_en"],
                }
            )
        rows.append({"label": compliance_label(item), "cells": cells})
    return rows


def memo_context(decision: Decision, *, redact=lambda text: text) -> dict:
    """What the memo shows, in the active language, from the snapshot only."""
    snap = decision.snapshot
    zh = current_language().lower().startswith("zh")
    sections = snap["sections"]
    columns = [_memo_column(c, zh, sections) for c in snap["columns"]]
    requirement = dict(snap["requirement"])
    for column in columns:
        column["budget_check"] = _budget_checks(column, requirement)
    chosen = next((c for c in columns if c["bid"] == snap["chosen_bid"]), None)
    requirement["workloads"] = [
        {
            **w,
            "kind_label": _kind_label(w.get("kind")),
            "model_label": model_name(w.get("model_preset"), w.get("model_name")),
            "precision_label": precision_name(w.get("precision")),
        }
        for w in requirement["workloads"]
    ]
    return {
        "snap": snap,
        "requirement": requirement,
        "budget": _budget(requirement),
        "site": _choice_label(DeploymentSite, requirement.get("deployment_site")),
        "plan": _plan(snap["plan"]),
        "section_rows": [
            {
                "title": s["titles"]["zh-hans" if zh else "en"],
                "weight": s["weight"],
                "cells": [c["section_points"][index] for c in columns],
            }
            for index, s in enumerate(sections)
        ],
        "columns": columns,
        "compliance_rows": _compliance_rows(snap["columns"], zh),
        "tender": tender_memo(snap.get("tender"), zh),
        "chosen": chosen,
        "rationale": redact(snap.get("rationale", decision.rationale)),
        "override": _override(snap.get("override"), redact),
        "decided_by": snap.get("decided_by", ""),
        "decided_at": snap.get("decided_at", ""),
        "lang": "zh-Hans" if zh else "en",
    }


def _override(override: dict | None, redact) -> dict | None:
    """The override the decision made, its checks said in the active language."""
    if not override:
        return None
    return {
        "checks": [redact(check_text(c)) for c in override.get("checks", [])],
        "reason": redact(override.get("reason", "")),
    }


def _choice_label(choices, code: str | None) -> str:
    try:
        return str(choices(code).label)
    except ValueError:
        return code or "—"


def _kind_label(kind: str | None) -> str:
    return _choice_label(WorkloadKind, kind)


def _budget(requirement: dict) -> str:
    low, high = requirement.get("budget_min"), requirement.get("budget_max")
    if low is None and high is None:
        return "—"
    return f"{requirement['currency']} {money(low)} – {money(high)}"


def _plan(plan: dict | None) -> dict | None:
    """The plan's figures as shown: names for codes, "—" for what it does not say."""
    if not plan:
        return None
    return {
        "accelerator": plan.get("accelerator_name")
        or accelerator_name(plan.get("accelerator")),
        "gpu_count": _fmt(plan.get("gpu_count")),
        "nodes": _fmt(plan.get("nodes")),
        "fabric": fabric_name(plan.get("fabric")),
        "storage_tb": _fmt(plan.get("storage_tb")),
        "it_power_kw": _fmt(plan.get("it_power_kw")),
        "cooling": _fmt(plan.get("cooling")),
    }


def decision_memo_pdf(decision: Decision, *, redact=lambda text: text) -> bytes:
    """The decision memo as a PDF, in the active language."""
    html = render_to_string(
        "vendors/decision_memo.html", memo_context(decision, redact=redact)
    )
    return render_pdf(html)


def memo_filename(decision: Decision) -> str:
    return f"decision-memo-{decision.procurement_id}.pdf"
