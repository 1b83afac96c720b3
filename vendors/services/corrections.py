"""Arithmetic corrections and clarifications of an opened bid.

The buyer never edits an opened bid (`opened_bids`); it asks the vendor, in writing,
what it needs corrected or clarified, and the vendor answers through its portal link.
This is the written procedure of 政府采购货物和服务招标投标管理办法 (财政部令第87号):

- 第五十一条: for content that is unclear, inconsistent or has obvious clerical or
  calculation errors, the evaluation committee asks the bidder in writing for the
  necessary 澄清、说明或者补正; the bidder answers in writing, and its answer
  "不得超出投标文件的范围或者改变投标文件的实质性内容".
- 第五十九条: inconsistent prices are corrected in a set order (among them, a total
  that disagrees with the sum of the unit prices follows the unit prices; a unit price
  with an evidently misplaced decimal point follows the total), and "修正后的报价
  按照本办法第五十一条第二款的规定经投标人确认后产生约束力，投标人不确认的，其投标
  无效".

The primary text of Order No. 87 is not among the statutes the project's search tool
holds (it holds the 政府采购法, its 实施条例 and the 招标投标法实施条例); the wording
above follows the order as commonly published (secondary sources), and is checked
against the MOF's text by nobody yet.

Hence: an arithmetic correction may change only a line item's quantity or unit price
(never what is offered); a clarification changes no figure and records the vendor's
written answer. Either binds only once the vendor confirms it; a confirmed request is
applied as the bid's next version (`bid_versions`), with who asked, why and what the
vendor answered, in the audit trail. A declined arithmetic correction is recorded
with the vendor's reason; what follows from it (Art. 59: the bid is invalid) is the
committee's decision, not this function's.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.services import ServiceError

from ..models import (
    AuditAction,
    Bid,
    BidCorrection,
    BidLineItem,
    CorrectionKind,
    CorrectionStatus,
    Invitation,
    Submission,
)
from .audit import record_audit
from .bid_versions import lock_bid, mark_changed
from .caching import bump_comparison_version

#: What an arithmetic correction may change: the figures a price is computed from.
ARITHMETIC_FIELDS = ("quantity", "unit_price")


def portal_invitation(bid: Bid) -> Invitation | None:
    """The invitation whose submission was opened as ``bid`` (None: hand-keyed)."""
    submission = Submission.objects.filter(bid=bid).select_related("invitation").first()
    return None if submission is None else submission.invitation


def _changes(bid: Bid, changes: list[dict]) -> list[dict]:
    """The requested changes checked against the bid's own line items and the line
    item's field rules; stored with the old value, as plain strings."""
    checked = []
    for change in changes:
        field = change.get("field")
        if field not in ARITHMETIC_FIELDS:
            raise ServiceError(
                _("An arithmetic correction changes a quantity or a unit price."),
                field="changes",
            )
        item = BidLineItem.objects.filter(bid=bid, pk=change.get("line_item")).first()
        if item is None:
            raise ServiceError(_("No such line item."), field="line_item")
        try:
            new = Decimal(str(change.get("new")))
        except InvalidOperation:
            raise ServiceError(_("Enter a number."), field=field) from None
        old = getattr(item, field)
        if new == old:
            raise ServiceError(
                _("The corrected value is the value the bid already has."), field=field
            )
        setattr(item, field, new)
        try:
            item.full_clean(exclude=["bid"])
        except ValidationError as exc:
            message = "; ".join(exc.message_dict.get(field, exc.messages))
            raise ServiceError(message, field=field) from None
        checked.append(
            {
                "line_item": item.pk,
                "description": item.description,
                "field": field,
                "old": str(old),
                "new": str(new),
            }
        )
    return checked


