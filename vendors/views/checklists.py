"""Checklist template pages: the organisation's checklists, the editor, copy, delete.

Reading never writes: before the organisation's default checklist is first used the
list shows it unsaved; opening it in the editor (a POST) stores it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, can, organisation_of, require
from clusterbuy.services import ServiceError

from ..forms import checklist_rows, parse_checklist_post, stored_name, stored_sections
from ..models import ChecklistTemplate, EvaluationSettings
from ..services import checklists


def _org_template(request, pk) -> ChecklistTemplate:
    return get_object_or_404(
        ChecklistTemplate.objects.filter(
            organisation=organisation_of(request.user)
        ).prefetch_related("sections__criteria"),
        pk=pk,
    )


@login_required
def checklist_list(request):
    organisation = organisation_of(request.user)
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        if "open_default" in request.POST:
            template = checklists.ensure_default_template(organisation=organisation)
            return redirect("vendors:checklist-edit", pk=template.pk)
        try:
            template = checklists.create_template(
                organisation=organisation, name=request.POST.get("name", "")
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Checklist created from the default."))
            return redirect("vendors:checklist-edit", pk=template.pk)
    templates = checklists.organisation_templates(organisation=organisation)
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
