"""The opening of an RFP's sealed submissions: after the deadline an administrator
(two different administrators when the RFP asks for a two-person opening) turns each
invitation's latest version into a bid, in one transaction, once.

Until then a submission is not a bid and no buyer role sees anything of it; the
opening is the one place that reads submissions for the buyer, and it is audited
(who, when, how many submissions, which invitations had none, which were revoked).
A revoked invitation is not opened, even with a submission: the buyer withdrew it,
so its versions stay sealed and it is listed "revoked, not opened".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from django.core.files.base import ContentFile
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clusterbuy.access import Capability, can, require
from clusterbuy.models import Procurement
from clusterbuy.services import ConflictError, ServiceError

from ..engine.fields import BID_FIELDS
from ..models import (
    AuditAction,
    Bid,
    BidAttachment,
    Invitation,
    RfpSettings,
    Submission,
)
from ..rfp.versions import latest_version
from ..services import stages
from ..services.audit import record_audit
from ..services.bids import create_bid
from ..services.committee_collusion import set_bid_contact
from .checking import checks_pending_before

DESCRIPTION_MAX_CHARS = 500
# A submission's `fields` (the proposal text is a column of its own).
SUBMITTED_FIELDS = tuple(f for f in BID_FIELDS if f != "proposal_text")


@dataclass(frozen=True)
class OpeningResult:
    """What a press on "Open" did: recorded the first of two persons, or opened."""

    opened: bool
    bids: list[Bid] = field(default_factory=list)
    submissions: int = 0
    without_submission: list[str] = field(default_factory=list)
    revoked_not_opened: list[str] = field(default_factory=list)


def opening_refusal(rfp: RfpSettings | None, user, *, now=None) -> str | None:
    """Why ``user`` cannot open (or ask to open) now, or None when they can; pages
    show it next to the disabled control."""
    if not can(user, Capability.OPEN_SUBMISSIONS):
        return _("Only an administrator can open the submissions.")
    if rfp is not None and rfp.is_open:
        return _("The submissions are already open.")
    if rfp is None or rfp.deadline is None:
        return _("The RFP has no deadline yet: set one before opening.")
    if (now or timezone.now()) <= rfp.deadline:
        return _("The submissions can be opened only after the deadline.")
    if (
        rfp.opening_requested_by_id is not None
        and rfp.opening_requested_by_id == getattr(user, "pk", None)
    ):
        # Whatever the rule says now, who asked never confirms.
        return _("You asked for this opening: a second administrator must confirm it.")
    return None


def _locked_rfp(procurement: Procurement, user, now) -> RfpSettings:
    require(user, Capability.OPEN_SUBMISSIONS)
    RfpSettings.objects.get_or_create(procurement=procurement)
    rfp = RfpSettings.objects.select_for_update().get(procurement=procurement)
    if rfp.is_open:
        raise ConflictError(_("The submissions are already open."))
    reason = opening_refusal(rfp, user, now=now)
    if reason is not None:
        raise ServiceError(reason)
    version = latest_version(procurement)
    if version is not None and version.two_person_opening != rfp.two_person_opening:
        # The rule is the published one (`RfpVersion`), changed only by an addendum.
        raise ServiceError(_("The opening rule differs from the published RFP."))
    return rfp


@transaction.atomic
def request_opening(
    procurement: Procurement, user, now: datetime | None = None
) -> RfpSettings:
    """The first administrator's half of a two-person opening."""
    now = now or timezone.now()
    rfp = _locked_rfp(procurement, user, now)
    if not rfp.two_person_opening:
        raise ServiceError(_("This RFP opens with one administrator: open it."))
    if rfp.opening_requested_by_id is not None:
        raise ServiceError(
            _("The opening is already asked for: a second administrator confirms it.")
        )
    rfp.opening_requested_by = user
    rfp.opening_requested_at = now
    rfp.save(update_fields=["opening_requested_by", "opening_requested_at"])
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.OPENING,
        target="requested",
        old="",
        new={"requested_by": user.get_username(), "requested_at": now.isoformat()},
    )
    return rfp


@transaction.atomic
def open_submissions(
    procurement: Procurement, user, now: datetime | None = None
) -> OpeningResult:
    """Open the sealed submissions, or, on a two-person RFP nobody has asked to open
    yet, record this administrator as the first person (`request_opening`)."""
    now = now or timezone.now()
    rfp = _locked_rfp(procurement, user, now)
    if rfp.two_person_opening and rfp.opening_requested_by_id is None:
        request_opening(procurement, user, now)
        return OpeningResult(opened=False)
    _refuse_while_checking(procurement, rfp)
    bids, submissions, without, revoked = [], 0, [], []
    invitations = Invitation.objects.filter(procurement=procurement).select_related(
        "vendor"
    )
    for invitation in invitations.order_by("id"):
        if invitation.revoked:
            # The buyer withdrew the invitation: whatever it sent stays sealed.
            revoked.append(invitation.vendor.name)
            continue
        versions = list(
            # judged at receipt (`submissions.submit`), as the portal accepted it
            invitation.submissions.filter(received_at__lte=rfp.deadline).order_by(
                "version"
            )
        )
        if not versions:
            without.append(invitation.vendor.name)
            continue
        bid = _bid_from(invitation, versions[-1], user)
        Submission.objects.filter(invitation=invitation).update(bid=bid)
        bids.append(bid)
        submissions += len(versions)
    rfp.opened_by = user
    rfp.opened_at = now
    rfp.save(update_fields=["opened_by", "opened_at"])
    stages.on_opened(procurement, user)
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.OPENING,
        target="opened",
        old="",
        new={
            "opened_by": user.get_username(),
            "requested_by": rfp.opening_requested_by.get_username()
            if rfp.opening_requested_by
            else None,
            "opened_at": now.isoformat(),
            "invitations": len(bids) + len(without) + len(revoked),
            "submissions": submissions,
            "bids": len(bids),
            "without_submission": without,
            "revoked_not_opened": revoked,
        },
    )
    return OpeningResult(
        opened=True,
        bids=bids,
        submissions=submissions,
        without_submission=without,
        revoked_not_opened=revoked,
    )


