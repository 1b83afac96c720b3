"""What the acceptance tab shows, read in one place for the page (and the bid and
vendor pages' promised-vs-measured tables)."""

from __future__ import annotations

from clusterbuy.models import Procurement

from ..visibility import visibility_for
from . import acceptance
from .acceptance_certificate import (
    CATEGORY_LABELS,
    PROMISE_LABELS,
    STATUS_LABELS,
    clause_title,
    conclusion_label,
    snapshot_conclusion,
    unit_label,
)
from .acceptance_outcome import (
    promises_vs_measured,
    sizing_error,
    tco_reforecast,
)
from .acceptance_standing import Conclusion, conclusion_of, standings, stragglers
from .acceptance_texts import shown_command, shown_text


def _rows(plan) -> list[dict]:
    return [
        {
            "clause": row.clause,
            "title": clause_title(row.clause.key),
            "command": shown_command(row.clause.command),
            "source": shown_text(row.clause.source),
            "basis": shown_text(row.clause.basis),
            "unit": unit_label(row.clause.unit),
            "category_label": CATEGORY_LABELS.get(row.clause.category, ""),
            "status": row.status,
            "status_label": STATUS_LABELS.get(row.status, row.status),
            "current": row.current,
            "measured": row.measured,
            "expected": row.expected,
            "tightenable": row.clause.comparison in (">=", "<=")
            and not row.history
            and not plan.signed,
        }
        for row in standings(plan)
    ]


def plan_conclusion(plan) -> Conclusion:
    """The conclusion frozen at the signature, or the one the record has now."""
    if plan.signed and plan.snapshot:
        return snapshot_conclusion(plan.snapshot)
    return conclusion_of(standings(plan))


def conclusion_rows(plan) -> dict:
    found = plan_conclusion(plan)
    return {
        "code": found.code,
        "label": conclusion_label(found.code),
        "failed": [clause_title(k) for k in found.failed],
        "untested": [clause_title(k) for k in found.untested],
    }


def promise_rows(plan) -> list[dict]:
    return [
        {"row": p, "label": PROMISE_LABELS.get(p.item, p.item)}
        for p in promises_vs_measured(plan)
    ]


def acceptance_page_context(*, procurement: Procurement, user) -> dict:
    plan = acceptance.plan_for(procurement)
    shown = visibility_for(procurement=procurement, user=user)
    if plan is None:
        preview = acceptance.preview_clauses(procurement=procurement)
        return {
            "plan": None,
            "clauses": [],
            "preview": [{**row, "title": clause_title(row["key"])} for row in preview],
            "has_decision": acceptance.decided_bid(procurement) is not None,
        }
    vendor = ""
    if plan.bid is not None:
        vendor = shown.label(plan.bid) if shown.blind else plan.bid.vendor.name
    return {
        "plan": plan,
        "vendor": vendor,
        "clauses": list(plan.clauses.all()),
        "rows": _rows(plan),
        "attempts": list(
            plan.attempts.select_related("uploaded_by").order_by("-number")
        ),
        "stragglers": stragglers(plan),
        "conclusion": conclusion_rows(plan),
        "promises": promise_rows(plan),
        "reforecast": None if shown.prices_hidden else tco_reforecast(plan),
        "sizing_error": sizing_error(plan),
    }


def promises_for_bid(bid) -> list[dict]:
    """The bid's promises against the acceptance results, when it is the bid the
    procurement's acceptance plan holds to its word ([] otherwise)."""
    plan = acceptance.plan_for(bid.procurement)
    if plan is None or plan.bid_id != bid.pk:
        return []
    return promise_rows(plan)


def vendor_track_record(vendor) -> list[dict]:
    """Each acceptance of a bid this vendor won, newest first, with the promises
    against what was measured: what a future procurement reads on its page."""
    from ..models import AcceptancePlan

    plans = (
        AcceptancePlan.objects.filter(bid__vendor=vendor)
        .select_related("procurement", "bid", "bid__vendor")
        .order_by("-created_at")
    )
    return [
        {"plan": plan, "procurement": plan.procurement, "promises": promise_rows(plan)}
        for plan in plans
    ]
