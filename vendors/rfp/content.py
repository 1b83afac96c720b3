"""The RFP pack's content: the requirement, the sizing plan's minimums stated as what
the bid must meet, the questions, the weights when published, the deadline.

`assemble_rfp` is a function of the plain data `facts.rfp_facts` reads (no ORM, no
request), written in the active language; `rfp_content` is the one entry point the
pages, the API, the renderers and the supplier portal call. The minimums are the
figures `vendors.engine.compliance` and `vendors.engine.capability` later hold each bid to, with
the same comparisons (at least, at most, equal), so the RFP asks for what is checked.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from clusterbuy.models import DataSensitivity, DeploymentSite, Region
from sizing.models import Scenario, WorkloadKind
from sizing.services import PlanSummary

from ..comparison.labels import ECOSYSTEM_NAMES, compliance_label, pitfall_label
from ..engine.compliance import requirement_value
from ..models import Cooling
from ..models.checklist_default import criterion_text, section_title
from . import admission
from . import facts as rfp_facts_module
from .questions import HIDDEN_COSTS, PITFALL_QUESTIONS, QUESTIONS

AT_LEAST, AT_MOST, EQUAL = "≥", "≤", "="
FABRIC_NAMES = {"infiniband": "InfiniBand", "roce": "RoCE", "ethernet": "Ethernet"}


def shown_number(value: float | int | None, digits: int = 1) -> str:
    """``value`` rounded to ``digits`` with thousands separators; integers bare."""
    if value is None:
        return "—"
    rounded = round(float(value), digits)
    if rounded == int(rounded):
        return f"{int(rounded):,}"
    return f"{rounded:,.{digits}f}"


def required_number(value: float, comparison: str, digits: int = 1) -> str:
    """A requirement as shown: the figure a bid is held to
    (`vendors.compliance.requirement_value`, rounded toward the plan's side so that
    the plan meets its own minimums)."""
    if comparison in (AT_LEAST, AT_MOST):
        value = requirement_value(value, at_least=comparison == AT_LEAST, digits=digits)
    return shown_number(value, digits)


def _choice(choices, code: str) -> str:
    try:
        return str(choices(code).label)
    except ValueError:
        return code or "—"


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _requirement_facts(data: dict) -> list[dict]:
    p, r, plan = data["procurement"], data["requirement"], data["plan"] or PlanSummary()
    site = _choice(DeploymentSite, p["deployment_site"])
    if p["city"]:
        site = f"{site}, {p['city']}"
    ecosystem = r["preferred_ecosystem"] or plan.ecosystem or ""
    team = _("%(n)s ops engineers") % {"n": p["ops_staff_count"]}
    skills = [name for name, ok in (("Slurm", p["slurm_experience"]),) if ok]
    if p["kubernetes_experience"]:
        skills.append("Kubernetes")
    rows = [
        (_("Business scenario"), _choice(Scenario, r["scenario"])),
        (_("Data volume today"), f"{shown_number(r['data_tb'])} TB"),
        (
            _("Data and demand growth per year"),
            f"{shown_number(r['growth_per_year'])} %",
        ),
        (_("Deployment site (where the data lives)"), site),
        (_("Data sensitivity"), _choice(DataSensitivity, p["data_sensitivity"])),
        (_("Where the hardware is bought"), _choice(Region, p["region"])),
        (_("Planning horizon"), _("%(n)s years") % {"n": p["horizon_years"]}),
        (
            _("Rack power limit"),
            f"{shown_number(r['rack_power_limit_kw'])} kW"
            if r["rack_power_limit_kw"]
            else _("not limited"),
        ),
        (_("Liquid cooling possible on site"), _yes_no(r["liquid_cooling_ok"])),
        (
            _("Software ecosystem"),
            ECOSYSTEM_NAMES.get(ecosystem, ecosystem) or _("any"),
        ),
        (_("Our team"), " · ".join([team, *skills])),
    ]
    return [{"label": label, "value": value} for label, value in rows]


def _workload_targets(w: dict) -> str:
    parts = []
    if w["kind"] in (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING):
        if w["tokens_b"] is not None:
            parts.append(_("%(n)s B tokens") % {"n": shown_number(w["tokens_b"])})
        if w["target_days"] is not None:
            parts.append(_("within %(n)s days") % {"n": shown_number(w["target_days"])})
    else:
        if w["concurrent_requests"] is not None:
            parts.append(
                _("%(n)s concurrent requests")
                % {"n": shown_number(w["concurrent_requests"])}
            )
        if w["ttft_ms"] is not None:
            parts.append(f"TTFT ≤ {shown_number(w['ttft_ms'])} ms")
        if w["tpot_ms"] is not None:
            parts.append(f"TPOT ≤ {shown_number(w['tpot_ms'])} ms")
    if w["seq_len"]:
        parts.append(_("context %(n)s tokens") % {"n": shown_number(w["seq_len"])})
    separator = "，" if (get_language() or "").startswith("zh") else ", "
    return separator.join(parts) or "—"


def _workloads(data: dict) -> list[dict]:
    return [
        {
            "name": w["name"],
            "kind": w["kind"],
            "kind_label": _choice(WorkloadKind, w["kind"]),
            "model": w["model"],
            "precision": (w["precision"] or "").upper() or "—",
            "targets": _workload_targets(w),
        }
        for w in data["workloads"]
    ]


def _row(code, comparison, value, unit, basis, *, label=None, shown=None) -> dict:
    if shown is None:
        shown = (
            required_number(value, comparison)
            if isinstance(value, int | float)
            else value
        )
    prefix = "" if comparison == EQUAL else comparison
    if isinstance(value, float) and comparison in (AT_LEAST, AT_MOST):
        # the figure stated is the figure judged (one rounding rule)
        value = requirement_value(value, at_least=comparison == AT_LEAST)
    return {
        "code": code,
        "label": label or compliance_label(code),
        "comparison": comparison,
        "value": round(value, 4) if isinstance(value, float) else value,
        "unit": unit,
        "shown": f"{prefix} {shown} {unit}".strip(),
        "basis": basis,
    }


def _workload_minimums(delivery: dict) -> list[dict]:
    rows = []
    for w in delivery.get("workloads") or []:
        if w["kind"] in (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING):
            days = w.get("target_days") or w.get("plan_training_days")
            if days:
                rows.append(
                    _row(
                        "training_days",
                        AT_MOST,
                        float(days),
                        _("days"),
                        _(
                            "Training time of this workload on the offered cluster, "
                            "at a utilisation you can evidence (the plan: %(days)s "
                            "days)."
                        )
                        % {"days": shown_number(w.get("plan_training_days"))},
                        label=_("Training time: %(name)s") % {"name": w["name"]},
                    )
                )
        elif w.get("required_concurrent_requests"):
            rows.append(
                _row(
                    "serving",
                    AT_LEAST,
                    int(w["required_concurrent_requests"]),
                    _("concurrent requests"),
                    _(
                        "Served within the latency targets TTFT %(ttft)s ms, "
                        "TPOT %(tpot)s ms."
                    )
                    % {
                        "ttft": shown_number(w.get("ttft_target_ms")),
                        "tpot": shown_number(w.get("tpot_target_ms")),
                    },
                    label=_("Serving capacity: %(name)s") % {"name": w["name"]},
                )
            )
    return rows


def _infrastructure_rows(plan: PlanSummary, r: dict) -> list[dict]:
    """Memory, scale-up, network, storage and power: the figures
    `vendors.engine.compliance.check_compliance` holds a bid to."""
    fabric = plan.fabric or ""
    rows = []
    figures = (
        (
            "vram_gb_per_gpu",
            AT_LEAST,
            "GB",
            _("Memory per GPU of the planned %(accelerator)s.")
            % {"accelerator": plan.accelerator_name},
        ),
        (
            "scaleup_domain_gpus",
            AT_LEAST,
            "GPU",
            _("GPUs in one high-speed (NVLink-class) domain the plan's layout uses."),
        ),
        (
            "network_gbps_per_gpu",
            AT_LEAST,
            "Gb/s",
            _("Scale-out bandwidth per GPU, per direction (%(fabric)s fabric).")
            % {"fabric": FABRIC_NAMES.get(fabric, fabric or "—")},
        ),
        (
            "storage_tb",
            AT_LEAST,
            "TB",
            _(
                "Data (%(data)s TB today, %(growth)s per cent growth a year) and "
                "checkpoints over the horizon."
            )
            % {
                "data": shown_number(r["data_tb"]),
                "growth": shown_number(r["growth_per_year"]),
            },
        ),
        (
            "storage_read_gbs",
            AT_LEAST,
            "GB/s",
            _("Aggregate read that keeps every GPU fed with data."),
        ),
        (
            "storage_write_gbs",
            AT_LEAST,
            "GB/s",
            _("Checkpoint write rate that keeps the training stall short."),
        ),
        (
            "it_power_kw",
            AT_MOST,
            "kW",
            _(
                "IT power the site is planned for: server maximum power, not GPU TDP "
                "× count."
            ),
        ),
    )
    for code, comparison, unit, basis in figures:
        if getattr(plan, code) is not None:
            rows.append(_row(code, comparison, float(getattr(plan, code)), unit, basis))
    return rows


def _platform_rows(plan: PlanSummary, r: dict) -> list[dict]:
    """Cooling and software ecosystem: equal to the plan's, not more or less."""
    rows = []
    if plan.cooling:
        rows.append(
            _row(
                "cooling",
                EQUAL,
                _choice(Cooling, plan.cooling),
                "",
                _("Cooling of the planned platform; liquid cooling on site: %(ok)s.")
                % {"ok": _yes_no(r["liquid_cooling_ok"])},
            )
        )
    if plan.ecosystem:
        rows.append(
            _row(
                "ecosystem",
                EQUAL,
                ECOSYSTEM_NAMES.get(plan.ecosystem, plan.ecosystem),
                "",
                _("The workloads' software stack runs without porting."),
            )
        )
    return rows


