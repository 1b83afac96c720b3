"""TCO pages: the tab (scenario form + live preview), runs, results, PDF, reports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.engine.numbers import money
from clusterbuy.errors import error_sentence
from clusterbuy.forms import add_service_error
from clusterbuy.ids import id_param
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from . import forms, labels, reconciliation, report, services, sources
from .engine import TcoInputError
from .live_estimate import live_estimate
from .models import RunStatus, TcoRun, TcoScenario


def _lang() -> str:
    return "en" if (get_language() or "").startswith("en") else "zh-hans"


def _run_of(request, pk: int, run_id: int) -> tuple:
    procurement = access_procurement(request.user, pk)
    run = get_object_or_404(
        sources.without_sealed_bids(
            TcoRun.objects.for_procurement(procurement).with_related(),
            user=request.user,
            prefix="scenario__",
        ),
        pk=run_id,
    )
    return procurement, run


@login_required
def tco_tab(request, pk):
    procurement = access_procurement(request.user, pk)
    scenarios = sources.without_sealed_bids(
        TcoScenario.objects.for_procurement(procurement), user=request.user
    )
    scenario_id = request.POST.get("scenario_id") or request.GET.get("scenario")
    scenario = (
        get_object_or_404(scenarios, pk=id_param(scenario_id)) if scenario_id else None
    )
    if request.method == "POST":
        require(request.user, Capability.RUN_TCO)
        form, formset = forms.build_forms(request.POST)
        if form.is_valid() and formset.is_valid():
            try:
                scenario = services.save_scenario(
                    procurement=procurement,
                    user=request.user,
                    name=form.cleaned_data["name"],
                    inputs=forms.inputs_from_forms(form, formset),
                    scenario=scenario,
                )
            except TcoInputError as exc:
                forms.add_engine_error(form, formset, exc)
            except ServiceError as exc:
                add_service_error(form, exc)
            else:
                if request.POST.get("action") == "run":
                    run = services.request_tco_run(
                        scenario=scenario, user=request.user, lang=_lang()
                    )
                    return redirect("tco:run", pk=pk, run_id=run.pk)
                messages.success(request, _("Scenario saved."))
                return redirect(
                    reverse("tco:tab", args=[pk]) + f"?scenario={scenario.pk}"
                )
    else:
        prefill = None if scenario else services.prefill_inputs(procurement=procurement)
        form, formset = forms.build_forms(scenario=scenario, prefill=prefill)
    context = {
        "form": form,
        "formset": formset,
        "scenario": scenario,
        "scenarios": scenarios,
        "runs": sources.without_sealed_bids(
            TcoRun.objects.for_procurement(procurement).with_related(),
            user=request.user,
            prefix="scenario__",
        )[:20],
        "plan": services.sizing_plan(procurement=procurement),
        # The live estimate of the values as they stand, before the user types.
        "preview": _page_preview(request, form, formset, scenario),
    }
    return render_procurement(
        request, procurement, "tco/tab.html", context, active="tco"
    )


@login_required
@require_POST
def scenario_from_source(request, pk):
    """One click on a bid or the sizing plan: a scenario started from it, opened in
    the form for the user to adjust (tco.sources)."""
    procurement = access_procurement(request.user, pk, Capability.RUN_TCO)
    bid, plan = (
        id_param(value) if (value := request.POST.get(key)) else None
        for key in ("bid", "sizing_plan")
    )
    try:
        scenario = services.create_scenario_from_source(
            procurement=procurement, user=request.user, bid=bid, sizing_plan=plan
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("tco:tab", pk=pk)
    messages.success(
        request,
        _(
            "Scenario started: adjust it, then save or run it. Capex follows the GPU "
            "count until you edit it."
        ),
    )
    return redirect(reverse("tco:tab", args=[pk]) + f"?scenario={scenario.pk}")


def _page_preview(request, form, formset, scenario) -> dict:
    """The estimate shown with the page: of the values as shown, or, after a failed
    save, of the valid fields (on fresh forms, so no error is shown twice)."""
    if not form.is_bound:
        return _estimate_context(forms.inputs_shown(form, formset))
    form, formset = forms.build_forms(request.POST)
    return _live_context(live_estimate(form, formset, scenario))


def _scenario_posted(request, procurement) -> TcoScenario | None:
    scenario_id = request.POST.get("scenario_id")
    if not scenario_id:
        return None
    scenarios = sources.without_sealed_bids(
        TcoScenario.objects.for_procurement(procurement), user=request.user
    )
    return scenarios.filter(pk=id_param(scenario_id)).first()


@login_required
@require_POST
def tco_preview(request, pk):
    """htmx: the deterministic totals of the form as it stands (nothing saved), field
    by field: invalid fields keep their error and are left out (tco.live_estimate);
    a derived capex follows the GPU count as saving would make it."""
    procurement = access_procurement(request.user, pk)
    form, formset = forms.build_forms(request.POST)
    live = live_estimate(form, formset, _scenario_posted(request, procurement))
    context = _live_context(live)
    # data that must stay on-premises: the cloud rows are caveated, as on the run page
    context["cloud_excluded"] = procurement.requires_local_deployment
    response = render(request, "tco/_preview_response.html", context)
    if live.estimate is None:
        # Nothing computable: keep the last good estimate on screen, greyed by
        # static/js/app.js, with the note and the field errors swapped in.
        response["HX-Reswap"] = "none"
    return response


def _live_context(live) -> dict:
    context = _figures_context(live.estimate) if live.estimate else {"estimate": None}
    context.update(
        errors=live.general_errors,
        field_errors=live.field_errors,
        left_out=live.left_out,
        stale=live.estimate is None,
    )
    return context


def _estimate_context(inputs: dict | None) -> dict:
    """What tco/_preview.html shows for ``inputs``: the figures, or the engine's error."""
    context: dict = {"errors": [], "estimate": None}
    if inputs is None:
        return context
    try:
        estimate = services.estimate(inputs=inputs)
    except TcoInputError as exc:
        context["errors"].append(error_sentence(exc))
        return context
    return _figures_context(estimate)


