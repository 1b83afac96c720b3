"""The bids tab and one bid: its form, its page (with the evaluator's score form),
its deletion."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import (
    Capability,
    access_procurement,
    can,
    is_technical_evaluator,
)
from clusterbuy.forms import add_service_error
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from .. import comparison
from ..engine.fields import CASE_STUDY_FIELDS
from ..forms import (
    CHANNEL_LABELS,
    MONITORING_LABELS,
    AttachmentForm,
    BidForm,
    EvaluationSettingsForm,
    LineItemForm,
)
from ..models import Bid, Vendor
from ..portal.correction_pages import bid_corrections_context
from ..services import acceptance_view, audit, evaluation, opened_bids
from ..services import bids as bid_services


def bid_or_404(procurement, bid_pk) -> Bid:
    """The procurement's bid `bid_pk` (404 for any other bid id)."""
    return get_object_or_404(
        Bid.objects.for_procurement(procurement).select_related(
            "vendor", "procurement"
        ),
        pk=bid_pk,
    )


@login_required
def bids(request, pk):
    procurement = access_procurement(request.user, pk)
    result = comparison.comparison_context(procurement=procurement, user=request.user)[
        "result"
    ]
    return render_procurement(
        request,
        procurement,
        "vendors/bids.html",
        {
            "result": result,
            "vendor_count": len({c.bid.vendor_id for c in result.columns}),
            "settings_form": EvaluationSettingsForm.showing(
                result.settings, organisation=procurement.organisation
            ),
            "vendors": Vendor.objects.for_user(request.user)
            if can(request.user, Capability.EDIT_VENDORS)
            else [],
            "technical_evaluator": is_technical_evaluator(request.user),
            "submitted": evaluation.has_submitted(
                procurement=procurement, user=request.user
            ),
        },
        active="bids",
    )


@login_required
def bid_form(request, pk, bid_pk=None):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = bid_or_404(procurement, bid_pk) if bid_pk else None
    refusal = None if bid is None else opened_bids.edit_refusal(bid)
    if refusal is not None:  # the page says why in place of its edit controls
        messages.info(request, refusal[1])
        return redirect("vendors:bid-detail", pk=pk, bid_pk=bid.pk)
    form = BidForm(
        request.POST or None,
        instance=bid,
        organisation=procurement.organisation,
        procurement=procurement,
    )
    if request.method == "POST" and form.is_valid():
        values = form.service_values()
        version = values.pop("version")
        try:
            if bid is None:
                bid = bid_services.create_bid(
                    procurement=procurement, user=request.user, **values
                )
            else:
                bid_services.update_bid(
                    bid=bid, user=request.user, version=version, **values
                )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Bid saved."))
            return redirect("vendors:bid-detail", pk=pk, bid_pk=bid.pk)
    return render_procurement(
        request,
        procurement,
        "vendors/bid_form.html",
        {"form": form, "bid": bid},
        active="bids",
    )


def _offer_labels(bid) -> dict:
    """The bid's service codes (channels, monitoring items, severities) as shown; a
    list stored past validation reads "invalid" (`Bid.checked`)."""
    sep = "、" if (get_language() or "").startswith("zh") else ", "
    invalid = bid.invalid_fields
    return {
        "channel_labels": _("invalid")
        if "support_channels" in invalid
        else sep.join(str(CHANNEL_LABELS.get(c, c)) for c in bid.support_channels),
        "monitoring_labels": _("invalid")
        if "monitoring" in invalid
        else sep.join(str(MONITORING_LABELS.get(m, m)) for m in bid.monitoring),
        "response_times_invalid": "response_hours" in invalid,
        "response_times": []
        if "response_hours" in invalid
        else [
            (comparison.severity_label(k), v)
            for k, v in sorted(bid.response_hours.items())
        ],
    }


def _attachments(bid, visibility) -> dict:
    """The bid's attachments, or how many are sealed from this viewer."""
    if visibility.attachments_sealed:
        return {"attachments": [], "sealed_attachments": bid.attachments.count()}
    return {"attachments": bid.attachments.all(), "sealed_attachments": 0}


@login_required
def bid_detail(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk)
    return render_bid_detail(request, procurement, bid_or_404(procurement, bid_pk))


def _score_rows(bid, user, column, sections, posted=None) -> list[dict]:
    """The score form: per section, each criterion with the evaluator's mark (or the
    posted one when the form is shown again) and the automatic score with its
    evidence when the findings give one."""
    mine = {s.criterion_id: s for s in bid.scores.filter(evaluator=user)}
    automatic = comparison.automatic_json(column, get_language() or "en")
    rows = []
    for section in sections:
        if section.auto_price:
            continue
        criteria = []
        for criterion in section.criteria.all():
            score = mine.get(criterion.pk)
            points = "" if score is None else str(score.points)
            note = "" if score is None else score.note
            if posted is not None:
                points = posted.get(f"points_{criterion.pk}", "")
                note = posted.get(f"note_{criterion.pk}", "")
            criteria.append(
                {
                    "criterion": criterion,
                    "points": points,
                    "note": note,
                    "auto": automatic.get(criterion.code),
                }
            )
        rows.append({"title": section.display_title, "criteria": criteria})
    return rows


def render_bid_detail(
    request, procurement, bid, *, score_error=None, posted=None, correction_form=None
):
    """The bid page; with ``score_error`` (a refused score form, shown again with the
    posted values) answered 400; with ``correction_form`` (a refused correction
    request) the form shown with its errors."""
    result = comparison.build_comparison(procurement=procurement, user=request.user)
    sections = evaluation.checklist_sections(result.settings)
    visibility = result.visibility
    visibility.mask_bid(bid)
    column = next(c for c in result.columns if c.bid.pk == bid.pk)
    response = render_procurement(
        request,
        procurement,
        "vendors/bid_detail.html",
        {
            "bid": bid,
            "column": column,
            "result": result,
            "line_items": visibility.mask_rows(bid.line_items.all(), ["description"]),
            "hide_prices": visibility.prices_hidden,
            "sections": sections,
            "score_rows": _score_rows(bid, request.user, column, sections, posted),
            "score_error": score_error,
            "line_form": LineItemForm(),
            "upload_form": AttachmentForm(),
            "audit": audit.visible_audit(
                bid.audit.select_related("actor")[:100],
                hide_prices=visibility.prices_hidden,
                blind=visibility.blind,
                redact=visibility.redact,
                criteria={
                    c.code: c.display_text for s in sections for c in s.criteria.all()
                },
            ),
            **_attachments(bid, visibility),
            "case_studies": visibility.mask_rows(
                bid.case_studies.all(), CASE_STUDY_FIELDS
            ),
            **_offer_labels(bid),
            **bid_corrections_context(
                request.user, bid, form=correction_form, redact=visibility.redact
            ),
            "acceptance_promises": acceptance_view.promises_for_bid(bid),
        },
        active="bids",
    )
    if score_error is not None:
        response.status_code = 400
    return response


@login_required
@require_POST
def bid_delete(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    try:
        bid_services.delete_bid(bid=bid_or_404(procurement, bid_pk))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)
    messages.success(request, _("Bid deleted."))
    return redirect("vendors:bids", pk=pk)
