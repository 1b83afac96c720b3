"""Instant feedback on a vendor's submission, as the comparison will later judge the bid.

Three kinds, each kept in ``Submission.feedback`` as plain JSON (codes, parameters and,
where the pure modules write prose, its English and Chinese pair) so a version's
feedback reads the same in either language long after it was given:

- ``import_errors``: the workbook's row errors (`vendors.engine.importing.RowError`), said
  as the buyer's own import says them (`vendors.services.import_errors`);
- ``spec_claims``: `vendors.engine.spec_claims` on the submission's text fields and proposal
  against the catalog row of the offered accelerator, the comparison's own check
  (`vendors.comparison.claims`);
- ``missing``: figures the RFP asks for that are not stated, no line items, no
  proposal, and the pack's minimums not met (`vendors.rfp.content.plan_minimums`,
  judged by `vendors.comparison.checks.compliance_for` with what the offer delivers,
  `vendors.comparison.delivered`, on the same plan figures), each worded with the
  pack's label and stated requirement, judged on an unsaved `Bid` built from the
  fields: nothing here writes a bid.

``complete`` is False when the workbook could not be imported: the version is stored
(so the vendor sees why) but has no line items.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clusterbuy.engine.numbers import figure
from clusterbuy.models import Procurement

from ..comparison import checks, delivered
from ..comparison.claims import CLAIM_LABELS, CLAIM_STATUS_LABELS, DATASHEET_FIELDS
from ..comparison.labels import compliance_label, status_label
from ..engine.compliance import ComplianceStatus
from ..engine.fields import BID_FIELDS
from ..engine.importing import RowError
from ..engine.spec_claims import (
    BidSpec,
    ClaimStatus,
    check_spec_claims,
    datasheet_from_row,
)
from ..models import Bid
from ..rfp.content import plan_minimums
from ..rfp.facts import rfp_facts
from ..services import plan_facts
from ..services.import_errors import row_error_sentence

#: The figures an RFP answer is expected to state (the plan's minimums are judged on
#: them, the checklist asks for the terms); the bid form requires only accelerator,
#: GPU count and scheduler.
RFP_EXPECTED_FIELDS = (
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "storage_write_gbs",
    "peak_power_kw",
    "cooling",
    "delivery_weeks",
    "warranty_years",
    "response_hours",
)


def unsaved_bid(procurement: Procurement, values: dict) -> Bid:
    """The submission as a bid the checks can read; never saved."""
    return Bid(
        procurement=procurement,
        **{k: v for k, v in values.items() if k in BID_FIELDS},
    )


def build_feedback(
    *,
    procurement: Procurement,
    values: dict,
    line_items: list[dict],
    row_errors: list[RowError],
) -> dict:
    """The feedback of one submission (``values``: the validated bid fields, proposal
    text included, as Python values)."""
    bid = unsaved_bid(procurement, values)
    rfp = rfp_facts(procurement)
    accelerators = plan_facts.accelerators_by_key(
        [rfp["plan"].accelerator if rfp["plan"] else "", bid.accelerator]
    )
    return {
        "complete": not row_errors,
        "import_errors": [_row_error(e) for e in row_errors],
        "spec_claims": _spec_claims(bid, accelerators.get(bid.accelerator)),
        "missing": [
            *_missing(values, line_items, row_errors),
            *_plan_minimums(procurement, rfp, bid, accelerators),
        ],
    }


def _row_error(error: RowError) -> dict:
    return {
        "row": error.row,
        "column": error.column,
        "code": error.code,
        "params": {k: str(v) for k, v in error.params.items()},
        "message": error.message,
    }


def _spec_claims(bid: Bid, accelerator) -> list[dict]:
    sheet = None
    if accelerator is not None:
        sheet = datasheet_from_row(
            {name: getattr(accelerator, name, None) for name in DATASHEET_FIELDS}
        )
    spec = BidSpec(
        proposal_text=bid.proposal_text or "",
        server_model=bid.server_model or "",
        scaleup_link=bid.scaleup_link or "",
        network_fabric=bid.network_fabric or "",
        gpu_count=bid.gpu_count,
        nodes=bid.nodes,
        peak_power_kw=bid.peak_power_kw,
    )
    return [
        {
            "kind": str(claim.kind),
            "claim": claim.claim,
            "claimed": list(claim.claimed),
            "datasheet": list(claim.datasheet),
            "status": str(claim.status),
            "source": claim.source,
            "note": list(claim.note),
        }
        for claim in check_spec_claims(spec, sheet)
    ]


def _missing(values: dict, line_items: list[dict], row_errors: list) -> list[dict]:
    found = [
        {"code": "field_missing", "field": name}
        for name in RFP_EXPECTED_FIELDS
        if values.get(name) in (None, "", [], {})
    ]
    if not line_items and not row_errors:
        found.append({"code": "no_line_items"})
    if not (values.get("proposal_text") or "").strip():
        found.append({"code": "no_proposal"})
    return found


def _stated_minimums(rfp: dict) -> dict[str, dict]:
    """Per item the pack's row (`vendors.rfp.content.plan_minimums`) as the pack
    states it in English and in Chinese: {code: {"label": [en, zh], "shown": [en,
    zh], "value": ...}}; the first row of a code (per-workload rows repeat one)."""
    rows: dict[str, dict] = {}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            stated = plan_minimums(rfp)
        seen: set[str] = set()
        for row in stated:
            if row["code"] in seen:
                continue
            seen.add(row["code"])
            entry = rows.setdefault(
                row["code"], {"label": [], "shown": [], "value": row["value"]}
            )
            entry["label"].append(row["label"])
            entry["shown"].append(row["shown"])
    return rows


def _plan_minimums(
    procurement: Procurement, rfp: dict, bid: Bid, accelerators: dict
) -> list:
    """The pack's minimums the offer fails, or misses by a stated figure within the
    tolerance, judged by the comparison's own checks (`checks.compliance_for`) on the
    same plan figures the pack states, and worded with the pack's label and stated
    requirement; an item warned only because a figure is not stated is a missing
    field above. No plan: nothing to judge."""
    needs = checks.plan_needs(rfp["plan"])
    if needs is None or not bid.gpu_count:
        return []
    offered = delivered.delivered_by_bid(procurement, [bid], rfp["plan"], accelerators)
    capability = delivered.capability_for(offered.get(bid.pk))
    items = checks.compliance_for(
        bid, accelerators.get(bid.accelerator), needs, capability
    )
    stated = _stated_minimums(rfp)
    return [
        {
            "code": "plan_minimum",
            "item": item.item,
            "status": str(item.status),
            "required": _plain(item.required),
            "offered": _plain(item.offered),
            "unit": item.unit,
            "label": stated.get(item.item, {}).get("label", []),
            "stated": stated.get(item.item, {}).get("shown", []),
            "note": [item.note, item.note_zh],
        }
        for item in items
        if item.status == ComplianceStatus.FAIL
        or (item.status == ComplianceStatus.WARN and item.offered is not None)
    ]


def _plain(value: Any) -> Any:
    return (
        value if value is None or isinstance(value, int | float | str) else str(value)
    )


# --- shown in the reader's language ----------------------------------------------------


def _pick(pair: Any) -> str:
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        return str(pair or "")
    return pair[1] if (get_language() or "").lower().startswith("zh") else pair[0]


def _field_label(name: str) -> str:
    return capfirst(str(Bid._meta.get_field(name).verbose_name))


def import_error_message(entry: dict) -> str:
    error = RowError(
        int(entry.get("row") or 0),
        str(entry.get("column") or ""),
        str(entry.get("message") or ""),
        str(entry.get("code") or ""),
        dict(entry.get("params") or {}),
    )
    return row_error_sentence(error)


def claim_message(entry: dict) -> str:
    line = _("%(label)s: %(claimed)s (datasheet: %(datasheet)s)") % {
        "label": CLAIM_LABELS.get(entry.get("kind"), entry.get("kind")),
        "claimed": _pick(entry.get("claimed")),
        "datasheet": _pick(entry.get("datasheet")),
    }
    note = _pick(entry.get("note"))
    return f"{line} — {note}" if note else line


def missing_message(entry: dict) -> str:
    code = entry.get("code")
    if code == "field_missing":
        return _("Not stated: %(field)s. The RFP asks for it.") % {
            "field": _field_label(entry.get("field", ""))
        }
    if code == "no_line_items":
        return _("No line items: upload the bid template filled in.")
    if code == "no_proposal":
        return _("No proposal text.")
    return _plan_minimum_message(entry)


def _plan_minimum_message(entry: dict) -> str:
    """The pack's label and stated requirement ("≥ 500 TB"), then what the check
    found; feedback kept before the pack's wording was stored: the item's figures."""
    head = _("%(item)s (%(status)s)") % {
        "item": _pick(entry.get("label")) or compliance_label(entry.get("item", "")),
        "status": status_label(entry.get("status", "")),
    }
    stated = _pick(entry.get("stated")) or " ".join(
        filter(None, [figure(entry.get("required")), entry.get("unit", "")])
    )
    note = _pick(entry.get("note"))
    if note:
        return _("%(head)s: the RFP requires %(stated)s; %(note)s") % {
            "head": head,
            "stated": stated,
            "note": note,
        }
    return _("%(head)s: the RFP requires %(stated)s, offered %(offered)s %(unit)s.") % {
        "head": head,
        "stated": stated,
        "offered": figure(entry.get("offered")),
        "unit": entry.get("unit", ""),
    }


def shown_feedback(feedback: dict) -> dict:
    """A version's feedback in the active language: each entry with its ``message``
    (and, for claims, the translated status), mismatches first."""
    claims = sorted(
        feedback.get("spec_claims") or [],
        key=lambda c: c.get("status") != ClaimStatus.MISMATCH,
    )
    return {
        "complete": bool(feedback.get("complete", True)),
        "import_errors": [
            {**e, "message": import_error_message(e)}
            for e in feedback.get("import_errors") or []
        ],
        "spec_claims": [
            {
                "kind": c.get("kind"),
                "claim": c.get("claim"),
                "status": c.get("status"),
                "status_label": str(CLAIM_STATUS_LABELS.get(c.get("status"), "")),
                "source": c.get("source"),
                "message": claim_message(c),
            }
            for c in claims
        ],
        "mismatches": sum(1 for c in claims if c.get("status") == ClaimStatus.MISMATCH),
        "missing": [
            {**m, "message": missing_message(m)} for m in feedback.get("missing") or []
        ],
    }
