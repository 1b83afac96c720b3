"""The 评标报告: the committee's evaluation in the statutory layout, frozen when issued.

`issue_report` builds, in English and in Chinese, everything the report prints
(project and method, criteria and weights, the opening record, the members, the
符合性审查 with each invalid bid's reasons, each member's totals and the committee's
mean, price scores with the policy deductions, the ranking and the recommended
candidates, changes after summation, dissent, collusion signals, signature lines) into
a plain-JSON snapshot, renders both PDFs from it through the one renderer
(clusterbuy.pdf) and stores the bytes: a download is byte-identical whatever is edited
afterwards, like the decision memo's frozen record.

Totals (综合评分法): committee technical mean × (100 − price weight) / 100 + the price
score (87号令 第五十五条: 评标总得分 = F1×A1 + … ; the price score already carries its
weight). The ranking is the engine's (`regimes.rank`) on those totals and the evaluated
prices; 最低评标价法 ranks by evaluated price alone (第五十六条).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.models import Procurement
from clusterbuy.pdf import render_pdf
from clusterbuy.services import ServiceError

from ..engine.regimes import EvaluatedPrice, Method, Regime, rank, rules_for
from ..models import AuditAction, EvaluationReport, RfpSettings, SeatRole
from . import committee_scoring
from .audit import record_audit
from .committee import committee_of, committee_status, member_for, members_of
from .committee_collusion import signals_for
from .tender import tender_settings_for

SNAPSHOT_VERSION = 1
LANGUAGES = ("en", "zh-hans")
CENT = Decimal("0.01")


def _money(value) -> str:
    if value is None:
        return "—"
    return f"{Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP):,}"


def _num(value) -> str:
    if value is None:
        return "—"
    return f"{Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)}"


def _when(value) -> str:
    return "" if value is None else timezone.localtime(value).strftime("%Y-%m-%d %H:%M")


def _criteria(procurement: Procurement, price_weight: Decimal) -> list[dict]:
    criteria, weights = committee_scoring.technical_criteria(procurement)
    total = sum(weights.values(), Decimal(0)) or Decimal(1)
    share = (Decimal(100) - price_weight) / Decimal(100)
    sections: dict[str, dict] = {}
    for c in criteria:
        section = sections.setdefault(
            c.section_code,
            {
                "title": c.section.display_title,
                "weight_pct": _num(weights[c.section_code] / total * 100 * share),
                "criteria": [],
            },
        )
        section["criteria"].append({"text": c.display_text, "weight": _num(c.weight)})
    return list(sections.values())


def _ranking(procurement, review, means) -> dict[int, dict]:
    row = tender_settings_for(procurement=procurement)
    rules = rules_for(row.regime)
    method = Method(row.method)
    weight = Decimal(row.price_weight_pct)
    share = (Decimal(100) - weight) / Decimal(100)
    prices, totals = {}, {}
    for b in review.bids:
        if not b.valid or b.evaluated_cny is None:
            continue
        key = str(b.bid_id)
        evaluated = b.unit_cost_cny if b.unit_cost_cny is not None else b.evaluated_cny
        if rules.regime == Regime.COMMERCIAL and b.unit_cost_cny is None:
            continue
        prices[key] = EvaluatedPrice(key, b.quoted_cny, b.quoted_cny, (), evaluated)
        mean = means.get(b.bid_id)
        if mean is not None:
            totals[key] = mean * share + (b.price_points or Decimal(0))
    valid = [k for k in prices if method == Method.LOWEST_PRICE or k in totals]
    entries = rank(rules, method, totals, prices, valid)
    return {
        int(e.bid_id): {
            "rank": e.rank,
            "candidate": e.candidate,
            "total": _num(totals.get(e.bid_id))
            if method != Method.LOWEST_PRICE
            else "—",
        }
        for e in entries
    }


def _opening(procurement: Procurement, columns) -> dict:
    rfp = RfpSettings.objects.filter(procurement=procurement).first()
    return {
        "opened_at": _when(rfp.opened_at) if rfp else "",
        "bids": [
            {
                "label": c.label,
                "vendor": c.vendor.get("name", c.label),
                "quoted": _money(c.quoted_total),
                "received": _when(c.bid.created_at),
            }
            for c in columns
        ],
    }


def _project(procurement: Procurement, row, user) -> dict:
    return {
        "name": procurement.name,
        "organisation": procurement.organisation.name,
        "budget": _money(procurement.budget_max),
        "ceiling": _money(row.ceiling_cny),
        "currency": procurement.currency,
        "regime": str(row.get_regime_display()),
        "method": str(row.get_method_display()),
        "subject": str(row.get_subject_display()),
        "price_weight": _num(row.price_weight_pct),
        "sme_pct": _num(row.sme_deduction_pct),
        "domestic_pct": _num(row.domestic_deduction_pct),
        "issued_at": _when(timezone.now()),
        "issued_by": user.get_full_name() or user.get_username(),
        "mean_rule": _(
            "Each member scores alone; the technical score of a bid is the "
            "arithmetic mean of the members' totals, to 0.01. The automatic "
            "pre-scores are advice and are not counted."
        ),
    }


def _committee_block(procurement: Procurement, committee, members) -> dict:
    return {
        "status": committee_status(procurement),
        "members": [
            {
                "id": m.pk,
                "name": m.name,
                "seat": str(SeatRole(m.role).label),
                "chair": m.is_chair,
                "submitted": _when(m.submitted_at),
            }
            for m in members
        ],
        "summed_at": _when(committee.summed_at) if committee else "",
    }


def _conformity(review) -> list[dict]:
    return [
        {
            "label": b.label,
            "valid": b.valid,
            "reasons": [
                r["message"] + (f" ({r['citation']})" if r["citation"] else "")
                for r in b.reasons
            ],
            "abnormally_low": b.abnormally_low,
            "justification": _justification(b.justification)
            if b.abnormally_low or b.justification
            else "",
        }
        for b in review.bids
    ]


def _justification(entry: dict | None) -> str:
    """The state of an abnormally low bid's written justification (87号令 第六十条),
    with the committee's reasons once judged."""
    state = (entry or {}).get("state", "needed")
    texts = {
        "needed": _("justification not requested"),
        "requested": _("justification requested, not answered"),
        "answered": _("justification answered, not judged"),
        "justified": _("justification accepted by the committee"),
        "not_justified": _("justification rejected by the committee"),
    }
    text = str(texts.get(state, state))
    note = (entry or {}).get("note") or ""
    return (
        f"{text}: {note}" if note and state in ("justified", "not_justified") else text
    )


