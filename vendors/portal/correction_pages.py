"""What the pages show of corrections: the bid page's lock note, requests and request
form (buyer), and the portal's requests with the answer form (vendor)."""

from __future__ import annotations

from clusterbuy.access import Capability, can

from ..models import CorrectionStatus
from ..services import corrections, opened_bids, price_justifications
from .correction_forms import (
    CorrectionAnswerForm,
    CorrectionRequestForm,
    JustificationAnswerForm,
)


def corrections_context(invitation, form=None, justification_form=None) -> dict:
    """The buyer's requests on the opened bid: corrections and clarifications, and
    the committee's requests to justify an abnormally low price."""
    shown = corrections.corrections_for_invitation(invitation)
    asked = price_justifications.justifications_for_invitation(invitation)
    return {
        "corrections": shown,
        "pending_corrections": [
            c for c in shown if c.status == CorrectionStatus.PENDING
        ],
        "answer_form": form or CorrectionAnswerForm(),
        "justifications": asked,
        "pending_justifications": [j for j in asked if j.state == "requested"],
        "justification_form": justification_form or JustificationAnswerForm(),
    }


def _shown(correction, redact) -> dict:
    """One request as the page shows it, its texts redacted as the viewer reads them
    (blind grading: `Visibility.redact`)."""
    return {
        "pk": correction.pk,
        "kind": correction.get_kind_display(),
        "status": correction.status,
        "status_label": correction.get_status_display(),
        "what": redact(correction.what),
        "why": redact(correction.why),
        "response": redact(correction.response),
        "changes": [
            {**c, "description": redact(c["description"])} for c in correction.changes
        ],
        "requested_by": getattr(correction.requested_by, "username", ""),
        "requested_at": correction.requested_at,
        "responded_at": correction.responded_at,
        "bid_version": correction.bid_version,
    }


def bid_corrections_context(user, bid, *, form=None, redact=str) -> dict:
    """The bid page's lock note, its corrections and the request form."""
    refusal = opened_bids.edit_refusal(bid)
    portal = corrections.portal_invitation(bid) is not None
    shown = corrections.corrections_for_bid(bid) if portal else []
    return {
        "locked": refusal is not None,
        "locked_note": refusal[1] if refusal else "",
        "corrections": [_shown(c, redact) for c in shown],
        "correction_form": form or CorrectionRequestForm(bid=bid)
        if portal and can(user, Capability.EDIT_VENDORS)
        else None,
    }
