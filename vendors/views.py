"""HTML views of vendor evaluation: validate a form, call one service, render/redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Exists, OuterRef
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import (
    Capability,
    access_procurement,
    can,
    organisation_of,
    require,
)
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from . import (
    attachments,
    audit,
    checklists,
    comparison,
    evaluation,
    exports,
    suppliers,
)
from . import (
    bids as bid_services,
)
from .forms import (
    CHANNEL_LABELS,
    MONITORING_LABELS,
    BidForm,
    CaseStudyForm,
    DecisionForm,
    EvaluationSettingsForm,
    LineItemForm,
    UploadForm,
    VendorForm,
    checklist_rows,
    parse_checklist_post,
    stored_name,
    stored_sections,
    weights_form_class,
)
from .importing import LineItemImportError, build_template_csv, build_template_xlsx
from .models import (
    Bid,
    BidAttachment,
    BidLineItem,
    ChecklistSection,
    ChecklistTemplate,
    EvaluationSettings,
    Score,
    Vendor,
)


def _form_error(form, exc: ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def _bid(procurement, bid_pk) -> Bid:
    return get_object_or_404(
        Bid.objects.for_procurement(procurement).select_related(
            "vendor", "procurement"
        ),
        pk=bid_pk,
    )


# --- vendors -----------------------------------------------------------------------


@login_required
def vendor_list(request):
    organisation = organisation_of(request.user)
    form = VendorForm(request.POST or None)
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        if form.is_valid():
            try:
                vendor = suppliers.create_vendor(
                    organisation=organisation, **form.cleaned_data
                )
            except ServiceError as exc:
                _form_error(form, exc)
            else:
                messages.success(request, _("Vendor added."))
                return redirect("vendors:vendor-detail", pk=vendor.pk)
    vendors = Vendor.objects.for_user(request.user).prefetch_related("case_studies")
    return render(
        request, "vendors/vendor_list.html", {"vendors": vendors, "form": form}
    )


@login_required
def vendor_detail(request, pk):
    vendor = get_object_or_404(Vendor.objects.for_user(request.user), pk=pk)
    form = VendorForm(request.POST or None, instance=vendor, prefix="vendor")
    case_form = CaseStudyForm(prefix="case")
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        if "case-client_industry" in request.POST:
            case_form = CaseStudyForm(request.POST, prefix="case")
            if case_form.is_valid():
                suppliers.create_case_study(vendor=vendor, **case_form.cleaned_data)
                messages.success(request, _("Case study added."))
                return redirect("vendors:vendor-detail", pk=pk)
        elif form.is_valid():
            try:
                suppliers.update_vendor(vendor=vendor, **form.cleaned_data)
            except ServiceError as exc:
                vendor.refresh_from_db()
                _form_error(form, exc)
            else:
                messages.success(request, _("Vendor saved."))
                return redirect("vendors:vendor-detail", pk=pk)
    return render(
        request,
        "vendors/vendor_detail.html",
        {
            "vendor": vendor,
            "form": form,
            "case_form": case_form,
            "case_studies": vendor.case_studies.prefetch_related("bids"),
            "bids": vendor.bids.select_related("procurement"),
        },
    )


# --- checklist templates -----------------------------------------------------------


def _org_template(request, pk) -> ChecklistTemplate:
    return get_object_or_404(
        ChecklistTemplate.objects.filter(organisation=organisation_of(request.user)),
        pk=pk,
    )


@login_required
def checklist_list(request):
    organisation = organisation_of(request.user)
    checklists.create_default_template(organisation=organisation)
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        try:
            template = checklists.create_template(
                organisation=organisation, name=request.POST.get("name", "")
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Checklist created from the default."))
            return redirect("vendors:checklist-edit", pk=template.pk)
    templates = (
        ChecklistTemplate.objects.filter(organisation=organisation)
        .annotate(
            locked=Exists(
                Score.objects.filter(criterion__section__template=OuterRef("pk"))
            ),
            procurement_count=Count("evaluationsettings", distinct=True),
            section_count=Count("sections", distinct=True),
        )
        .order_by("-is_default", "name", "id")
    )
    return render(request, "vendors/checklist_list.html", {"templates": templates})


@login_required
def checklist_edit(request, pk):
    template = _org_template(request, pk)
    locked = checklists.template_locked(template=template)
    error = None
    name, rows = template.display_name, None
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        name, rows = parse_checklist_post(request.POST)
        try:
            checklists.update_template(
                template=template,
                name=stored_name(name),
                sections=None if locked else stored_sections(rows),
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("Checklist saved."))
            return redirect("vendors:checklist-edit", pk=pk)
    return render(
        request,
        "vendors/checklist_edit.html",
        {
            "template": template,
            "name": name,
            "sections": rows if rows is not None else checklist_rows(template),
            "locked": locked,
            "editable": can(request.user, Capability.EDIT_VENDORS),
            "error": error,
            "used_by": EvaluationSettings.objects.filter(template=template)
            .select_related("procurement")
            .order_by("procurement__name"),
        },
    )


@login_required
@require_POST
def checklist_copy(request, pk):
    template = _org_template(request, pk)
    require(request.user, Capability.EDIT_VENDORS)
    copy = checklists.copy_template(template=template)
    messages.success(request, _("Copied; this copy is editable."))
    return redirect("vendors:checklist-edit", pk=copy.pk)


@login_required
@require_POST
def checklist_delete(request, pk):
    template = _org_template(request, pk)
    require(request.user, Capability.EDIT_VENDORS)
    try:
        checklists.delete_template(template=template)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("vendors:checklist-edit", pk=pk)
    messages.success(request, _("Checklist deleted."))
    return redirect("vendors:checklist-list")


# --- bids tab ----------------------------------------------------------------------


@login_required
def bids(request, pk):
    procurement = access_procurement(request.user, pk)
    result = comparison.comparison_context(procurement=procurement, user=request.user)[
        "result"
    ]
    row = result.settings
    settings_form = EvaluationSettingsForm(
        organisation=procurement.organisation,
        initial={
            "template": row.template_id,
            "blind_grading": row.blind_grading,
            "sealed_envelope": row.sealed_envelope,
            "technical_threshold": row.technical_threshold,
            "scoring_closed": row.scoring_closed,
        },
    )
    return render_procurement(
        request,
        procurement,
        "vendors/bids.html",
        {
            "result": result,
            "vendor_count": len({c.bid.vendor_id for c in result.columns}),
            "settings_form": settings_form,
            "vendors": Vendor.objects.for_user(request.user)
            if can(request.user, Capability.EDIT_VENDORS)
            else [],
            "technical_evaluator": evaluation.is_technical_evaluator(request.user),
            "submitted": evaluation.has_submitted(
                procurement=procurement, user=request.user
            ),
        },
        active="bids",
    )


@login_required
def bid_form(request, pk, bid_pk=None):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = _bid(procurement, bid_pk) if bid_pk else None
    form = BidForm(
        request.POST or None, instance=bid, organisation=procurement.organisation
    )
    if request.method == "POST" and form.is_valid():
        values = form.service_values()
        try:
            if bid is None:
                bid = bid_services.create_bid(
                    procurement=procurement, user=request.user, **values
                )
            else:
                bid.refresh_from_db()
                bid_services.update_bid(bid=bid, user=request.user, **values)
        except ServiceError as exc:
            _form_error(form, exc)
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
    """The bid's service codes (channels, monitoring items, severities) as shown."""
    sep = "、" if (get_language() or "").startswith("zh") else ", "
    return {
        "channel_labels": sep.join(
            str(CHANNEL_LABELS.get(c, c)) for c in bid.support_channels or []
        ),
        "monitoring_labels": sep.join(
            str(MONITORING_LABELS.get(m, m)) for m in bid.monitoring or []
        ),
        "response_times": [
            (comparison.severity_label(k), v)
            for k, v in sorted((bid.response_hours or {}).items())
        ],
    }


