"""The vendor's side of corrections in the portal: the buyer's requests on its opened
bid, and its answer (confirm, clarify or decline) through its signed link."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.services import ServiceError

from ..models import CorrectionStatus
from ..services import corrections
from .correction_forms import CorrectionAnswerForm


def corrections_context(invitation, form=None) -> dict:
    shown = corrections.corrections_for_invitation(invitation)
    return {
        "corrections": shown,
        "pending_corrections": [
            c for c in shown if c.status == CorrectionStatus.PENDING
        ],
        "answer_form": form or CorrectionAnswerForm(),
    }


def _portal_page(view):
    from .views import portal_page  # the portal's link and rate-limit check

    return portal_page(view)


@require_POST
def portal_correction(request, token: str, correction_pk: int):
    return _portal_page(_answer)(request, token, correction_pk)


def _answer(request, invitation, correction_pk: int, *, token):
    """A refused answer (no reason to decline, a request already answered) is the
    page again with the form's error, 200 as the portal's other forms."""
    from .views import _home_context

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