def _minimums(data: dict) -> list[dict]:
    """The plan's figures as requirements, in `vendors.engine.compliance`'s order."""
    plan, delivery, r = data["plan"], data["delivery"] or {}, data["requirement"]
    offer = f"{plan.gpu_count} × {plan.accelerator_name}"
    precision = (delivery.get("precision") or "bf16").upper()
    workload_count = len(delivery.get("workloads") or data["workloads"])
    rows = []
    if delivery.get("compute_pflops"):
        rows.append(
            _row(
                "compute",
                AT_LEAST,
                delivery["compute_pflops"],
                "PFLOPS",
                _(
                    "%(offer)s at dense %(precision)s peak, the compute the plan sized; "
                    "judged by what the offered GPUs deliver, not by their count."
                )
                % {"offer": offer, "precision": precision},
            )
        )
    rows.extend(_workload_minimums(delivery))
    if workload_count:
        rows.append(
            _row(
                "memory_fit",
                EQUAL,
                workload_count,
                "",
                _(
                    "Every planned workload fits in the offered GPUs' memory with a "
                    "valid parallel layout."
                ),
                shown=ngettext(
                    "the %(n)s planned workload",
                    "all %(n)s planned workloads",
                    workload_count,
                )
                % {"n": workload_count},
            )
        )
    rows.extend(_infrastructure_rows(plan, r))
    rows.extend(_platform_rows(plan, r))
    return rows


