"""Evaluation actions: an evaluator's scores, their technical submission, the
procurement's evaluation settings and the decision."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement
from clusterbuy.services import ServiceError

from .. import comparison
from ..forms import EvaluationSettingsForm, score_marks
from ..services import decisions, evaluation
from .bids import bid_or_404, render_bid_detail
from .comparison import decision_page_context, render_comparison


@login_required
@require_POST
def score(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_BIDS)
    bid = bid_or_404(procurement, bid_pk)
    try:
        saved = evaluation.record_scores(
            bid=bid,
            evaluator=request.user,
            scores=score_marks(request.POST),
            automatic=comparison.automatic_points(bid=bid, user=request.user),
        )
    except ServiceError as exc:
        return render_bid_detail(
            request, procurement, bid, score_error=exc.message, posted=request.POST
        )
    if saved:
        messages.success(request, _("Scores saved."))
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
@require_POST
def submit_scores(request, pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_BIDS)
    evaluation.submit_technical_scores(procurement=procurement, evaluator=request.user)
    messages.success(request, _("Technical scores submitted."))
    return redirect("vendors:bids", pk=pk)


@login_required
@require_POST
def evaluation_settings(request, pk):
    procurement = access_procurement(request.user, pk, Capability.CONFIGURE_EVALUATION)
    form = EvaluationSettingsForm(request.POST, organisation=procurement.organisation)
    if form.is_valid():
        try:
            evaluation.update_evaluation_settings(
                procurement=procurement, user=request.user, **form.service_values()
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Evaluation settings saved."))
    return redirect("vendors:bids", pk=pk)


@login_required
@require_POST
def decision(request, pk):
    """A refused decision (no rationale, an override without its reason, a decision
    recorded meanwhile by someone else) is the comparison page again with the form's
    errors and what was typed, answered 200 as every HTML form of the app."""
    procurement = access_procurement(request.user, pk, Capability.DECIDE)
    context = decision_page_context(request, procurement, data=request.POST)
    form = context["decision_form"]
    if form.is_valid():
        try:
            decisions.record_decision(
                procurement=procurement, user=request.user, **form.service_values()
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect("vendors:comparison", pk=pk)
    return render_comparison(request, procurement, context)


@login_required
def decision_memo_pdf(request, pk):
    """The decision memo, rendered from the decision's frozen snapshot."""
    procurement = access_procurement(request.user, pk)
    pdf, filename = decisions.memo_download(procurement=procurement, user=request.user)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