@transaction.atomic
def request_correction(
    *, bid: Bid, user, kind: str, what: str, why: str, changes: list[dict] = ()
) -> BidCorrection:
    """The buyer asks the vendor of an opened portal bid to confirm a correction or
    to clarify; the vendor sees it in its portal (`corrections_for_invitation`)."""
    if not can(user, Capability.EDIT_VENDORS):
        raise ServiceError(_("Only the procurement team can ask the vendor."))
    invitation = portal_invitation(bid)
    if invitation is None:
        raise ServiceError(
            _(
                "Corrections are asked of the vendor through its portal link: this "
                "bid was not submitted through the portal."
            )
        )
    if kind not in CorrectionKind.values:
        raise ServiceError(_("Choose the kind of request."), field="kind")
    if not what.strip():
        raise ServiceError(_("Say what is to be corrected or clarified."), field="what")
    if not why.strip():
        raise ServiceError(_("Say why."), field="why")
    lock_bid(bid, correction=True)
    checked = _changes(bid, list(changes)) if kind == CorrectionKind.ARITHMETIC else []
    if kind == CorrectionKind.ARITHMETIC and not checked:
        raise ServiceError(
            _("Name the line item and its corrected quantity or unit price."),
            field="line_item",
        )
    correction = BidCorrection.objects.create(
        bid=bid,
        invitation=invitation,
        kind=kind,
        what=what.strip(),
        why=why.strip(),
        changes=checked,
        requested_by=user,
    )
    record_audit(
        procurement=bid.procurement,
        bid=bid,
        actor=user,
        action=_audit_action(correction),
        target="correction requested",
        old="",
        new=_described(correction, "new")
        + f"\nWhat: {correction.what}\nWhy: {correction.why}",
    )
    return correction


def _audit_action(correction: BidCorrection) -> str:
    """Arithmetic corrections carry prices: line-item entries, sealed like the lines
    under a sealed envelope (`audit.visible_audit`)."""
    if correction.kind == CorrectionKind.ARITHMETIC:
        return AuditAction.LINE_ITEM
    return AuditAction.BID


def _described(correction: BidCorrection, side: str) -> str:
    head = f"#{correction.pk} {correction.get_kind_display()}"
    lines = [f"{c['description']} · {c['field']} {c[side]}" for c in correction.changes]
    return "\n".join([head, *lines])


def _apply(correction: BidCorrection, bid: Bid) -> None:
    for change in correction.changes:
        item = BidLineItem.objects.get(bid=bid, pk=change["line_item"])
        setattr(item, change["field"], Decimal(change["new"]))
        item.full_clean(exclude=["bid"])
        item.save(update_fields=[change["field"]])


@transaction.atomic
def respond_to_correction(
    *, invitation: Invitation, correction_id: int, confirm: bool, response: str
) -> BidCorrection:
    """The vendor's answer through its link: a confirmed request becomes the bid's
    next version; a declined one keeps the bid as it is, with the vendor's reason."""
    correction = (
        BidCorrection.objects.select_for_update()
        .filter(pk=correction_id, invitation=invitation)
        .first()
    )
    if correction is None:
        raise ServiceError(_("No such request."), field="correction")
    if correction.status != CorrectionStatus.PENDING:
        raise ServiceError(_("This request was already answered."), field="correction")
    response = response.strip()
    needs_text = not confirm or correction.kind == CorrectionKind.CLARIFICATION
    if needs_text and not response:
        message = (
            _("Give your clarification.")
            if confirm
            else _("Say why you decline the request.")
        )
        raise ServiceError(message, field="response")
    bid = lock_bid(correction.bid, correction=True)
    if confirm:
        _apply(correction, bid)
        mark_changed(bid, user=None)
        correction.bid_version = bid.version
        bump_comparison_version()
    correction.status = (
        CorrectionStatus.CONFIRMED if confirm else CorrectionStatus.DECLINED
    )
    correction.response = response
    correction.responded_at = timezone.now()
    correction.save()
    version = f"\nBid version: {correction.bid_version}" if confirm else ""
    record_audit(
        procurement=bid.procurement,
        bid=bid,
        actor=None,
        action=_audit_action(correction),
        target=f"correction {correction.status}",
        old=_described(correction, "old"),
        new=_described(correction, "new")
        + version
        + (f"\nVendor: {response}" if response else ""),
    )
    return correction


def corrections_for_bid(bid: Bid) -> list[BidCorrection]:
    return list(bid.corrections.select_related("requested_by"))


def corrections_for_invitation(invitation: Invitation) -> list[BidCorrection]:
    """What the vendor sees in its portal: every request on its opened bid."""
    return list(invitation.corrections.all())