def _refuse_while_checking(procurement: Procurement, rfp: RfpSettings) -> None:
    """Versions received by the deadline whose check has not finished: each was
    accepted, so the opening waits for them rather than open an older version."""
    pending = checks_pending_before(procurement.pk, rfp.deadline)
    if pending:
        raise ConflictError(
            ngettext(
                "%(n)s submission received before the deadline is still being "
                "checked: open again in a minute.",
                "%(n)s submissions received before the deadline are still being "
                "checked: open again in a minute.",
                pending,
            )
            % {"n": pending}
        )


def opened_versions(procurement: Procurement) -> dict[int, list[Submission]]:
    """Per opened invitation its versions, newest first; nothing before the opening
    and nothing of a revoked invitation (not opened, `open_submissions`). The one
    read of submissions for the buyer's page and API."""
    rfp = RfpSettings.objects.filter(procurement=procurement).first()
    if rfp is None or not rfp.is_open:
        return {}
    rows = Submission.objects.filter(
        invitation__procurement=procurement, invitation__revoked=False
    )
    by_invitation: dict[int, list[Submission]] = {}
    for row in rows.order_by("invitation_id", "-version"):
        by_invitation.setdefault(row.invitation_id, []).append(row)
    return by_invitation


def _bid_from(invitation: Invitation, latest: Submission, user) -> Bid:
    """The bid of one vendor: the latest version's fields and line items, its
    declarations (as the vendor's claims, for the buyer to accept) and its 投标函
    contact facts, with the evidence (and the uploaded workbook) as its attachments,
    each keeping its purpose."""
    try:
        items = [
            {
                "category": item["category"],
                "description": str(item.get("description", ""))[:DESCRIPTION_MAX_CHARS],
                "quantity": Decimal(str(item["quantity"])),
                "unit_price": Decimal(str(item["unit_price"])),
                "recurring": bool(item.get("recurring", False)),
                "year_from": item.get("year_from"),
                "year_to": item.get("year_to"),
                "scope": list(item.get("scope") or []),
            }
            for item in latest.line_items
        ]
        bid = create_bid(
            procurement=invitation.procurement,
            vendor=invitation.vendor,
            user=user,
            line_items=items,
            **{k: v for k, v in latest.fields.items() if k in SUBMITTED_FIELDS},
            proposal_text=latest.proposal_text,
        )
    except ServiceError as exc:
        raise _refusal(invitation, exc.message) from exc
    except (KeyError, TypeError, ValueError, ArithmeticError, DatabaseError) as exc:
        # The portal validates every version; a row written past it is refused here
        # by name rather than opened half.
        raise _refusal(invitation, _("its line items cannot be read")) from exc
    _carry_declarations(bid, latest)
    if any(latest.contact.values()):
        set_bid_contact(bid=bid, user=user, **latest.contact)
    for evidence in invitation.evidence.filter(removed=False):
        _attach(
            bid,
            user,
            evidence.file,
            evidence.original_name,
            evidence.kind,
            evidence.purpose,
        )
    if latest.workbook:
        name = latest.workbook_name or "bid.xlsx"
        _attach(bid, user, latest.workbook, name, "xlsx")
    return Bid.objects.get(pk=bid.pk)


def _carry_declarations(bid: Bid, latest: Submission) -> None:
    """What the vendor declared, never what the buyer accepted (`declarations`)."""
    declared = latest.declarations or {}
    share = declared.get("domestic_cost_share_pct")
    bid.sme_claimed = bool(declared.get("sme"))
    bid.domestic_claimed = bool(declared.get("domestic"))
    bid.domestic_cost_share_pct = None if share is None else Decimal(str(share))
    bid.save(
        update_fields=["sme_claimed", "domestic_claimed", "domestic_cost_share_pct"]
    )


def _refusal(invitation: Invitation, reason: str) -> ServiceError:
    return ServiceError(
        _("Cannot open the submission of %(vendor)s: %(reason)s")
        % {"vendor": invitation.vendor.name, "reason": reason}
    )


def _attach(
    bid: Bid, user, source, original_name: str, kind: str, purpose: str = "general"
) -> BidAttachment:
    with source.open("rb") as handle:
        data = handle.read()
    attachment = BidAttachment(
        bid=bid,
        original_name=original_name[:255],
        kind=kind,
        size_bytes=len(data),
        purpose=purpose,
        uploaded_by=user,
    )
    stem = get_valid_filename(original_name.rsplit(".", 1)[0] or "attachment")
    attachment.file.save(f"{stem}.{kind}", ContentFile(data), save=False)
    attachment.save()
    return attachment
