"""The vendor's answer to a correction request in the portal (confirm, clarify or
decline) and to a request to justify an abnormally low price, through its signed
link; the requests show on the portal's home page (`vendors.portal.correction_pages`)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.services import ServiceError

from ..portal.correction_forms import CorrectionAnswerForm, JustificationAnswerForm
from ..portal.views import _home_context, portal_page
from ..services import corrections, price_justifications


@require_POST
@portal_page
def portal_correction(request, invitation, correction_pk: int, *, token):
    """A refused answer (no reason to decline, a request already answered) is the
    page again with the form's error, 200 as the portal's other forms."""
    form = CorrectionAnswerForm(request.POST)
    confirm = request.POST.get("answer") == "confirm"
    if form.is_valid():
        try:
            corrections.respond_to_correction(
                invitation=invitation,
                correction_id=correction_pk,
                confirm=confirm,
                response=form.cleaned_data["response"],
            )
        except ServiceError as exc:
            form.add_error("response" if exc.field == "response" else None, exc.message)
        else:
            messages.success(
                request,
                _("Confirmed: your bid's new version is recorded.")
                if confirm
                else _("Your answer was sent to the buyer."),
            )
            return redirect("vendors:portal", token=token)
    context = _home_context(invitation, token, answer_form=form)
    return render(request, "vendors/portal/home.html", context)


@require_POST
@portal_page
def portal_justification(request, invitation, justification_pk: int, *, token):
    """The vendor's written justification of an abnormally low price (87号令
    第六十条); a refusal is the page again with the form's error (200)."""
    form = JustificationAnswerForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            price_justifications.respond_to_justification(
                invitation=invitation,
                justification_id=justification_pk,
                response=form.cleaned_data["response"],
                proof=form.cleaned_data.get("proof"),
            )
        except ServiceError as exc:
            field = exc.field if exc.field in form.fields else None
            form.add_error(field, exc.message)
        else:
            messages.success(request, _("Your justification was sent to the buyer."))
            return redirect("vendors:portal", token=token)
    context = _home_context(invitation, token, justification_form=form)
    return render(request, "vendors/portal/home.html", context)
