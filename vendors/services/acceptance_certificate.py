"""The 验收书 (acceptance certificate): every clause — technical, service, safety —
with its requirement, what was measured and whether it passed, the logs' hashes and
the signature lines.

`certificate_snapshot` freezes it as plain JSON with both languages of every label
(as the decision memo freezes the comparison), when the manager signs; the PDF is
rendered from that snapshot only (`certificate_pdf`, through the one renderer,
clusterbuy.pdf), so it reads the same whatever happens to the bid or the plan
afterwards. Before the signature the same snapshot is made on the fly, marked as a
draft.
"""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from clusterbuy.access import Capability
from clusterbuy.engine.numbers import number
from clusterbuy.pdf import render_pdf
from clusterbuy.services import ServiceError
from sizing.names import accelerator_name

from ..models import AcceptancePlan, AuditAction
from .acceptance import assert_open, require
from .acceptance_outcome import promises_vs_measured
from .acceptance_standing import (
    FAILED,
    INCOMPLETE,
    PASSED,
    Conclusion,
    conclusion_of,
    standings,
)
from .acceptance_texts import shown_text
from .audit import record_audit

# 2: the conclusion (合格 / 不合格 / 未完成) with its failed and untested clauses.
SNAPSHOT_VERSION = 2
LANGUAGES = ("en", "zh-hans")

CLAUSE_TITLES = {
    "dcgm_diag_l3": gettext_lazy("GPU diagnostics (DCGM level 3)"),
    "gpu_stress": gettext_lazy("GPU stress test"),
    "hbm_bandwidth": gettext_lazy("GPU memory (HBM) bandwidth"),
    "nccl_all_reduce_node": gettext_lazy("All-reduce within each node"),
    "nccl_all_to_all_node": gettext_lazy("All-to-all within each node"),
    "hccl_all_reduce_node": gettext_lazy("All-reduce within each node (HCCL)"),
    "ib_write_bw_nic": gettext_lazy("Bandwidth of each NIC"),
    "nccl_all_reduce_fabric": gettext_lazy("All-reduce across the nodes"),
    "nccl_all_to_all_fabric": gettext_lazy("All-to-all across the nodes"),
    "hccl_all_reduce_fabric": gettext_lazy("All-reduce across the nodes (HCCL)"),
    "hpl_node": gettext_lazy("HPL (Linpack) on each node"),
    "fio_read": gettext_lazy("Storage read throughput"),
    "fio_write": gettext_lazy("Storage write throughput"),
    "fio_metadata": gettext_lazy("Storage metadata operations"),
    "workload": gettext_lazy("Workload benchmark"),
    "burn_in": gettext_lazy("Burn-in"),
    "service_response_sev1": gettext_lazy("Response time, severity 1"),
    "service_response_sev2": gettext_lazy("Response time, severity 2"),
    "service_response_sev3": gettext_lazy("Response time, severity 3"),
    "service_onsite": gettext_lazy("On-site arrival"),
    "service_availability": gettext_lazy("Service availability"),
    "service_warranty": gettext_lazy("Warranty"),
    "safety_peak_power": gettext_lazy("Peak power within the stated power"),
    "safety_electrical": gettext_lazy("Electrical safety inspection"),
}
STATUS_LABELS = {
    "pending": gettext_lazy("not tested"),
    "passed": gettext_lazy("passed"),
    "failed": gettext_lazy("failed"),
    "incomplete": gettext_lazy("incomplete"),
}
CATEGORY_LABELS = {
    "technical": gettext_lazy("Technical"),
    "service": gettext_lazy("Service"),
    "safety": gettext_lazy("Safety"),
}
PROMISE_LABELS = {
    "network_gbps_per_gpu": gettext_lazy("Network per GPU"),
    "storage_read_gbs": gettext_lazy("Storage read"),
    "storage_write_gbs": gettext_lazy("Storage write"),
    "delivery": gettext_lazy("Delivery"),
    "promised_tokens_per_s": gettext_lazy("Serving throughput"),
    "promised_training_days": gettext_lazy("Training time"),
}


UNIT_LABELS = {"years": gettext_lazy("years")}
# 验收结论: the words a public buyer's 验收书 uses.
CONCLUSION_LABELS = {
    PASSED: pgettext_lazy("acceptance conclusion", "Accepted"),
    FAILED: pgettext_lazy("acceptance conclusion", "Not accepted"),
    INCOMPLETE: pgettext_lazy("acceptance conclusion", "Incomplete"),
}


def conclusion_label(code: str | None) -> str:
    return str(CONCLUSION_LABELS.get(code or INCOMPLETE, CONCLUSION_LABELS[INCOMPLETE]))


def unit_label(unit: str) -> str:
    """A clause's unit as shown: the words translated, the symbols as they are."""
    label = UNIT_LABELS.get(unit)
    return str(label) if label is not None else unit


