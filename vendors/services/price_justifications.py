"""Abnormally low prices (87号令 第六十条; 招标投标法实施条例 第五十一条 (五) under the
tendering regime): when the tender review flags a bid (`regimes.abnormally_low`, a
share below the mean of the valid bids), the committee asks its vendor for a written
justification; the vendor answers through its portal link, with proof if it has
some; the committee records its judgement. A bid judged not justified is an
无效投标 in the tender review, with that reason and the article
(`vendors.comparison.tender`); a flagged bid still waiting shows so.

Who asks and judges: the committee's chair, or who configures the evaluation (the
rule of the summation, `committee_scoring.close_summation`). The request reaches the
vendor in its portal (`justifications_for_invitation`); a bid keyed in by the buyer
has no link, and its vendor's written answer is recorded with the judgement. Every
step is audited."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.services import ServiceError

from ..models import (
    AuditAction,
    Bid,
    BidAttachment,
    EvidencePurpose,
    Invitation,
    Judgement,
    PriceJustification,
)
from ..models.price_justification import JUSTIFICATION_TEXT_MAX_CHARS
from .attachments import content_kind
from .audit import record_audit
from .committee import member_for
from .corrections import portal_invitation


def may_judge(procurement, user) -> bool:
    """The committee's chair, or who configures the evaluation."""
    member = member_for(procurement, user)
    return bool(member and member.is_chair) or can(
        user, Capability.CONFIGURE_EVALUATION
    )


def _require_judge(procurement, user) -> None:
    if not may_judge(procurement, user):
        raise ServiceError(
            _("The committee's chair or who configures the evaluation does this.")
        )


def _text(value: str, *, field: str, missing: str) -> str:
    value = (value or "").strip()
    if not value:
        raise ServiceError(missing, field=field)
    if len(value) > JUSTIFICATION_TEXT_MAX_CHARS:
        raise ServiceError(
            _("At most %(max)s characters.") % {"max": JUSTIFICATION_TEXT_MAX_CHARS},
            field=field,
        )
    return value


def flagged_bid_ids(*, procurement, user) -> set[int]:
    """The bids the tender review flags abnormally low, as ``user`` sees it."""
    from ..comparison import build_comparison

    review = build_comparison(procurement=procurement, user=user).tender
    if review is None:
        return set()
    return {b.bid_id for b in review.bids if b.abnormally_low}


@transaction.atomic
def request_justification(*, bid: Bid, user, note: str) -> PriceJustification:
    """Ask the vendor of a flagged bid to justify its price in writing (once)."""
    procurement = bid.procurement
    _require_judge(procurement, user)
    note = _text(note, field="note", missing=_("Say what the vendor is to justify."))
    if PriceJustification.objects.filter(bid=bid).exists():
        raise ServiceError(
            _("A justification was already asked of this bid."), field="note"
        )
    if bid.pk not in flagged_bid_ids(procurement=procurement, user=user):
        raise ServiceError(
            _("The tender review does not flag this bid's price as abnormally low."),
            field="note",
        )
    row = PriceJustification.objects.create(
        bid=bid,
        invitation=portal_invitation(bid),
        request_note=note,
        requested_by=user,
    )
    _audit(row, user, "price justification requested", "", note)
    return row


def _audit(row: PriceJustification, user, target: str, old, new) -> None:
    record_audit(
        procurement=row.bid.procurement,
        bid=row.bid,
        actor=user,
        action=AuditAction.COMMITTEE,
        target=target,
        old=old,
        new=new,
    )


def _proof(bid: Bid, upload) -> BidAttachment | None:
    """The vendor's proof as an attachment of its bid (PDF or XLSX, by content)."""
    if upload is None:
        return None
    limit = settings.PORTAL_UPLOAD_MAX_BYTES
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ServiceError(
            _("Files are limited to %(mb)s MB.") % {"mb": f"{limit / 1024 / 1024:g}"},
            field="proof",
        )
    kind = content_kind(data)
    if kind is None:
        raise ServiceError(_("Only PDF and XLSX files can be attached."), "proof")
    name = get_valid_filename(getattr(upload, "name", "") or f"proof.{kind}")
    attachment = BidAttachment(
        bid=bid,
        original_name=name[:255],
        kind=kind,
        size_bytes=len(data),
        purpose=EvidencePurpose.PRICE_JUSTIFICATION,
    )
    stem = name.rsplit(".", 1)[0] or "proof"
    attachment.file.save(f"{stem}.{kind}", ContentFile(data), save=False)
    attachment.save()
    return attachment


