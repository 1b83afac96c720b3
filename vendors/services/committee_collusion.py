"""Collusion signals across the bids, for the committee (87号令 第三十七条, 招标投标法
实施条例 第四十条): the engine's `collusion_signals` fed with each bid's contact facts
(`BidContact`), its documents' authors (`document_meta`), its proposal text (shared
typos, near-identical text after rewording, the published RFP's wording discounted) and
its quoted price (regular steps). A signal is evidence for the committee to judge; it
never invalidates a bid by itself.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..engine.regimes import CollusionFacts, collusion_signals
from ..models import AuditAction, Bid, BidContact
from .audit import record_audit
from .document_meta import attachment_authors
from .rfp_text import published_rfp_text

CONTACT_FIELDS = ("contact_person", "phone", "email", "bond_account")


def kind_label(kind: str) -> str:
    return {
        "same_contact": _("Same contact person"),
        "same_phone": _("Same phone number"),
        "same_email": _("Same e-mail address"),
        "same_author": _("Same document author"),
        "same_typos": _("Same unusual errors"),
        "similar_text": _("Near-identical text"),
        "price_steps": _("Prices in regular steps"),
        "same_bond_account": _("Bonds from the same account"),
    }.get(kind, kind)


@transaction.atomic
def set_bid_contact(*, bid: Bid, user, **values) -> BidContact:
    """The contact facts of a bid's 投标函 (contact person, phone, e-mail, the bond's
    account), as the buyer records them from the bid or the opening carries them
    from the portal; a phone or e-mail `BidContact` refuses is a ServiceError on
    its field (nothing saved)."""
    unknown = sorted(set(values) - set(CONTACT_FIELDS))
    if unknown:
        raise ServiceError(_("Unknown field."), field=unknown[0])
    contact, _created = BidContact.objects.get_or_create(bid=bid)
    for name, value in values.items():
        value = (value or "").strip()
        limit = BidContact._meta.get_field(name).max_length
        if len(value) > limit:
            raise ServiceError(
                _("At most %(max)s characters.") % {"max": limit}, field=name
            )
        old = getattr(contact, name)
        if old != value:
            record_audit(
                procurement=bid.procurement,
                bid=bid,
                actor=user,
                action=AuditAction.BID,
                target=f"contact.{name}",
                old=old,
                new=value,
            )
            setattr(contact, name, value)
    try:
        contact.full_clean(exclude=["bid"])  # the phone and e-mail rules
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise ServiceError(messages[0], field=field) from None
    contact.save()
    return contact


def bid_facts(bid: Bid, price_cny=None) -> CollusionFacts:
    contact = BidContact.objects.filter(bid=bid).first()
    authors: list[str] = []
    for attachment in bid.attachments.all():
        authors.extend(attachment_authors(attachment))
    return CollusionFacts(
        bid_id=str(bid.pk),
        contact_person=contact.contact_person if contact else "",
        phone=contact.phone if contact else "",
        email=contact.email if contact else "",
        bond_account=contact.bond_account if contact else "",
        doc_authors=tuple(authors),
        text=bid.proposal_text or "",
        price_cny=price_cny,
    )


def in_bid_order(ids: tuple[str, ...]) -> list[int]:
    """Bid ids in bid order: the engine sorts them as text ("10" before "9")."""
    return sorted(int(b) for b in ids)


def signals_for(
    *, procurement: Procurement, labels: dict[int, str], prices: dict[int, object]
) -> list[dict]:
    """Every signal across the bids ``labels`` names (bid id -> the label the reader
    sees), with its evidence and article, as plain JSON for the page, API and report.
    ``prices``: bid id -> quoted price (absent: not compared, e.g. sealed)."""
    bids = Bid.objects.filter(procurement=procurement, pk__in=list(labels)).order_by(
        "id"
    )
    facts = [bid_facts(b, prices.get(b.pk)) for b in bids]
    found = collusion_signals(
        facts, rfp_text=published_rfp_text(procurement=procurement)
    )
    return [
        {
            "kind": s.kind,
            "label": kind_label(s.kind),
            "bids": [labels[b] for b in in_bid_order(s.bid_ids)],
            "bid_ids": in_bid_order(s.bid_ids),
            "evidence": s.evidence,
            "citation": s.article.citation,
            "score": s.score,
        }
        for s in found
    ]


def committee_signals(*, procurement: Procurement, user, result=None) -> list[dict]:
    """The signals across every bid, labelled and priced as ``user`` sees them
    (blind labels; under a sealed envelope no price steps). ``result``: that
    comparison, when the caller has already built it (the committee page)."""
    from ..comparison import build_comparison

    if result is None:
        result = build_comparison(procurement=procurement, user=user)
    labels = {c.bid.pk: c.label for c in result.columns}
    prices = {c.bid.pk: c.quoted_total for c in result.columns if c.quoted_total}
    return signals_for(procurement=procurement, labels=labels, prices=prices)