def plan_minimums(data: dict) -> list[dict]:
    """The plan's minimums from `facts.rfp_facts`'s data in the active language (none
    without a plan): what the pack states and the portal's feedback quotes."""
    return _minimums(data) if data["plan"] is not None else []


def _questions() -> list[dict]:
    return [
        {"section": section, "criterion": criterion, "text": _(text)}
        for section, criterion, text in QUESTIONS
    ]


def _pitfalls() -> list[dict]:
    return [
        {
            "code": code,
            "title": _("Hidden service and software costs")
            if code == HIDDEN_COSTS
            else pitfall_label(code),
            "text": _(text),
        }
        for code, text in PITFALL_QUESTIONS
    ]


def _criteria(sections: list[dict], include_weights: bool) -> list[dict]:
    total = sum(s["weight"] for s in sections) or 1.0
    return [
        {
            "code": s["code"],
            "title": section_title(s["code"], s["title"]),
            "criteria": [criterion_text(c["code"], c["text"]) for c in s["criteria"]],
            "weight_percent": round(100.0 * s["weight"] / total, 1)
            if include_weights
            else None,
        }
        for s in sections
    ]


def _deadline(deadline: datetime | None) -> tuple[str | None, str]:
    if deadline is None:
        return None, _("not set yet")
    local = timezone.localtime(deadline)
    return deadline.isoformat(), local.strftime("%Y-%m-%d %H:%M ") + local.tzname()