@transaction.atomic
def respond_to_justification(
    *, invitation: Invitation, justification_id: int, response: str, proof=None
) -> PriceJustification:
    """The vendor's written justification through its link (once, before the
    committee's judgement), with an optional proof file."""
    row = (
        PriceJustification.objects.select_for_update()
        .select_related("bid__procurement")
        .filter(pk=justification_id, invitation=invitation)
        .first()
    )
    if row is None:
        raise ServiceError(_("No such request."), field="justification")
    if row.responded_at is not None or row.judgement:
        raise ServiceError(_("This request was already answered."), "justification")
    response = _text(response, field="response", missing=_("Write your justification."))
    row.proof = _proof(row.bid, proof)
    row.response = response
    row.responded_at = timezone.now()
    row.save()
    proof_name = f"\nProof: {row.proof.original_name}" if row.proof else ""
    _audit(row, None, "price justification answered", "", response + proof_name)
    return row


@transaction.atomic
def judge_justification(
    *, bid: Bid, user, judgement: str, note: str
) -> PriceJustification:
    """The committee's judgement, with its reasons; a later one replaces it (both in
    the audit trail). Justified needs the vendor's written justification."""
    procurement = bid.procurement
    _require_judge(procurement, user)
    row = PriceJustification.objects.select_for_update().filter(bid=bid).first()
    if row is None:
        raise ServiceError(
            _("Ask the vendor for its justification first."), field="judgement"
        )
    if judgement not in Judgement.values:
        raise ServiceError(_("Choose justified or not justified."), field="judgement")
    note = _text(note, field="note", missing=_("Give the committee's reasons."))
    if judgement == Judgement.JUSTIFIED and not row.responded_at:
        raise ServiceError(
            _(
                "The vendor has not answered yet: a price is judged justified only "
                "on its written justification."
            ),
            field="judgement",
        )
    old = f"{row.judgement}: {row.judgement_note}" if row.judgement else ""
    row.judgement = judgement
    row.judgement_note = note
    row.judged_by = user
    row.judged_at = timezone.now()
    row.save()
    _audit(row, user, "price justification judged", old, f"{judgement}: {note}")
    return row


def justifications_for(bid_ids: Iterable[int]) -> dict[int, PriceJustification]:
    """bid id -> its justification request, in one query."""
    rows = PriceJustification.objects.filter(bid_id__in=list(bid_ids)).select_related(
        "proof", "judged_by", "requested_by"
    )
    return {row.bid_id: row for row in rows}


def justifications_for_invitation(invitation: Invitation) -> list[PriceJustification]:
    """What the vendor sees in its portal: the requests on its opened bid."""
    return list(invitation.price_justifications.select_related("proof"))


def justification_board(*, procurement, user) -> list[dict]:
    """The committee page's rows: each bid the tender review flags (or that was
    asked), labelled and redacted as ``user`` sees it, with its request, the
    vendor's answer and the judgement. Empty under a sealed envelope (no prices)."""
    from ..comparison import build_comparison

    result = build_comparison(procurement=procurement, user=user)
    review = result.tender
    if review is None or review.prices_hidden:
        return []
    rows = justifications_for(b.bid_id for b in review.bids)
    redact = result.visibility.redact
    board = []
    for entry in review.bids:
        row = rows.get(entry.bid_id)
        if row is None and not entry.abnormally_low:
            continue
        board.append(
            {
                "bid_id": entry.bid_id,
                "label": entry.label,
                "state": row.state if row else "needed",
                "quoted_cny": entry.quoted_cny,
                "row": row,
                "request_note": redact(row.request_note) if row else "",
                "response": redact(row.response) if row else "",
                "judgement_note": redact(row.judgement_note) if row else "",
            }
        )
    return board
