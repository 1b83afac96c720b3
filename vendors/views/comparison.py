"""The comparison page, its htmx weights form and its XLSX/PDF export."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from .. import comparison
from ..comparison import documents as exports
from ..forms import DecisionForm, posted_weights, weights_form_class
from ..rfp.versions import stale_vendors
from ..services import decision_override, decisions, evaluation
from ..services.stages import decision_refusal
from .line_items import XLSX_CONTENT_TYPE


def _with_form(context: dict) -> dict:
    context = dict(context)
    context["weights_form"] = weights_form_class(context["result"].sections)()
    return context


def _comparison_context(request, procurement) -> dict:
    return _with_form(
        comparison.comparison_context(procurement=procurement, user=request.user)
    )


def decision_page_context(request, procurement, *, data=None) -> dict:
    """The comparison page's context with its decision form (bound to ``data`` when
    a posted decision is shown again with its errors) and, for each bid, the checks
    choosing it would override."""
    context = _comparison_context(request, procurement)
    result = context["result"]
    context["decision_form"] = DecisionForm(
        data,
        procurement=procurement,
        labels=result.visibility.labels,
        initial={
            "bid": getattr(result.decision, "bid_id", None),
            "seen": decisions.decision_token(result.decision),
        },
    )
    context["decision_refusal"] = decision_refusal(procurement)
    context["stale_bids"] = [
        {**row, "vendor": result.visibility.redact(row["vendor"])}
        for row in stale_vendors(procurement)
    ]
    context["override_hints"] = decision_override.override_hints(result)
    if result.decision is not None and result.decision.override_checks:
        # Stored as the decider saw them: names redacted for a blind reader.
        redact = result.visibility.redact
        context["decision_override"] = {
            "checks": [
                redact(decision_override.check_text(c))
                for c in result.decision.override_checks
            ],
            "reason": redact(result.decision.override_reason),
        }
    return context


def render_comparison(request, procurement, context: dict):
    return render_procurement(
        request, procurement, "vendors/comparison.html", context, active="comparison"
    )


@login_required
def comparison_page(request, pk):
    procurement = access_procurement(request.user, pk)
    return render_comparison(
        request, procurement, decision_page_context(request, procurement)
    )


@login_required
@require_POST
def comparison_weights(request, pk):
    """htmx: the table ranked under the posted weights, re-ranked from the cached
    comparison (nothing is built again); "save" also stores them."""
    procurement = access_procurement(request.user, pk)
    built = comparison.comparison_context(procurement=procurement, user=request.user)
    try:
        weights = posted_weights(
            request.POST, [s.code for s in built["result"].sections]
        )
        if "save" in request.POST:
            require(request.user, Capability.SCORE_BIDS)
            evaluation.save_section_weights(
                procurement=procurement, user=request.user, weights=weights
            )
            messages.success(request, _("Weights saved."))
        context = _with_form(comparison.reweighted_context(built, weights))
    except ServiceError as exc:
        context = _with_form(built)
        context["weights_error"] = exc.message
    if not request.htmx:
        return redirect("vendors:comparison", pk=pk)
    context["procurement"] = procurement
    return render(request, "vendors/_comparison_table.html", context)


@login_required
def comparison_export(request, pk, fmt):
    procurement = access_procurement(request.user, pk)
    if fmt not in ("xlsx", "pdf"):
        raise Http404
    # From the page's cached comparison, table and radar (an export builds nothing
    # again), and itself kept beside them.
    if fmt == "xlsx":
        content_type = XLSX_CONTENT_TYPE

        def draw(context):
            return exports.comparison_xlsx(context["result"], groups=context["groups"])

    else:
        content_type = "application/pdf"

        def draw(context):
            return exports.comparison_pdf(
                context["result"],
                groups=context["groups"],
                radar=context["radar"],
                request=request,
            )

    data = comparison.cached_export(
        procurement=procurement, user=request.user, fmt=fmt, render=draw
    )
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="comparison-{procurement.pk}.{fmt}"'
    )
    return response