def unjudged_low_prices(review) -> list[str]:
    """Labels of the valid bids flagged abnormally low whose justification the
    committee has not judged: the report cannot be issued before (87号令 第六十条)."""
    return [
        b.label
        for b in review.bids
        if b.valid
        and b.abnormally_low
        and (b.justification or {}).get("state") not in ("justified",)
    ]


def _deduction_kind(kind: str) -> str:
    return _("small enterprise") if kind == "sme" else _("domestic product")


def _prices(review) -> list[dict]:
    return [
        {
            "label": b.label,
            "quoted": _money(b.quoted_cny),
            "deductions": [
                {
                    "kind": _deduction_kind(d["kind"]),
                    "pct": _num(d["pct"]),
                    "amount": _money(d["amount_cny"]),
                }
                for d in b.deductions
            ],
            "evaluated": _money(b.evaluated_cny),
            "points": _num(b.price_points),
        }
        for b in review.bids
        if b.valid
    ]


def _changes(procurement: Procurement, labels: dict[int, str]) -> list[dict]:
    return [
        {
            "member": c.score.member.name,
            "bid": labels.get(c.score.bid_id, str(c.score.bid_id)),
            "criterion": c.score.criterion.display_text,
            "old": c.old_points,
            "new": c.new_points,
            "reason": str(c.get_reason_display()),
            "explanation": c.explanation,
            "by": (c.changed_by.get_username() if c.changed_by else ""),
            "at": _when(c.changed_at),
        }
        for c in committee_scoring.changes_of(procurement)
    ]