@login_required
def bid_detail(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk)
    bid = _bid(procurement, bid_pk)
    result = comparison.build_comparison(procurement=procurement, user=request.user)
    column = next(c for c in result.columns if c.bid.pk == bid.pk)
    my_scores = {s.criterion_id: s for s in bid.scores.filter(evaluator=request.user)}
    sections = ChecklistSection.objects.filter(
        template_id=result.settings.template_id
    ).prefetch_related("criteria")
    visibility = evaluation.visibility_context(procurement, request.user)
    return render_procurement(
        request,
        procurement,
        "vendors/bid_detail.html",
        {
            "bid": bid,
            "column": column,
            "result": result,
            "line_items": bid.line_items.all(),
            "hide_prices": visibility["hide_prices"],
            "sections": sections,
            "my_scores": my_scores,
            "line_form": LineItemForm(),
            "upload_form": UploadForm(),
            "audit": audit.visible_audit(
                bid.audit.select_related("actor")[:100],
                hide_prices=visibility["hide_prices"],
                blind=result.blind,
                criteria={
                    c.code: c.display_text for s in sections for c in s.criteria.all()
                },
            ),
            "attachments": bid.attachments.all(),
            "case_studies": bid.case_studies.all(),
            **_offer_labels(bid),
        },
        active="bids",
    )


