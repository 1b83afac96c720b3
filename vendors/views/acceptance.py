"""The acceptance tab: the plan with its clauses, the uploads and figures recorded
against it, the verdicts per clause and node, the history, the signature and the
验收书; what was promised against what was measured, and the TCO re-forecast."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from ..acceptance_forms import (
    DeliveryForm,
    MeasurementForm,
    PlanForm,
    ResultUploadForm,
    ThresholdForm,
)
from ..services import acceptance, acceptance_certificate, acceptance_results
from ..services.acceptance_view import acceptance_page_context


@login_required
def acceptance_page(request, pk):
    procurement = access_procurement(request.user, pk)
    context = acceptance_page_context(procurement=procurement, user=request.user)
    clauses = context["clauses"]
    context.update(
        plan_form=PlanForm(),
        upload_form=ResultUploadForm(clauses=clauses),
        measurement_form=MeasurementForm(clauses=clauses),
        delivery_form=DeliveryForm(
            initial={"delivered_on": getattr(context["plan"], "delivered_on", None)}
        ),
    )
    return render_procurement(
        request, procurement, "vendors/acceptance.html", context, active="acceptance"
    )


def _back(pk):
    return redirect("vendors:acceptance", pk=pk)


def _plan(procurement):
    plan = acceptance.plan_for(procurement)
    if plan is None:
        raise Http404(_("No acceptance plan yet."))
    return plan


def _form_error(request, form) -> None:
    for errors in form.errors.values():
        messages.error(request, " ".join(errors))


def _run(request, call, success: str) -> None:
    try:
        call()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)


@login_required
@require_POST
def acceptance_create(request, pk):
    procurement = access_procurement(request.user, pk, Capability.RECORD_ACCEPTANCE)
    form = PlanForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return _back(pk)
    _run(
        request,
        lambda: acceptance.create_acceptance_plan(
            procurement=procurement,
            user=request.user,
            burn_in_hours=form.cleaned_data["burn_in_hours"],
        ),
        _("Acceptance plan created."),
    )
    return _back(pk)


@login_required
@require_POST
def acceptance_upload(request, pk):
    procurement = access_procurement(request.user, pk, Capability.RECORD_ACCEPTANCE)
    plan = _plan(procurement)
    form = ResultUploadForm(request.POST, request.FILES, clauses=plan.clauses.all())
    if not form.is_valid():
        _form_error(request, form)
        return _back(pk)
    data = form.cleaned_data
    _run(
        request,
        lambda: acceptance_results.record_result(
            plan=plan,
            user=request.user,
            data=acceptance_results.read_upload(data["file"]),
            filename=data["file"].name or "",
            node=data["node"],
            note=data["note"],
            clause_key=data["clause"],
        ),
        _("Result recorded."),
    )
    return _back(pk)


@login_required
@require_POST
def acceptance_measure(request, pk):
    procurement = access_procurement(request.user, pk, Capability.RECORD_ACCEPTANCE)
    plan = _plan(procurement)
    form = MeasurementForm(request.POST, clauses=plan.clauses.all())
    if not form.is_valid():
        _form_error(request, form)
        return _back(pk)
    data = form.cleaned_data
    _run(
        request,
        lambda: acceptance_results.record_measurement(
            plan=plan,
            user=request.user,
            clause_key=data["clause"],
            measured=data["measured"],
            node=data["node"],
            note=data["note"],
        ),
        _("Result recorded."),
    )
    return _back(pk)


@login_required
@require_POST
def acceptance_threshold(request, pk):
    procurement = access_procurement(request.user, pk, Capability.RECORD_ACCEPTANCE)
    plan = _plan(procurement)
    form = ThresholdForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return _back(pk)
    _run(
        request,
        lambda: acceptance.tighten_threshold(
            plan=plan,
            user=request.user,
            clause_key=form.cleaned_data["clause"],
            required=form.cleaned_data["required"],
        ),
        _("Threshold tightened."),
    )
    return _back(pk)


@login_required
@require_POST
def acceptance_delivery(request, pk):
    procurement = access_procurement(request.user, pk, Capability.RECORD_ACCEPTANCE)
    plan = _plan(procurement)
    form = DeliveryForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return _back(pk)
    _run(
        request,
        lambda: acceptance.record_delivery(
            plan=plan, user=request.user, delivered_on=form.cleaned_data["delivered_on"]
        ),
        _("Delivery date recorded."),
    )
    return _back(pk)


@login_required
@require_POST
def acceptance_sign(request, pk):
    procurement = access_procurement(request.user, pk, Capability.SIGN_ACCEPTANCE)
    plan = _plan(procurement)
    _run(
        request,
        lambda: acceptance_certificate.sign_acceptance(
            plan=plan,
            user=request.user,
            conclusion=request.POST.get("conclusion") or None,
        ),
        _("Acceptance certificate signed."),
    )
    return _back(pk)


@login_required
def acceptance_certificate_pdf(request, pk):
    procurement = access_procurement(request.user, pk)
    plan = _plan(procurement)
    response = HttpResponse(
        acceptance_certificate.certificate_pdf(plan), content_type="application/pdf"
    )
    name = acceptance_certificate.certificate_filename(plan)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