def report_context(*, procurement: Procurement, user) -> dict:
    """Everything the report prints, in the active language, as plain JSON."""
    from ..comparison import build_comparison

    result = build_comparison(procurement=procurement, user=user)
    review = result.tender
    if review is None:
        raise ServiceError(_("Save the tender settings first."), field="report")
    row = tender_settings_for(procurement=procurement)
    rules = rules_for(row.regime)
    committee = committee_of(procurement)
    members = members_of(committee)
    columns = {c.bid.pk: c for c in result.columns}
    labels = {c.bid.pk: c.label for c in result.columns}
    prices = {c.bid.pk: c.quoted_total for c in result.columns if c.quoted_total}
    valid_ids = [b.bid_id for b in review.bids if b.valid]
    results = committee_scoring.committee_results(procurement, valid_ids)
    means = {b: r["mean"] for b, r in results.items() if r["mean"] is not None}
    ranking = _ranking(procurement, review, means)
    return {
        "version": SNAPSHOT_VERSION,
        "project": _project(procurement, row, user),
        "criteria": _criteria(procurement, Decimal(row.price_weight_pct)),
        "opening": _opening(procurement, result.columns),
        "committee": _committee_block(procurement, committee, members),
        "conformity": _conformity(review),
        "viability": review.viability,
        "scores": [
            {
                "label": labels[b],
                "members": [_num(results[b]["members"].get(m.pk)) for m in members],
                "mean": _num(results[b]["mean"]),
            }
            for b in valid_ids
        ],
        "prices": _prices(review),
        "ranking": sorted(
            (
                {
                    "label": labels[b],
                    "technical": _num(means.get(b)),
                    **ranking[b],
                    "vendor": columns[b].vendor.get("name", labels[b]),
                }
                for b in ranking
            ),
            key=lambda e: (e["rank"], e["label"]),
        ),
        "max_candidates": rules.max_ranked_candidates,
        "candidates_citation": (
            rules.candidates_article.citation if rules.candidates_article else ""
        ),
        "changes": _changes(procurement, labels),
        "change_citation": (
            rules.score_change_article.citation if rules.score_change_article else ""
        ),
        "dissent": [
            {"member": m.name, "text": m.dissent, "at": _when(m.dissent_at)}
            for m in members
            if m.dissent
        ],
        "collusion": signals_for(procurement=procurement, labels=labels, prices=prices),
    }


def _render(context: dict, language: str) -> bytes:
    with translation.override(language):
        html = render_to_string(
            "vendors/evaluation_report.html", {**context, "lang": language}
        )
        return render_pdf(html)


def can_issue(procurement: Procurement, user) -> bool:
    member = member_for(procurement, user)
    return can(user, Capability.CONFIGURE_EVALUATION) or bool(
        member and member.is_chair
    )


@transaction.atomic
def issue_report(*, procurement: Procurement, user) -> EvaluationReport:
    """Freeze the report (both languages) once the committee's marks are summed."""
    if not can_issue(procurement, user):
        raise ServiceError(
            _("The chair or who configures the evaluation issues the report."),
            field="report",
        )
    committee = committee_of(procurement)
    if committee is None or committee.summed_at is None:
        raise ServiceError(
            _("Every member must submit their scores before the report is issued."),
            field="report",
        )
    if EvaluationReport.objects.filter(procurement=procurement).exists():
        raise ServiceError(
            _("The report was issued; it can no longer change."), field="report"
        )
    _require_judged_low_prices(procurement, user)
    snapshot = {}
    for language in LANGUAGES:
        with translation.override(language):
            snapshot[language] = report_context(procurement=procurement, user=user)
    try:
        with transaction.atomic():
            report = EvaluationReport.objects.create(
                procurement=procurement,
                snapshot=snapshot,
                pdf_en=_render(snapshot["en"], "en"),
                pdf_zh=_render(snapshot["zh-hans"], "zh-hans"),
                issued_by=user,
            )
    except IntegrityError:
        raise ServiceError(
            _("The report was issued; it can no longer change."), field="report"
        ) from None
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.COMMITTEE,
        target="report",
        old="",
        new="issued",
    )
    return report


def _require_judged_low_prices(procurement: Procurement, user) -> None:
    from ..comparison import build_comparison

    article = rules_for(
        tender_settings_for(procurement=procurement).regime
    ).abnormally_low_article
    if article is None:  # the buyer's own regime: the flag is advice
        return
    review = build_comparison(procurement=procurement, user=user).tender
    pending = unjudged_low_prices(review) if review is not None else []
    if pending:
        raise ServiceError(
            _(
                "Abnormally low prices not judged yet: %(bids)s. The committee asks "
                "for a written justification and records its judgement first "
                "(%(article)s)."
            )
            % {"bids": ", ".join(pending), "article": article.citation},
            field="report",
        )


def issued_report(procurement: Procurement) -> EvaluationReport | None:
    return EvaluationReport.objects.filter(procurement=procurement).first()


def report_pdf(report: EvaluationReport, language: str) -> bytes:
    """The stored PDF in ``language`` ("zh..." Chinese, else English)."""
    data = report.pdf_zh if language.startswith("zh") else report.pdf_en
    return bytes(data)


def report_filename(report: EvaluationReport, language: str) -> str:
    suffix = "zh" if language.startswith("zh") else "en"
    return f"evaluation-report-{report.procurement_id}-{suffix}.pdf"