@login_required
@require_POST
def bid_delete(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    try:
        bid_services.delete_bid(bid=_bid(procurement, bid_pk))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)
    messages.success(request, _("Bid deleted."))
    return redirect("vendors:bids", pk=pk)


@login_required
@require_POST
def line_item_add(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = _bid(procurement, bid_pk)
    form = LineItemForm(request.POST)
    if form.is_valid():
        bid_services.add_line_item(bid=bid, user=request.user, **form.cleaned_data)
        messages.success(request, _("Line item added."))
    else:
        messages.error(
            request,
            _("Check the line item: %(errors)s")
            % {
                "errors": "; ".join(
                    f"{k}: {' '.join(v)}" for k, v in form.errors.items()
                )
            },
        )
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
@require_POST
def line_item_delete(request, pk, bid_pk, item_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = _bid(procurement, bid_pk)
    bid_services.delete_line_item(
        item=get_object_or_404(BidLineItem, bid=bid, pk=item_pk), user=request.user
    )
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
@require_POST
def line_item_import(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = _bid(procurement, bid_pk)
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file to upload."))
    else:
        upload = form.cleaned_data["file"]
        try:
            items = bid_services.import_line_items(
                bid=bid, fileobj=upload, filename=upload.name, user=request.user
            )
        except LineItemImportError as exc:
            for error in exc.errors[:50]:
                messages.error(
                    request,
                    _("Row %(row)s %(column)s: %(message)s")
                    % {
                        "row": error.row,
                        "column": error.column,
                        "message": error.message,
                    },
                )
            messages.error(request, _("Nothing was imported."))
        else:
            messages.success(
                request, _("%(n)s line items imported.") % {"n": len(items)}
            )
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


def line_item_template(request, fmt):
    if fmt == "csv":
        response = HttpResponse(build_template_csv(), content_type="text/csv")
    else:
        response = HttpResponse(
            build_template_xlsx(),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    response["Content-Disposition"] = (
        f'attachment; filename="line_items_template.{fmt}"'
    )
    return response


@login_required
@require_POST
def attachment_upload(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = _bid(procurement, bid_pk)
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            attachments.add_attachment(
                bid=bid, user=request.user, upload=form.cleaned_data["file"]
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Attachment uploaded."))
    else:
        messages.error(request, _("Choose a file to upload."))
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
def attachment_download(request, pk, bid_pk, attachment_pk):
    procurement = access_procurement(request.user, pk)
    bid = _bid(procurement, bid_pk)
    attachment = get_object_or_404(BidAttachment, bid=bid, pk=attachment_pk)
    return FileResponse(
        attachment.file.open("rb"),
        as_attachment=True,
        filename=attachment.original_name,
    )


# --- scoring -----------------------------------------------------------------------


@login_required
@require_POST
def score(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_BIDS)
    bid = _bid(procurement, bid_pk)
    row = evaluation.evaluation_settings_for(procurement=procurement)
    criteria = {
        c.pk: c
        for s in ChecklistSection.objects.filter(
            template_id=row.template_id
        ).prefetch_related("criteria")
        for c in s.criteria.all()
        if not s.auto_price
    }
    saved = 0
    for criterion_pk, criterion in criteria.items():
        raw = request.POST.get(f"points_{criterion_pk}", "")
        if raw == "":
            continue
        try:
            evaluation.record_score(
                bid=bid,
                criterion=criterion,
                evaluator=request.user,
                points=int(raw),
                note=request.POST.get(f"note_{criterion_pk}", ""),
            )
            saved += 1
        except (ServiceError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", _("Invalid points.")))
            break
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
    procurement = access_procurement(request.user, pk)
    if not can(request.user, Capability.DECIDE):
        require(request.user, Capability.EDIT_VENDORS)
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


# --- comparison --------------------------------------------------------------------


def _weights_from(request, sections) -> dict:
    weights = {}
    for section in sections:
        raw = request.POST.get(f"w_{section.code}", "")
        if raw.strip():
            try:
                weights[section.code] = float(raw)
            except ValueError:
                raise ServiceError(_("Weights are numbers."), field="weights") from None
    return weights


def _comparison_context(request, procurement, weights=None):
    if not weights:
        context = dict(
            comparison.comparison_context(procurement=procurement, user=request.user)
        )
        context["weights_form"] = weights_form_class(context["result"].sections)()
        return context
    result = comparison.build_comparison(
        procurement=procurement, user=request.user, weights=weights
    )
    return {
        "result": result,
        "groups": comparison.comparison_groups(result),
        "radar": comparison.radar_svg(result),
        "weights_form": weights_form_class(result.sections)(),
    }


@login_required
def comparison_page(request, pk):
    procurement = access_procurement(request.user, pk)
    context = _comparison_context(request, procurement)
    context["decision_form"] = DecisionForm(
        procurement=procurement,
        initial={"bid": getattr(context["result"].decision, "bid_id", None)},
    )
    return render_procurement(
        request, procurement, "vendors/comparison.html", context, active="comparison"
    )


@login_required
@require_POST
def comparison_weights(request, pk):
    """htmx: recompute the table with the posted weights; "save" stores them."""
    procurement = access_procurement(request.user, pk)
    sections = list(
        ChecklistSection.objects.filter(
            template_id=evaluation.evaluation_settings_for(
                procurement=procurement
            ).template_id
        )
    )
    try:
        weights = _weights_from(request, sections)
        if "save" in request.POST:
            require(request.user, Capability.SCORE_BIDS)
            evaluation.save_section_weights(
                procurement=procurement, user=request.user, weights=weights
            )
            messages.success(request, _("Weights saved."))
        context = _comparison_context(request, procurement, weights)
    except ServiceError as exc:
        context = _comparison_context(request, procurement)
        context["weights_error"] = exc.message
    context["procurement"] = procurement
    template = (
        "vendors/_comparison_table.html" if request.htmx else "vendors/comparison.html"
    )
    if not request.htmx:
        return redirect("vendors:comparison", pk=pk)
    return render(request, template, context)


@login_required
def comparison_export(request, pk, fmt):
    procurement = access_procurement(request.user, pk)
    result = comparison.build_comparison(procurement=procurement, user=request.user)
    if fmt == "xlsx":
        data = exports.comparison_xlsx(result)
        content_type = (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        )
    elif fmt == "pdf":
        data = exports.comparison_pdf(result, request=request)
        content_type = "application/pdf"
    else:
        raise Http404
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="comparison-{procurement.pk}.{fmt}"'
    )
    return response


@login_required
@require_POST
def decision(request, pk):
    procurement = access_procurement(request.user, pk, Capability.DECIDE)
    form = DecisionForm(request.POST, procurement=procurement)
    if form.is_valid():
        try:
            evaluation.record_decision(
                procurement=procurement, user=request.user, **form.cleaned_data
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Decision recorded."))
    else:
        messages.error(request, _("Choose a bid and give the rationale."))
    return redirect("vendors:comparison", pk=pk)
