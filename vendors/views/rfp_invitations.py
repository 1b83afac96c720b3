"""The buyer's RFP invitations page: invite, resend, revoke, answer questions, open.

Before the opening the page shows invitations only (vendor, address, sent, expiry,
revoked): nothing of a submission, not even whether one exists.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, can
from clusterbuy.forms import add_service_error
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from .. import visibility
from ..models import Invitation, RfpQuestion, RfpSettings
from ..portal import answers, invitations, opening
from ..portal.buyer_forms import AnswerForm, InvitationForm


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def _page(request, procurement, form=None):
    user = request.user
    can_edit = can(user, Capability.EDIT_VENDORS)
    rfp = RfpSettings.objects.filter(procurement=procurement).first()
    shown = visibility.visibility_for(procurement=procurement, user=user)
    versions = opening.opened_versions(procurement)
    rows = [
        {"invitation": inv, "versions": versions.get(inv.pk, [])}
        for inv in Invitation.objects.filter(procurement=procurement).select_related(
            "vendor"
        )
    ]
    now = timezone.now()
    return render_procurement(
        request,
        procurement,
        "vendors/rfp_invitations.html",
        {
            "rfp": rfp,
            "rows": rows,
            "blind": shown.blind,
            "form": form
            or InvitationForm(organisation=procurement.organisation, editable=can_edit),
            "can_edit": can_edit,
            "questions": answers.questions_for_buyer(procurement, shown),
            "answer_form": AnswerForm(),
            "deadline_passed": bool(rfp and rfp.deadline and rfp.deadline < now),
            "open_refusal": opening.opening_refusal(rfp, user, now=now),
        },
        active="rfp",
    )


@login_required
def rfp_invitations(request, pk):
    procurement = access_procurement(request.user, pk)
    if request.method != "POST":
        return _page(request, procurement)
    access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    form = InvitationForm(request.POST, organisation=procurement.organisation)
    if form.is_valid():
        try:
            invitation = invitations.invite(
                procurement,
                request.user,
                request_base_url=_base_url(request),
                **form.cleaned_data,
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Invitation sent to %(email)s.") % {"email": invitation.email},
            )
            return redirect("vendors:rfp-invitations", pk=pk)
    return _page(request, procurement, form=form)


def _invitation_or_404(procurement, inv_pk) -> Invitation:
    return get_object_or_404(
        Invitation.objects.filter(procurement=procurement).select_related(
            "vendor", "procurement"
        ),
        pk=inv_pk,
    )


@login_required
@require_POST
def invitation_resend(request, pk, inv_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    invitation = _invitation_or_404(procurement, inv_pk)
    try:
        invitations.resend(
            invitation, request.user, request_base_url=_base_url(request)
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Invitation sent to %(email)s.") % {"email": invitation.email}
        )
    return redirect("vendors:rfp-invitations", pk=pk)


@login_required
@require_POST
def invitation_revoke(request, pk, inv_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    invitations.revoke(_invitation_or_404(procurement, inv_pk), request.user)
    messages.success(request, _("Invitation revoked: its links no longer work."))
    return redirect("vendors:rfp-invitations", pk=pk)


@login_required
@require_POST
def question_answer(request, pk, q_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    question = get_object_or_404(RfpQuestion, procurement=procurement, pk=q_pk)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write an answer."))
    else:
        try:
            answers.answer_question(
                question,
                request.user,
                form.cleaned_data["answer"],
                published_question=form.cleaned_data["published_question"] or None,
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Answer published to every invited vendor."))
    return redirect("vendors:rfp-invitations", pk=pk)


@login_required
@require_POST
def question_review(request, pk, q_pk):
    """The redaction step: the question and the draft answer as the vendors would
    read them (names and aliases masked), editable, before publishing."""
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    question = get_object_or_404(RfpQuestion, procurement=procurement, pk=q_pk)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write an answer."))
        return redirect("vendors:rfp-invitations", pk=pk)
    redaction = answers.redact_for_vendors(question, form.cleaned_data["answer"])
    return render_procurement(
        request,
        procurement,
        "vendors/question_review.html",
        {"question": question, "redaction": redaction},
        active="rfp",
    )


@login_required
@require_POST
def rfp_open(request, pk):
    procurement = access_procurement(request.user, pk, Capability.OPEN_SUBMISSIONS)
    try:
        result = opening.open_submissions(procurement, request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if result.opened:
            messages.success(
                request,
                _("Opened: %(bids)s bids from %(versions)s submitted versions.")
                % {"bids": len(result.bids), "versions": result.submissions},
            )
            if result.revoked_not_opened:
                messages.info(
                    request,
                    _("Revoked, not opened: %(vendors)s.")
                    % {"vendors": ", ".join(result.revoked_not_opened)},
                )
        else:
            messages.success(
                request,
                _("Opening requested: a second administrator must confirm it."),
            )
    return redirect("vendors:rfp-invitations", pk=pk)