def _acceptance(data: dict) -> list[dict]:
    """The acceptance tests the delivered cluster is held to (the contract's
    criteria), in order, each with its threshold, command and source. An RFP
    published before there were any has none."""
    from clusterbuy.engine.numbers import number

    from ..services.acceptance_certificate import (
        CATEGORY_LABELS,
        clause_title,
        unit_label,
    )
    from ..services.acceptance_texts import shown_command, shown_text

    rows = []
    for index, c in enumerate(data.get("acceptance") or [], start=1):
        if c["comparison"] == "pass":
            required = _("pass")
        elif c.get("required") is None:
            required = "—"
        else:
            required = (
                f"{c['comparison']} {number(c['required'], 2)} {unit_label(c['unit'])}"
            )
        rows.append(
            {
                "number": index,
                "title": clause_title(c["key"]),
                "category": str(CATEGORY_LABELS.get(c["category"], c["category"])),
                "required": required,
                "command": str(shown_command(c.get("command", ""))),
                "source": shown_text(c.get("source", "")),
            }
        )
    return rows


def assemble_rfp(data: dict, *, include_weights: bool) -> dict:
    """The pack's content from `facts.rfp_facts`'s data, in the active language."""
    p, settings_row, plan = data["procurement"], data["settings"], data["plan"]
    deadline, deadline_shown = _deadline(settings_row["deadline"])
    return {
        "language": get_language() or "en",
        "title": _("Request for proposal: %(name)s") % {"name": p["name"]},
        "procurement": {
            "id": p["id"],
            "name": p["name"],
            "description": p["description"],
        },
        "deadline": deadline,
        "deadline_shown": deadline_shown,
        "instructions": settings_row["instructions"],
        "two_person_opening": settings_row["two_person_opening"],
        "opening_rule_shown": _(
            "Two administrators: one asks to open, another confirms."
        )
        if settings_row["two_person_opening"]
        else _("One administrator opens."),
        "requirement": _requirement_facts(data),
        "workloads": _workloads(data),
        "plan_available": plan is not None,
        "plan_message": ""
        if plan is not None
        else _(
            "No sizing plan yet: the minimum figures will be stated once the IT lead "
            "has computed the plan. Until then, propose a cluster for the workloads "
            "above and state every figure."
        ),
        "minimums": plan_minimums(data),
        "questions": _questions(),
        "pitfalls": _pitfalls(),
        "weights_published": include_weights,
        "criteria": _criteria(data["sections"], include_weights),
        "acceptance": _acceptance(data),
        **admission.admission_rows(data),
    }


def rfp_content(procurement, *, include_weights: bool | None = None) -> dict:
    """The RFP of ``procurement`` in the active language. ``include_weights`` None:
    as the buyer chose (`RfpSettings.publish_weights`)."""
    data = rfp_facts_module.rfp_facts(procurement)
    if include_weights is None:
        include_weights = bool(data["settings"]["publish_weights"])
    return assemble_rfp(data, include_weights=include_weights)
