"""A bid's policy declarations as the buyer accepted them (中小企业声明函, 本国产品
proof): the facts the price deductions of `vendors.engine.regimes.deductions` apply
to. Audited like any change of a bid."""

from __future__ import annotations

from decimal import Decimal

from ..models import AuditAction, Bid
from .audit import record_audit

FIELDS = ("sme_declared", "domestic_product", "domestic_cost_share_pct")


def _values(bid: Bid) -> dict:
    return {name: str(getattr(bid, name)) for name in FIELDS}


def set_bid_declarations(
    *,
    bid: Bid,
    user,
    sme_declared: bool | None = None,
    domestic_product: bool | None = None,
    domestic_cost_share_pct: Decimal | None = None,
) -> Bid:
    """Record which policy declarations of a bid the buyer accepted (中小企业声明函,
    本国产品 proof): the facts the price deductions apply to."""
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
