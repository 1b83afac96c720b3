"""The supplier portal's pages (no login: the signed link is the credential).

Every page goes through `portal_page`: the portal's rate limits first, then the link
(`tokens.invitation_for`), so a bad link is a translated 403 page that says whether it
is invalid, expired or revoked, and nothing of the procurement is read before the link
is checked. The vendor sees the RFP, its own versions with their feedback, its own
evidence and the questions (`questions.questions_for`); never another vendor's.

A refused form (a field out of bounds, a late or opened RFP, a file of the wrong
type) is the page again with its messages, answered 200 as every HTML form of the
app is: a 4xx document is a console error in the vendor's browser ("Failed to load
resource"). The portal's API answers 400.
"""

from __future__ import annotations

import functools
import importlib
import math

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from . import questions, submissions
from .feedback import shown_feedback
from .forms import EvidenceForm, QuestionForm, SubmissionForm, initial_from
from .summary import PACK_FORMATS, pack_available, rfp_summary
from .throttle import portal_wait_s
from .tokens import PortalLinkError, invitation_for

LINK_ERRORS = {
    "invalid": lambda: _(
        "This portal link is not valid. Use the link from your invitation e-mail, "
        "exactly as it was sent."
    ),
    "expired": lambda: _(
        "This portal link has expired. Ask the buyer to send you a new invitation."
    ),
    "revoked": lambda: _(
        "This invitation was withdrawn by the buyer; the link no longer works."
    ),
}


def link_error_page(request, code: str):
    return render(
        request,
        "vendors/portal/link_error.html",
        {"code": code, "message": LINK_ERRORS.get(code, LINK_ERRORS["invalid"])()},
        status=403,
    )


def throttled_page(request, wait_s: float):
    response = render(
        request,
        "vendors/portal/throttled.html",
        {"wait_s": math.ceil(wait_s)},
        status=429,
    )
    response["Retry-After"] = str(math.ceil(wait_s))
    return response


def portal_page(view):
    """Rate limits, then the link; the view gets the invitation after ``request``."""

    @never_cache
    @functools.wraps(view)
    def wrapped(request, token: str, *args, **kwargs):
        wait_s = portal_wait_s(request, token)
        if wait_s is not None:
            return throttled_page(request, wait_s)
        try:
            invitation = invitation_for(token)
        except PortalLinkError as error:
            return link_error_page(request, error.code)
        response = view(request, invitation, *args, token=token, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped


def _home_context(invitation, token: str, **forms) -> dict:
    versions = submissions.submissions_of(invitation)
    latest = versions[0] if versions else None
    initial = initial_from(latest.fields, latest.proposal_text) if latest else {}
    return {
        "token": token,
        "rfp": rfp_summary(invitation),
        "pack_formats": PACK_FORMATS if pack_available() else (),
        "versions": [(v, shown_feedback(v.feedback)) for v in versions],
        "latest": latest,
        "evidence": submissions.evidence_of(invitation),
        "questions": questions.questions_for(invitation),
        "form": forms.get("form") or SubmissionForm(initial=initial),
        "evidence_form": forms.get("evidence_form") or EvidenceForm(),
        "question_form": forms.get("question_form") or QuestionForm(),
    }


@require_GET
@portal_page
def portal_home(request, invitation, *, token):
    return render(request, "vendors/portal/home.html", _home_context(invitation, token))


@require_POST
@portal_page
def portal_submit(request, invitation, *, token):
    form = SubmissionForm(request.POST, request.FILES)
    try:
        submission = submissions.submit(
            invitation,
            fields=request.POST,
            proposal_text=request.POST.get("proposal_text", ""),
            workbook=request.FILES.get("workbook"),
        )
    except submissions.PortalError as error:
        form.is_valid()  # the same rules: the form shows their messages by field
        if error.field:
            form.add_error(error.field, error.message)
        elif error.code != "invalid":
            form.add_error(None, error.message)
        context = _home_context(invitation, token, form=form)
        return render(request, "vendors/portal/home.html", context)
    messages.success(
        request,
        _("Version %(n)s submitted. Its feedback is below.")
        % {"n": submission.version},
    )
    return redirect("vendors:portal", token=token)


@require_POST
@portal_page
def portal_evidence_add(request, invitation, *, token):
    form = EvidenceForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            submissions.add_evidence(invitation, form.cleaned_data["file"])
        except submissions.PortalError as error:
            form.add_error("file", error.message)
        else:
            messages.success(request, _("File attached."))
            return redirect("vendors:portal", token=token)
    context = _home_context(invitation, token, evidence_form=form)
    return render(request, "vendors/portal/home.html", context)


@require_POST
@portal_page
def portal_evidence_remove(request, invitation, evidence_pk: int, *, token):
    try:
        submissions.remove_evidence(invitation, evidence_pk)
    except submissions.PortalError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("File removed."))
    return redirect("vendors:portal", token=token)


@require_POST
@portal_page
def portal_question(request, invitation, *, token):
    form = QuestionForm(request.POST)
    if form.is_valid():
        try:
            questions.ask_question(invitation, form.cleaned_data["question"])
        except submissions.PortalError as error:
            form.add_error("question", error.message)
        else:
            messages.success(request, _("Question sent to the buyer."))
            return redirect("vendors:portal", token=token)
    context = _home_context(invitation, token, question_form=form)
    return render(request, "vendors/portal/home.html", context)


@require_GET
@portal_page
def portal_pack(request, invitation, fmt: str, *, token):
    """The RFP pack in the reader's language (`vendors.rfp.pack`, built by the RFP
    side; 404 until it is installed)."""
    if fmt not in PACK_FORMATS or not pack_available():
        raise Http404("no such RFP format")
    pack = importlib.import_module("vendors.rfp.pack")
    data, content_type, filename = pack.rfp_pack(
        invitation.procurement, fmt, language=get_language()
    )
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
