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
import math

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clusterbuy.services import ServiceError

from ..rfp.pack import pack_download
from . import questions, submissions
from .addenda import addendum_rows
from .correction_pages import corrections_context
from .feedback import shown_feedback
from .forms import (
    ContactForm,
    DeclarationsForm,
    EvidenceForm,
    QuestionForm,
    SubmissionForm,
    declarations_initial,
    initial_from,
)
from .notices import acknowledge_addendum
from .summary import PACK_FORMATS, rfp_summary
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
        # when the upload began arriving: the deadline is judged by it
        request.received_at = timezone.now()
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
    declared = latest.declarations if latest else {}
    return {
        "token": token,
        "rfp": rfp_summary(invitation),
        "pack_formats": PACK_FORMATS,
        "versions": [(v, shown_feedback(v.feedback)) for v in versions],
        "latest": latest,
        "evidence": submissions.evidence_of(invitation),
        "questions": questions.questions_for(invitation),
        "form": forms.get("form") or SubmissionForm(initial=initial),
        "declarations_form": forms.get("declarations_form")
        or DeclarationsForm(initial=declarations_initial(declared)),
        "contact_form": forms.get("contact_form")
        or ContactForm(initial=latest.contact if latest else {}),
        "declaration_gaps": submissions.declaration_gaps(invitation, declared),
        "evidence_form": forms.get("evidence_form") or EvidenceForm(),
        "question_form": forms.get("question_form") or QuestionForm(),
        "addenda": addendum_rows(invitation),
        **corrections_context(
            invitation, forms.get("answer_form"), forms.get("justification_form")
        ),
    }


@require_GET
@portal_page
def portal_home(request, invitation, *, token):
    return render(request, "vendors/portal/home.html", _home_context(invitation, token))


@require_POST
@portal_page
def portal_submit(request, invitation, *, token):
    form = SubmissionForm(request.POST, request.FILES)
    declared = DeclarationsForm(request.POST)
    contact = ContactForm(request.POST)
    try:
        submission = submissions.submit(
            invitation,
            fields=request.POST,
            proposal_text=request.POST.get("proposal_text", ""),
            workbook=request.FILES.get("workbook"),
            declarations=request.POST,
            contact=request.POST,
            now=request.received_at,
        )
    except submissions.PortalError as error:
        for shown in (form, declared, contact):
            shown.is_valid()  # the same rules: each form shows its messages by field
        if error.field:
            form.add_error(error.field, error.message)
        elif error.code != "invalid":
            form.add_error(None, error.message)
        context = _home_context(
            invitation,
            token,
            form=form,
            declarations_form=declared,
            contact_form=contact,
        )
        return render(request, "vendors/portal/home.html", context)
    messages.success(
        request,
        _("Version %(n)s received. It is being checked; its feedback appears below.")
        % {"n": submission.version},
    )
    return redirect("vendors:portal", token=token)


@require_GET
@portal_page
def portal_version(request, invitation, version: int, *, token):
    """One version's card (htmx polls it while the version is being checked)."""
    found = get_object_or_404(invitation.submissions, version=version)
    return render(
        request,
        "vendors/portal/_version.html",
        {
            "version": found,
            "fb": shown_feedback(found.feedback),
            "token": token,
            # the latest version's card is shown open, as on the whole page
            "open": not invitation.submissions.filter(version__gt=version).exists(),
        },
    )


def _form_post(request, invitation, token, form, *, key: str, field: str, act, done):
    """A portal form: on a valid form the service call (``act`` with the form's
    cleaned data), its refusal shown as the field's error; the home page again on
    failure."""
    if form.is_valid():
        try:
            act(form.cleaned_data)
        except submissions.PortalError as error:
            form.add_error(
                error.field if error.field in form.fields else field, error.message
            )
        else:
            messages.success(request, done)
            return redirect("vendors:portal", token=token)
    context = _home_context(invitation, token, **{key: form})
    # 200 as every HTML form of the app: a 400 document is a console error in the
    # vendor's browser (the API answers 400).
    return render(request, "vendors/portal/home.html", context)


@require_POST
@portal_page
def portal_evidence_add(request, invitation, *, token):
    return _form_post(
        request,
        invitation,
        token,
        EvidenceForm(request.POST, request.FILES),
        key="evidence_form",
        field="file",
        act=lambda data: submissions.add_evidence(
            invitation, data["file"], purpose=data.get("purpose") or ""
        ),
        done=_("File attached."),
    )


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
    return _form_post(
        request,
        invitation,
        token,
        QuestionForm(request.POST),
        key="question_form",
        field="question",
        act=lambda data: questions.ask_question(invitation, data["question"]),
        done=_("Question sent to the buyer."),
    )


@require_GET
@portal_page
def portal_pack(request, invitation, fmt: str, *, token):
    """The RFP pack in the reader's language, the buyer's own (`vendors.rfp.pack`)."""
    return pack_download(invitation.procurement, fmt, formats=PACK_FORMATS)


@require_POST
@portal_page
def portal_acknowledge(request, invitation, number: int, *, token):
    try:
        acknowledge_addendum(invitation, number=number)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Addendum %(n)s acknowledged.") % {"n": number})
    return redirect("vendors:portal", token=token)