def _figures_context(estimate: dict) -> dict:
    result = estimate["result"]
    context: dict = {"errors": [], "estimate": estimate}
    context["options"] = _preview_options(result)
    context["figures"] = {
        key: money(result[key]) for key in ("total_cost", "npv_cost", "capex_total")
    }
    context["figures"]["per_gpu_hour"] = money(result["cost_per_gpu_hour"], 2)
    # each ⚠ with what it means: the check's label and its message
    context["hidden_warnings"] = [
        {
            "label": labels.HIDDEN_COST_LABELS.get(row["category"], (row["label"], ""))[
                0
            ],
            "message": labels.HIDDEN_COST_LABELS.get(
                row["category"], ("", row.get("message", ""))
            )[1],
        }
        for row in estimate["hidden_costs"]
        if row["status"] == "warning"
    ]
    return context


def _preview_options(result: dict) -> list[dict]:
    rows = []
    for key in ("on_demand", "reserved", "spot"):
        rows.append(
            {
                "label": labels.OPTION_LABELS[key],
                "total": money(result["cloud"][key]["total"]),
                "cheaper_than_cloud": result["total_cost"]
                < result["cloud"][key]["total"],
                "break_even_month": result["break_even_month"][key],
            }
        )
    rows.append(
        {
            "label": labels.OPTION_LABELS["hybrid"],
            "total": money(result["hybrid"]["total"]),
            "cheaper_than_cloud": result["total_cost"] < result["hybrid"]["total"],
            "break_even_month": None,
        }
    )
    return rows


@login_required
@require_POST
def run_start(request, pk, scenario_id):
    procurement = access_procurement(request.user, pk, Capability.RUN_TCO)
    scenario = get_object_or_404(
        sources.without_sealed_bids(
            TcoScenario.objects.for_procurement(procurement), user=request.user
        ),
        pk=scenario_id,
    )
    run = services.request_tco_run(scenario=scenario, user=request.user, lang=_lang())
    return redirect("tco:run", pk=pk, run_id=run.pk)


@login_required
def run_detail(request, pk, run_id):
    procurement, run = _run_of(request, pk, run_id)
    context = {"run": run}
    if run.status == RunStatus.SUCCEEDED:
        lang = _lang()
        context.update(report.report_context(run=run, analysis=run.result, lang=lang))
        context["charts"] = report.chart_svgs(run.result, lang)
        context["breakdown"] = labels.breakdown_rows(run.result.get("breakdown", []))
        context["reconciliation"] = reconciliation.reconciliation_context(
            scenario=run.scenario, user=request.user
        )
    return render_procurement(
        request, procurement, "tco/run.html", context, active="tco"
    )


@login_required
def run_progress(request, pk, run_id):
    """htmx poll target: the progress bar; a full refresh once the run is done."""
    _procurement, run = _run_of(request, pk, run_id)
    if run.is_finished and request.htmx:
        return HttpResponseClientRefresh()
    return render(
        request, "tco/_progress.html", {"run": run, "procurement": _procurement}
    )


@login_required
@require_POST
def run_cancel(request, pk, run_id):
    procurement = access_procurement(request.user, pk, Capability.RUN_TCO)
    run = get_object_or_404(TcoRun.objects.for_procurement(procurement), pk=run_id)
    if services.cancel_tco_run(run=run, user=request.user):
        messages.success(request, _("The run was cancelled."))
    else:
        messages.info(request, _("The run had already finished."))
    return redirect("tco:run", pk=pk, run_id=run.pk)


@login_required
def run_pdf(request, pk, run_id):
    _procurement, run = _run_of(request, pk, run_id)
    require(request.user, Capability.DOWNLOAD_REPORTS)
    if run.status != RunStatus.SUCCEEDED or not run.pdf:
        raise Http404(_("The report is not ready."))
    return FileResponse(
        run.pdf.open("rb"),
        content_type="application/pdf",
        as_attachment=True,
        filename=f"tco-{run.pk}-{run.lang}.pdf",
    )


@login_required
def reports(request):
    runs = sources.without_sealed_bids(
        TcoRun.objects.for_user(request.user).with_related(),
        user=request.user,
        prefix="scenario__",
    )
    page = Paginator(runs, 25).get_page(request.GET.get("page"))
    return render(request, "tco/reports.html", {"page": page})
