"""The committee page's abnormally-low-price controls (87号令 第六十条): ask the vendor
of a flagged bid for its written justification, record the committee's judgement
(`vendors.services.price_justifications`). htmx swaps the page's main block; without
JavaScript the form posts and the page reloads."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import access_procurement
from clusterbuy.services import ServiceError

from ..models import Bid, Judgement
from ..services import price_justifications
from ..visibility import visibility_for


def justification_context(procurement, user) -> dict:
    return {
        "justifications": price_justifications.justification_board(
            procurement=procurement, user=user
        ),
        "may_judge": price_justifications.may_judge(procurement, user),
        "sealed_attachments": visibility_for(
            procurement=procurement, user=user
        ).attachments_sealed,
        "judgements": Judgement.choices,
    }


def _bid(procurement, request) -> Bid:
    try:
        bid_pk = int(request.POST.get("bid", ""))
    except ValueError:
        bid_pk = None
    return get_object_or_404(Bid.objects.for_procurement(procurement), pk=bid_pk)


def _done(request, pk, act, success: str):
    try:
        act()
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    url = reverse("vendors:committee", kwargs={"pk": pk})
    return redirect(f"{url}#price-justifications")


@login_required
@require_POST
def justification_request(request, pk):
    procurement = access_procurement(request.user, pk)
    bid = _bid(procurement, request)
    return _done(
        request,
        pk,
        lambda: price_justifications.request_justification(
            bid=bid, user=request.user, note=request.POST.get("note", "")
        ),
        _("Justification asked: the vendor answers through its portal link."),
    )


@login_required
@require_POST
def justification_judgement(request, pk):
    procurement = access_procurement(request.user, pk)
    bid = _bid(procurement, request)
    return _done(
        request,
        pk,
        lambda: price_justifications.judge_justification(
            bid=bid,
            user=request.user,
            judgement=request.POST.get("judgement", ""),
            note=request.POST.get("note", ""),
        ),
        _("The committee's judgement is recorded."),
    )
