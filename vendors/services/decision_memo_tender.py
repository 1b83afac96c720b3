"""The tender part of the decision's frozen record: under a statutory regime the memo
shows the regime, the method, the price weight, each invalid bid with its reasons (★
items, budget, 资格审查, …), the ranking the regime produced and whether a 评标报告 was
issued. Frozen at the decision like the rest of the snapshot, with the sentences in
both languages (the review is said again in each: its reasons are the review's own
texts), so the memo reads the same whatever changes afterwards."""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..comparison import Comparison
from ..comparison.tender import review_columns
from ..engine.regimes import Method, Regime
from ..models import EvaluationReport

LANGUAGES = ("en", "zh-hans")


def _reasons(reason: dict) -> str:
    citation = reason.get("citation") or ""
    return reason["message"] + (f" ({citation})" if citation else "")


def _texts(result: Comparison) -> dict:
    """The review's sentences in the active language."""
    review = result.tender
    row = review.settings_row
    shown = review_columns(
        result.columns,
        row,
        budget_cny=review.budget_cny,
        horizon_years=review.horizon_years,
        prices_hidden=review.prices_hidden,
    )
    return {
        "regime": str(row.get_regime_display()),
        "method": str(row.get_method_display()),
        "reasons": {
            str(b.bid_id): [_reasons(r) for r in b.reasons] for b in shown.bids
        },
        "viability": (shown.viability or {}).get("message", ""),
        "viability_citation": (shown.viability or {}).get("citation", ""),
    }


def _report(procurement) -> dict | None:
    report = EvaluationReport.objects.filter(procurement=procurement).first()
    if report is None:
        return None
    by = report.issued_by
    return {
        "issued_at": timezone.localtime(report.issued_at).strftime("%Y-%m-%d %H:%M"),
        "issued_by": (by.get_full_name() or by.get_username()) if by else "",
    }


def tender_snapshot(result: Comparison) -> dict | None:
    """The tender block of the snapshot; None under the commercial regime or before
    tender settings are stored."""
    review = result.tender
    if review is None or review.settings_row is None:
        return None
    if review.regime == Regime.COMMERCIAL:
        return None
    texts = {}
    for language in LANGUAGES:
        with translation.override(language):
            texts[language] = _texts(result)
    return {
        "regime": review.regime,
        "method": review.method,
        "price_weight_pct": str(review.price_weight_pct),
        "prices_hidden": review.prices_hidden,
        "technical_source": review.technical_source,
        "viable": review.viable,
        "bids": [
            {
                "bid": b.bid_id,
                "label": b.label,
                "valid": b.valid,
                "rank": b.rank,
                "candidate": b.candidate,
                "total": None if b.total is None else str(b.total),
                "evaluated_cny": None
                if b.evaluated_cny is None
                else str(b.evaluated_cny),
                "price_points": None if b.price_points is None else str(b.price_points),
            }
            for b in review.bids
        ],
        "texts": texts,
        "report": _report(result.procurement),
    }


def tender_memo(block: dict | None, zh: bool) -> dict | None:
    """What the memo prints of the tender block, in the active language."""
    from clusterbuy.engine.numbers import money, number

    if not block:
        return None
    texts = block["texts"]["zh-hans" if zh else "en"]
    lowest = block["method"] == Method.LOWEST_PRICE
    ranked = sorted(
        (b for b in block["bids"] if b["valid"] and b["rank"] is not None),
        key=lambda b: (b["rank"], b["label"]),
    )
    report = block.get("report")
    return {
        "regime": texts["regime"],
        "method": texts["method"],
        "lowest_price": lowest,
        "price_weight": number(block["price_weight_pct"], 2),
        "invalid": [
            {"label": b["label"], "reasons": texts["reasons"].get(str(b["bid"]), [])}
            for b in block["bids"]
            if not b["valid"]
        ],
        "ranking": [
            {
                "rank": b["rank"],
                "label": b["label"],
                "candidate": b["candidate"],
                "total": number(b["total"], 2),
                "evaluated": money(b["evaluated_cny"], 2),
                "price_points": number(b["price_points"], 2),
            }
            for b in ranked
        ],
        "viability": texts["viability"],
        "viability_citation": texts["viability_citation"],
        "report": _("The evaluation report was issued on %(at)s by %(by)s.")
        % {"at": report["issued_at"], "by": report["issued_by"]}
        if report
        else _("No evaluation report had been issued when the decision was recorded."),
        "report_issued": bool(report),
    }
