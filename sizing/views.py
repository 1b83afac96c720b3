"""Sizing pages: catalogue, quick calculator, the Requirements and Sizing tabs."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, can, require
from clusterbuy.engine.currency import DEFAULT_FX_CNY_PER_USD
from clusterbuy.errors import error_sentence
from clusterbuy.forms import add_service_error
from clusterbuy.ids import id_param
from clusterbuy.views import render_procurement

from . import messages as engine_texts
from . import services
from . import training_messages as training_texts
from .engine import SizingInputError
from .forms import QuickForm, RequirementForm, WorkloadForm
from .models import Accelerator, SizingPlan, Workload
from .quick_checks import quick_checks


def _preview(result: dict) -> dict:
    """What the live preview shows, for a plan or a single estimate."""
    workloads = result.get("workloads") or [result]
    return {
        "accelerator": result["accelerator"],
        "gpu_count": result["gpu_count"],
        "nodes": result.get("nodes"),
        "cooling": engine_texts.cooling_label(
            result.get("power", {}).get("cooling", "")
        ),
        "workloads": [
            {
                "kind": engine_texts.kind_label(w["kind"]),
                "gpu_count": w["gpu_count"],
                "per_gpu_gb": w["memory"]["per_gpu_gb"],
                "capacity_gb": w["memory"]["capacity_gb"],
                "days": (w.get("training") or {}).get("days"),
                "ttft_ms": (w.get("inference") or {}).get("ttft_ms"),
                "tpot_ms": (w.get("inference") or {}).get("tpot_ms"),
                "tokens_per_second": (w.get("inference") or {}).get(
                    "tokens_per_second"
                ),
            }
            for w in workloads
        ],
        "power": result.get("power", {}),
        "bottlenecks": engine_texts.describe_bottlenecks(result.get("bottlenecks", [])),
    }


# ------------------------------------------------------------------- public pages


def catalog(request):
    accelerators = Accelerator.objects.order_by("vendor", "-memory_gb", "key")
    vendor = request.GET.get("vendor", "")
    region = request.GET.get("available_in", "")
    min_memory = request.GET.get("min_memory_gb", "")
    if vendor:
        accelerators = accelerators.filter(vendor__iexact=vendor)
    if region in ("cn", "global"):
        accelerators = accelerators.available_in(region)
    try:
        if min_memory:
            accelerators = accelerators.filter(memory_gb__gte=float(min_memory))
    except ValueError:
        min_memory = ""
    vendors = Accelerator.objects.order_by("vendor").values_list("vendor", flat=True)
    return render(
        request,
        "sizing/catalog.html",
        {
            "accelerators": accelerators,
            "vendors": sorted(set(vendors)),
            "vendor": vendor,
            "available_in": region,
            "min_memory_gb": min_memory,
        },
    )


def _quick_region(request) -> str | None:
    """The region of the procurement the calculator was opened from (?procurement=),
    when the user may see it; else None (the form's default: outside China)."""
    pk = request.GET.get("procurement")
    if not pk or not request.user.is_authenticated:
        return None
    return access_procurement(request.user, id_param(pk)).region


def quick(request):
    form = QuickForm(request.POST or None, region=_quick_region(request))
    result = None
    if request.method == "POST" and form.is_valid():
        try:
            result = services.estimate_from_body(form.body())
        except SizingInputError as exc:
            add_service_error(form, exc, field=services.engine_field(exc.field))
    context = {"form": form, "result": result}
    if result is not None:
        context["preview"] = _preview(result)
        context["checks"] = quick_checks(form.cleaned_data, result)
        context["explanation"] = engine_texts.describe_explanation(
            result.get("explanation", [])
        )
    elif form.errors:
        context["field_errors"] = [
            (form[name].label if name in form.fields else "", errors)
            for name, errors in form.errors.items()
        ]
    if request.htmx:
        return render(request, "sizing/_quick_result.html", context)
    return render(request, "sizing/quick.html", context)


# -------------------------------------------------------------- requirements tab


def _requirements_context(request, procurement, form) -> dict:
    return {
        "form": form,
        "budget_usd": services.budget_usd(procurement),
        "can_edit_procurement": can(request.user, Capability.EDIT_PROCUREMENT),
        "workloads": Workload.objects.for_procurement(procurement),
        "can_edit": form is not None and not form.fields["scenario"].disabled,
        "latest": services.latest_plan(procurement=procurement),
    }


@login_required
def requirements(request, pk):
    procurement = access_procurement(request.user, pk)
    requirement = services.requirement_for(procurement=procurement)
    editable = can(request.user, Capability.EDIT_REQUIREMENTS)
    if request.method == "POST":
        require(request.user, Capability.EDIT_REQUIREMENTS)
    form = RequirementForm(request.POST or None, instance=requirement)
    if not editable:
        for field in form.fields.values():
            field.disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            services.save_requirement_and_plan(
                procurement=procurement, user=request.user, **form.cleaned_data
            )
        except SizingInputError as exc:
            add_service_error(form, exc, field=services.engine_field(exc.field))
        else:
            messages.success(request, _("Requirements saved and sizing computed."))
            return redirect("sizing:plan", pk=procurement.pk)
    return render_procurement(
        request,
        procurement,
        "sizing/requirements.html",
        _requirements_context(request, procurement, form),
        active="requirements",
    )


@login_required
@require_POST
def requirements_preview(request, pk):
    procurement = access_procurement(request.user, pk)
    requirement = services.requirement_for(procurement=procurement)
    form = RequirementForm(request.POST, instance=requirement)
    context: dict = {"form": form}
    if form.is_valid():
        inputs = services.plan_inputs(
            requirement=form.instance,
            workloads=list(Workload.objects.for_procurement(procurement)),
        )
        try:
            context["preview"] = _preview(services.compute_plan(inputs=inputs))
        except SizingInputError as exc:
            context["error"] = error_sentence(exc, services.engine_field(exc.field))
    return render(request, "sizing/_preview.html", context)


def _workload_page(request, procurement, workload):
    form = WorkloadForm(request.POST or None, instance=workload)
    if request.method == "POST" and form.is_valid():
        try:
            if workload.pk:
                services.update_workload(workload=workload, **form.cleaned_data)
            else:
                services.create_workload(procurement=procurement, **form.cleaned_data)
        except SizingInputError as exc:
            add_service_error(form, exc, field=services.engine_field(exc.field))
        else:
            messages.success(request, _("Workload saved."))
            return redirect("sizing:requirements", pk=procurement.pk)
    return render_procurement(
        request,
        procurement,
        "sizing/workload_form.html",
        {"form": form, "workload": workload},
        active="requirements",
    )


@login_required
def workload_create(request, pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_REQUIREMENTS)
    return _workload_page(request, procurement, Workload(procurement=procurement))


@login_required
def workload_edit(request, pk, workload_id):
    procurement = access_procurement(request.user, pk, Capability.EDIT_REQUIREMENTS)
    workload = get_object_or_404(
        Workload.objects.for_procurement(procurement), pk=workload_id
    )
    return _workload_page(request, procurement, workload)


@login_required
@require_POST
def workload_delete(request, pk, workload_id):
    procurement = access_procurement(request.user, pk, Capability.EDIT_REQUIREMENTS)
    workload = get_object_or_404(
        Workload.objects.for_procurement(procurement), pk=workload_id
    )
    services.delete_workload(workload=workload)
    messages.success(request, _("Workload deleted."))
    return redirect("sizing:requirements", pk=procurement.pk)


@login_required
@require_POST
def workload_preview(request, pk):
    procurement = access_procurement(request.user, pk)
    data = request.POST.copy()
    # The name is not needed for a preview (issue 13): the preview runs before it.
    data["name"] = data.get("name") or _("Preview")
    form = WorkloadForm(data, instance=Workload(procurement=procurement))
    context: dict = {"form": form}
    if form.is_valid():
        requirement = services.requirement_for(procurement=procurement)
        body = {
            "workload": form.instance.to_engine_dict(),
            "constraints": services.constraints_for(requirement),
        }
        if requirement.accelerator_key:
            body["accelerator"] = requirement.accelerator_key
        try:
            context["preview"] = _preview(services.estimate_from_body(body))
        except SizingInputError as exc:
            context["error"] = error_sentence(exc, services.engine_field(exc.field))
    return render(request, "sizing/_preview.html", context)


# --------------------------------------------------------------------- sizing tab


@login_required
def plan(request, pk):
    procurement = access_procurement(request.user, pk)
    history = SizingPlan.objects.for_procurement(procurement).select_related(
        "created_by"
    )
    chosen = request.GET.get("plan")
    current = history.filter(pk=id_param(chosen)).first() if chosen else history.first()
    context: dict = {"plan": current, "history": history[:50]}
    context["stale"] = services.plan_is_stale(
        procurement=procurement, plan=history.first()
    )
    if current is not None:
        result = current.result
        context.update(
            result=result,
            misses_latency=any(
                b["code"] in services.LATENCY_CODES
                for b in result.get("bottlenecks", [])
            ),
            accelerator=Accelerator.objects.filter(key=result["accelerator"]).first(),
            bottlenecks=engine_texts.describe_bottlenecks(
                result.get("bottlenecks", [])
            ),
            explanation=engine_texts.describe_explanation(
                result.get("explanation", [])
            ),
            combination_rule=engine_texts.combination_rule(
                result.get("combination_rule", "")
            ),
            alternatives=[
                {
                    **a,
                    # the procurement's currency, converted at the rate shown
                    "total": services.usd_in_currency(a.get("total_usd"), procurement),
                    "cooling": engine_texts.cooling_label(a.get("cooling", "")),
                    "warnings": engine_texts.warning_titles(a.get("warnings", [])),
                }
                for a in current.alternatives or []
            ],
            fx_cny_per_usd=DEFAULT_FX_CNY_PER_USD,
            budget=services.plan_budget(plan=current),
            workloads=[
                (
                    workload,
                    {
                        **w,
                        "kind_label": engine_texts.kind_label(w["kind"]),
                        "precision_text": engine_texts.precision_text(
                            w.get("precision")
                        ),
                        "ecosystem": engine_texts.ecosystem_label(
                            w.get("compatibility", {}).get("ecosystem", "")
                        ),
                        "explanation": engine_texts.describe_explanation(
                            w.get("explanation", [])
                        ),
                        "risks": engine_texts.risk_labels(
                            w.get("compatibility", {}).get("risks", [])
                        ),
                        "remedies": training_texts.describe_remedies(
                            (w.get("training") or {}).get("fit_remedies") or []
                        ),
                        "schedule": training_texts.schedule_label(
                            (w.get("parallelism") or {}).get("schedule") or ""
                        ),
                    },
                )
                for workload, w in zip(
                    current.inputs.get("workloads", []),
                    result["workloads"],
                    strict=False,
                )
            ],
            summary=services.plan_summary(procurement=procurement)
            if current == history.first()
            else None,
        )
    return render_procurement(
        request, procurement, "sizing/plan.html", context, active="sizing"
    )


@login_required
@require_POST
def plan_recompute(request, pk):
    """The stale-plan banner's button: a new plan from today's requirement and
    workloads (the same service as the questionnaire's Save)."""
    procurement = access_procurement(request.user, pk)
    require(request.user, Capability.EDIT_REQUIREMENTS)
    try:
        services.compute_sizing_plan(procurement=procurement, user=request.user)
    except SizingInputError as exc:
        messages.error(request, error_sentence(exc, services.engine_field(exc.field)))
        return redirect("sizing:requirements", pk=procurement.pk)
    messages.success(request, _("Sizing recomputed."))
    return redirect("sizing:plan", pk=procurement.pk)