def clause_title(key: str) -> str:
    title = CLAUSE_TITLES.get(key)
    return str(title) if title is not None else key.replace("_", " ")


def _both(label_of) -> dict:
    out = {}
    for lang in LANGUAGES:
        with translation.override(lang):
            out[lang] = str(label_of())
    return out


def _user_name(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _clause_entry(row) -> dict:
    c = row.clause
    return {
        "key": c.key,
        "order": c.order,
        "category": c.category,
        "title": _both(lambda: clause_title(c.key)),
        "comparison": c.comparison,
        "required": c.required,
        "derived_required": c.derived_required,
        "unit": c.unit,
        "command": c.command,
        "source": c.source,
        "basis": c.basis,
        "status": row.status,
        "measured": row.measured,
        "verdicts": [
            {
                "node": v.node,
                "measured": v.measured,
                "passed": v.passed,
                "attempt": v.attempt.number,
            }
            for v in row.current
        ],
        "attempts": sorted({v.attempt.number for v in row.history}),
    }


def certificate_snapshot(plan: AcceptancePlan) -> dict:
    """The 验收书's content as JSON, both languages of every label."""
    bid = plan.bid
    procurement = plan.procurement
    rows = standings(plan)
    clauses = [_clause_entry(row) for row in rows]
    found = conclusion_of(rows)
    attempts = [
        {
            "number": a.number,
            "tool": a.tool,
            "tool_version": a.tool_version,
            "filename": a.filename,
            "node": a.node,
            "sha256": a.sha256,
            "size_bytes": a.size_bytes,
            "uploaded_at": timezone.localtime(a.uploaded_at).strftime("%Y-%m-%d %H:%M"),
            "uploaded_by": _user_name(a.uploaded_by),
            "passed": a.passed,
            "note": a.note,
        }
        for a in plan.attempts.select_related("uploaded_by").order_by("number")
    ]
    return {
        "version": SNAPSHOT_VERSION,
        "procurement": {"id": procurement.pk, "name": procurement.name},
        "vendor": bid.vendor.name if bid is not None else "",
        "bid": bid.pk if bid is not None else None,
        "basis": plan.basis,
        "accelerator": accelerator_name(plan.inputs.get("accelerator_key")),
        "gpu_count": plan.inputs.get("gpu_count"),
        "nodes": plan.inputs.get("nodes"),
        "delivered_on": plan.delivered_on.isoformat() if plan.delivered_on else "",
        "clauses": clauses,
        "conclusion": {
            "code": found.code,
            "failed": list(found.failed),
            "untested": list(found.untested),
        },
        "attempts": attempts,
        "promises": [
            {
                "item": p.item,
                "label": _both(lambda p=p: PROMISE_LABELS.get(p.item, p.item)),
                "promised": p.promised,
                "measured": p.measured,
                "unit": p.unit,
                "met": p.met,
                "promised_text": p.promised_text,
                "measured_text": p.measured_text,
            }
            for p in promises_vs_measured(plan)
        ],
        "signed_by": _user_name(plan.signed_by),
        "signed_at": timezone.localtime(plan.signed_at).strftime("%Y-%m-%d %H:%M")
        if plan.signed_at
        else "",
    }


def _lang_key() -> str:
    return "zh-hans" if (translation.get_language() or "").startswith("zh") else "en"


def _required_text(clause: dict) -> str:
    if clause["comparison"] == "pass":
        return _("pass")
    if clause["required"] is None:
        return "—"
    required = number(clause["required"], 1)
    return f"{clause['comparison']} {required} {unit_label(clause['unit'])}"


def _measured_text(clause: dict) -> str:
    if clause["measured"] is None:
        return "—"
    if clause["comparison"] == "pass":
        return _("passed") if clause["status"] == "passed" else _("failed")
    return f"{number(clause['measured'], 1)} {unit_label(clause['unit'])}"


def snapshot_conclusion(snapshot: dict) -> Conclusion:
    """The snapshot's conclusion; a version-1 snapshot (before the conclusion was
    frozen) has it read off its clauses' statuses the same way."""
    frozen = snapshot.get("conclusion")
    if frozen:
        return Conclusion(
            frozen["code"], tuple(frozen["failed"]), tuple(frozen["untested"])
        )
    clauses = snapshot["clauses"]
    failed = tuple(c["key"] for c in clauses if c["status"] == "failed")
    untested = tuple(
        c["key"] for c in clauses if c["status"] in ("pending", "incomplete")
    )
    code = FAILED if failed else INCOMPLETE if untested or not clauses else PASSED
    return Conclusion(code, failed, untested)


def certificate_context(snapshot: dict, *, draft: bool) -> dict:
    """What the 验收书 shows, in the active language, from ``snapshot`` alone."""
    lang = _lang_key()
    sections = []
    for category in ("technical", "service", "safety"):
        rows = [
            {
                **c,
                "title_shown": c["title"][lang],
                "source_shown": shown_text(c["source"]),
                "required_shown": _required_text(c),
                "measured_shown": _measured_text(c),
                "status_shown": str(STATUS_LABELS.get(c["status"], c["status"])),
                "nodes_shown": ", ".join(
                    f"{v['node'] or '—'} {number(v['measured'], 1)}"
                    for v in c["verdicts"]
                    if v["node"]
                ),
            }
            for c in snapshot["clauses"]
            if c["category"] == category
        ]
        if rows:
            sections.append({"title": str(CATEGORY_LABELS[category]), "clauses": rows})
    promises = [
        {
            **p,
            "label_shown": p["label"][lang],
            "promised_shown": p["promised_text"]
            or f"{number(p['promised'], 1)} {p['unit']}",
            "measured_shown": p["measured_text"]
            or (
                "—"
                if p["measured"] is None
                else f"{number(p['measured'], 1)} {p['unit']}"
            ),
        }
        for p in snapshot["promises"]
    ]
    conclusion = snapshot_conclusion(snapshot)
    titles = {c["key"]: c["title"][lang] for c in snapshot["clauses"]}
    return {
        "snap": snapshot,
        "sections": sections,
        "promises": promises,
        "all_passed": conclusion.accepted,
        "conclusion": conclusion.code,
        "conclusion_shown": conclusion_label(conclusion.code),
        "failed_shown": "、".join(titles.get(k, k) for k in conclusion.failed)
        if lang == "zh-hans"
        else ", ".join(titles.get(k, k) for k in conclusion.failed),
        "untested_shown": "、".join(titles.get(k, k) for k in conclusion.untested)
        if lang == "zh-hans"
        else ", ".join(titles.get(k, k) for k in conclusion.untested),
        "draft": draft,
        "lang": "zh-Hans" if lang == "zh-hans" else "en",
    }


def certificate_pdf(plan: AcceptancePlan) -> bytes:
    """The 验收书 in the active language: from the frozen snapshot once signed, else
    a draft from the plan as it stands."""
    if plan.signed and plan.snapshot:
        context = certificate_context(plan.snapshot, draft=False)
    else:
        context = certificate_context(certificate_snapshot(plan), draft=True)
    return render_pdf(render_to_string("vendors/acceptance_certificate.html", context))


def certificate_filename(plan: AcceptancePlan) -> str:
    lang = "zh" if _lang_key() == "zh-hans" else "en"
    return f"acceptance-{plan.procurement_id}-{lang}.pdf"


def _titles(keys) -> str:
    return ", ".join(clause_title(k) for k in keys) or "—"


def _check_stated(stated: str | None, found: Conclusion) -> None:
    """The conclusion the manager signs must be the record's: 合格 only with every
    clause passed; a stale page (a result recorded since) is refused too."""
    if not stated or stated == found.code:
        return
    if stated == PASSED:
        raise ServiceError(
            _(
                "An accepted (合格) certificate needs every clause passed. Failed: "
                "%(failed)s. Not tested: %(untested)s."
            )
            % {"failed": _titles(found.failed), "untested": _titles(found.untested)},
            field="conclusion",
        )
    raise ServiceError(
        _("The record's conclusion is %(actual)s, not %(stated)s: reload the page.")
        % {"actual": conclusion_label(found.code), "stated": conclusion_label(stated)},
        field="conclusion",
    )


@transaction.atomic
def sign_acceptance(
    *, plan: AcceptancePlan, user, conclusion: str | None = None
) -> AcceptancePlan:
    """The manager signs the 验收书: its content as it stands is frozen into the
    plan's snapshot, with its conclusion — 合格 (every clause passed), 不合格 (a
    clause failed) or 未完成 (clauses not tested) — from which the PDF is rendered
    ever after; the record is closed. A signed 不合格 or 未完成 record documents
    the acceptance; it does not accept the cluster. ``conclusion``, when given, is
    the one the manager saw and must be the record's (合格 needs every clause
    passed)."""
    require(
        user,
        Capability.SIGN_ACCEPTANCE,
        _("Only a manager can sign the acceptance certificate."),
    )
    AcceptancePlan.objects.select_for_update().filter(pk=plan.pk).first()
    plan.refresh_from_db()
    assert_open(plan)
    if not plan.attempts.exists():
        raise ServiceError(_("No result is recorded yet: there is nothing to sign."))
    _check_stated(conclusion, conclusion_of(standings(plan)))
    plan.signed_by = user
    plan.signed_at = timezone.now()
    plan.snapshot = snapshot = certificate_snapshot(plan)
    plan.save(update_fields=["signed_by", "signed_at", "snapshot"])
    record_audit(
        procurement=plan.procurement,
        actor=user,
        action=AuditAction.ACCEPTANCE,
        target="signed",
        old=None,
        new={
            "signed_at": plan.signed_at.isoformat(),
            "conclusion": snapshot["conclusion"]["code"],
        },
    )
    return plan
