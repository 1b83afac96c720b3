"""Opened bids are immutable (issue 22): the one rule of who may still edit a bid.

A bid opened from a vendor's sealed portal submission is the vendor's document: from
the opening on, the buyer can neither edit its fields nor add, remove or import its
line items, nor delete it. What the buyer may do is ask the vendor for an arithmetic
correction or a clarification (`vendors.services.corrections`), which becomes the
bid's next version once the vendor confirms it in the portal. A hand-keyed bid (typed
in by the buyer, no portal submission behind it) stays editable until a decision is
recorded: from then on every bid of the procurement stays as the decision saw it.

Every write to a bid locks it first (`bid_versions.lock_bid`), and the lock asks
`edit_refusal`, so the pages, the API and the importer refuse alike (the API: 409).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from clusterbuy.services import ConflictError

from ..models import Bid, Decision, Submission


class OpenedBidError(ConflictError):
    """A write to a bid that can no longer be edited."""

    def __init__(self, message: str, *, code: str):
        super().__init__(message, details={"code": code})
        self.code = code


def is_portal_bid(bid: Bid) -> bool:
    """Whether the bid was opened from a vendor's portal submission."""
    return Submission.objects.filter(bid=bid).exists()


def edit_refusal(bid: Bid) -> tuple[str, str] | None:
    """(code, why) when the bid can no longer be edited by the buyer; None while it
    can. Pages show ``why`` in place of the edit controls."""
    if is_portal_bid(bid):
        return "opened", _(
            "This bid was opened from the vendor's sealed submission, so it can no "
            "longer be edited, imported into or deleted. Ask the vendor for an "
            "arithmetic correction or a clarification instead: it becomes a new "
            "version of the bid once the vendor confirms it."
        )
    if Decision.objects.filter(procurement_id=bid.procurement_id).exists():
        return "decided", _(
            "A decision was recorded on these bids, so they can no longer be edited."
        )
    return None


def ensure_editable(bid: Bid) -> None:
    refusal = edit_refusal(bid)
    if refusal is not None:
        raise OpenedBidError(refusal[1], code=refusal[0])
