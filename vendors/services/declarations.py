"""A bid's policy declarations (中小企业声明函, 本国产品 proof): what the vendor declared
in its portal submission (``Bid.sme_claimed``, ``domestic_claimed``, carried at
opening) and what the buyer accepted (``sme_declared``, ``domestic_product``): the
facts the price deductions of `vendors.engine.regimes.deductions` apply to.

A declaration is accepted only with its evidence: an attachment of the bid whose
purpose is that declaration's (`EvidencePurpose`, uploaded by the vendor in the portal
or by the buyer on the bid page). The tender review grants a deduction only to an
accepted declaration whose evidence is still attached (`backed_declarations`), so a
flag set past this service cannot earn one. Audited like any change of a bid."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.services import ServiceError

from ..models import DECLARATION_PURPOSES, AuditAction, Bid, BidAttachment
from .audit import record_audit

FIELDS = ("sme_declared", "domestic_product", "domestic_cost_share_pct")
#: The accepted flag of each declaration (the deduction kinds of the engine).
ACCEPTED_FIELD = {"sme": "sme_declared", "domestic": "domestic_product"}


def _values(bid: Bid) -> dict:
    return {name: str(getattr(bid, name)) for name in FIELDS}


def evidence_by_kind(bid_ids: Iterable[int]) -> dict[int, dict[str, list]]:
    """bid id -> declaration kind -> its evidence attachments, in one query."""
    found: dict[int, dict[str, list]] = {}
    purposes = {purpose: kind for kind, purpose in DECLARATION_PURPOSES.items()}
    rows = BidAttachment.objects.filter(
        bid_id__in=list(bid_ids), purpose__in=list(purposes)
    ).order_by("id")
    for row in rows:
        found.setdefault(row.bid_id, {}).setdefault(purposes[row.purpose], []).append(
            row
        )
    return found


def backed_declarations(
    bids: Iterable[Bid], *, evidence: dict[int, dict[str, list]] | None = None
) -> dict[int, set[str]]:
    """bid id -> the declarations that earn a deduction: accepted and evidenced
    (``evidence``: `evidence_by_kind` of these bids, when already read)."""
    bids = list(bids)
    if evidence is None:
        evidence = evidence_by_kind(b.pk for b in bids)
    return {
        bid.pk: {
            kind
            for kind, name in ACCEPTED_FIELD.items()
            if getattr(bid, name) and evidence.get(bid.pk, {}).get(kind)
        }
        for bid in bids
    }


def missing_evidence_message(kind: str) -> str:
    if kind == "sme":
        return _(
            "The small-enterprise declaration cannot be accepted: no small-enterprise "
            "declaration is attached to the bid."
        )
    return _(
        "The domestic-product declaration cannot be accepted: no domestic-product "
        "proof is attached to the bid."
    )


def set_bid_declarations(
    *,
    bid: Bid,
    user,
    sme_declared: bool | None = None,
    domestic_product: bool | None = None,
    domestic_cost_share_pct: Decimal | None = None,
) -> Bid:
    """Record which policy declarations of a bid the buyer accepted (中小企业声明函,
    本国产品 proof): the facts the price deductions apply to. Accepting one whose
    evidence is not attached is refused (ServiceError on that field)."""
    evidence = evidence_by_kind([bid.pk]).get(bid.pk, {})
    for kind, accepted in (("sme", sme_declared), ("domestic", domestic_product)):
        if accepted and not evidence.get(kind):
            raise ServiceError(missing_evidence_message(kind), ACCEPTED_FIELD[kind])
    old = _values(bid)
    if sme_declared is not None:
        bid.sme_declared = sme_declared
    if domestic_product is not None:
        bid.domestic_product = domestic_product
    if domestic_cost_share_pct is not None:
        bid.domestic_cost_share_pct = domestic_cost_share_pct
    bid.save(update_fields=list(FIELDS))
    record_audit(
        procurement=bid.procurement,
        actor=user,
        action=AuditAction.BID,
        target="policy declarations",
        old=old,
        new=_values(bid),
        bid=bid,
    )
    return bid


class DeclarationsInvalid(ServiceError):
    """Acceptances refused: ``errors`` maps a bid id to its messages."""

    def __init__(self, errors: dict[int, list[str]]):
        first = next(iter(errors.values()))[0]
        super().__init__(first, "declarations")
        self.errors = errors


@transaction.atomic
def accept_declarations(
    *, procurement, user, accepted: dict[int, tuple[bool, bool]]
) -> list[Bid]:
    """The tender page's table at once: bid id -> (SME accepted, domestic accepted).
    All or nothing: one refusal (a declaration without its evidence) saves none."""
    errors: dict[int, list[str]] = {}
    changed = []
    bids = Bid.objects.for_procurement(procurement).select_related("procurement")
    for bid in bids.filter(pk__in=list(accepted)).order_by("id"):
        sme, domestic = accepted[bid.pk]
        if (sme, domestic) == (bid.sme_declared, bid.domestic_product):
            continue
        try:
            changed.append(
                set_bid_declarations(
                    bid=bid, user=user, sme_declared=sme, domestic_product=domestic
                )
            )
        except ServiceError as error:
            errors.setdefault(bid.pk, []).append(error.message)
    if errors:
        raise DeclarationsInvalid(errors)
    return changed
