from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponseServerError, JsonResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from . import registry, services
from .access import Capability, access_procurement, organisation_of, require
from .forms import ProcurementForm, StageChangeForm, TokenForm, add_service_error
from .models import Procurement, Stage


def _error_page(request, status: int, title, text, reason=""):
    context = {
        "error_code": status,
        "error_title": title,
        "error_text": text,
        "error_reason": reason,
    }
    return render(request, f"{status}.html", context, status=status)


def permission_denied(request, exception=None):
    """403 page: what was refused and why (the role's rule, from ``access.require``)."""
    reason = str(exception) if exception and str(exception) else ""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": reason or _("Permission denied.")}, status=403)
    return _error_page(
        request,
        403,
        _("Not allowed"),
        _("Your account cannot open this page or do this action."),
        reason,
    )


def page_not_found(request, exception=None):
    """404 page; API paths answer JSON like the rest of the API."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return _error_page(
        request,
        404,
        _("Not found"),
        _("This page does not exist, or it belongs to another organisation."),
    )


SERVER_ERROR_FALLBACK = (
    '<!DOCTYPE html><html lang="zh-hans"><head><meta charset="utf-8">'
    "<title>ClusterBuy</title></head><body><main><h1>服务器错误</h1>"
    "<p>出错了，已记录。请稍后再试。</p>"
    '<p lang="en">Server error: something went wrong; it has been logged. '
    "Please try again later.</p></main></body></html>"
)


def server_error(request):
    """500 page in the user's language; a plain bilingual page if even that fails
    (the database may be what broke: the page's context reads the membership)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Server error.")}, status=500)
    try:
        return _error_page(
            request,
            500,
            _("Server error"),
            _("Something went wrong; it has been logged. Please try again later."),
        )
    except Exception:  # noqa: BLE001 - the last resort must not raise
        return HttpResponseServerError(SERVER_ERROR_FALLBACK)


def home(request):
    return redirect("procurement-list" if request.user.is_authenticated else "login")


def procurement_tabs(procurement: Procurement) -> list[dict]:
    result = []
    for slug, label, url_name in registry.tabs():
        try:
            url = reverse(url_name, kwargs={"pk": procurement.pk}) if url_name else None
        except NoReverseMatch:
            url = None
        if url is None:
            url = reverse(
                "procurement-tab", kwargs={"pk": procurement.pk, "slug": slug}
            )
        result.append({"slug": slug, "label": label, "url": url})
    return result


def render_procurement(request, procurement, template, context=None, active="overview"):
    """Render a page inside the procurement's tabbed frame (used by every app's tab)."""
    ctx = {
        "procurement": procurement,
        "tabs": procurement_tabs(procurement),
        "active_tab": active,
    }
    ctx.update(context or {})
    return render(request, template, ctx)


@login_required
def procurement_list(request):
    procurements = Procurement.objects.for_user(request.user).order_by("-updated_at")
    stage = request.GET.get("stage")
    if stage and stage.isdigit():
        procurements = procurements.filter(stage=int(stage))
    page = Paginator(procurements, 25).get_page(request.GET.get("page"))
    return render(
        request,
        "clusterbuy/procurement_list.html",
        {"page": page, "stages": Stage.choices, "stage": stage},
    )


@login_required
def procurement_create(request):
    require(request.user, Capability.EDIT_PROCUREMENT)
    organisation = organisation_of(request.user)
    form = ProcurementForm(request.POST or None, organisation=organisation)
    if request.method == "POST" and form.is_valid():
        try:
            procurement = services.create_procurement(
                organisation=organisation, user=request.user, **form.cleaned_data
            )
        except services.ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Procurement created."))
            return redirect("procurement-detail", pk=procurement.pk)
    return render(request, "clusterbuy/procurement_form.html", {"form": form})


@login_required
def procurement_edit(request, pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_PROCUREMENT)
    form = ProcurementForm(request.POST or None, instance=procurement)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_procurement(
                procurement=procurement, user=request.user, **form.cleaned_data
            )
        except services.ServiceError as exc:
            procurement.refresh_from_db()
            add_service_error(form, exc)
        else:
            messages.success(request, _("Procurement saved."))
            return redirect("procurement-detail", pk=procurement.pk)
    return render(
        request,
        "clusterbuy/procurement_form.html",
        {"form": form, "procurement": procurement},
    )


@login_required
def procurement_detail(request, pk):
    procurement = access_procurement(request.user, pk)
    context = {
        "checklist": services.stage_checklist(procurement),
        "stage_changes": procurement.stage_changes.select_related("changed_by")[:50],
        "events": _trail(procurement, request.user),
        "stage_form": StageChangeForm(
            initial={"to_stage": min(procurement.stage + 1, 5)}
        ),
        "next_stage": procurement.stage + 1
        if procurement.stage < Stage.DECISION
        else None,
        "next_stage_label": Stage(procurement.stage + 1).label
        if procurement.stage < Stage.DECISION
        else None,
    }
    return render_procurement(
        request, procurement, "clusterbuy/procurement_detail.html", context
    )


def _trail(procurement, user) -> list[registry.OverviewEvent]:
    """The overview's audit trail: the stage changes and the events the apps report
    (RFP, portal, opening, decision), newest first."""
    events = [
        registry.OverviewEvent(
            at=c.changed_at,
            actor=c.changed_by.username if c.changed_by else "—",
            text=(f"{c.get_from_stage_display()} → " if c.from_stage else "")
            + str(c.get_to_stage_display())
            + (f" — {c.note}" if c.note else ""),
        )
        for c in procurement.stage_changes.select_related("changed_by")[:50]
    ]
    events += registry.overview_events(procurement, user)
    return sorted(events, key=lambda e: e.at, reverse=True)[:100]


@login_required
def procurement_tab(request, pk, slug):
    """The empty state of a tab whose app has not registered it."""
    procurement = access_procurement(request.user, pk)
    return render_procurement(
        request, procurement, "clusterbuy/procurement_tab_empty.html", active=slug
    )


@login_required
@require_POST
def procurement_stage(request, pk):
    procurement = access_procurement(request.user, pk, Capability.ADVANCE_STAGE)
    form = StageChangeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a valid stage."))
        return redirect("procurement-detail", pk=pk)
    if form.cleaned_data["to_stage"] == Stage.DECISION:
        require(request.user, Capability.ADVANCE_STAGE)
    try:
        services.change_stage(
            procurement=procurement, user=request.user, **form.cleaned_data
        )
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Stage changed."))
    return redirect("procurement-detail", pk=pk)


@login_required
def api_tokens(request):
    require(request.user, Capability.MANAGE_TOKENS)
    organisation = organisation_of(request.user)
    form = TokenForm(request.POST or None, organisation=organisation)
    new_token = None
    if request.method == "POST":
        if "revoke" in request.POST:
            try:
                user_id = int(request.POST["revoke"])
                services.revoke_api_token(organisation=organisation, user_id=user_id)
                messages.success(request, _("Token revoked."))
            except ValueError:
                messages.error(request, _("No such token in your organisation."))
            except services.ServiceError as exc:
                messages.error(request, exc.message)
            return redirect("api-tokens")
        if form.is_valid():
            new_token = services.issue_api_token(
                organisation=organisation, username=form.cleaned_data["username"]
            )
            messages.success(
                request, _("Token created. Copy it now: it is shown once.")
            )
    tokens = Token.objects.filter(
        user__membership__organisation=organisation
    ).select_related("user")
    return render(
        request,
        "clusterbuy/api_tokens.html",
        {"form": form, "tokens": tokens, "new_token": new_token},
    )
