"""What blind grading masks of each vendor of a procurement: its legal name's
fragments, the aliases declared on it and those learnt from its own texts
(`vendors.engine.aliases`), less the learnt terms the buyer keeps visible; and the
preview the buyer reads before blind grading starts (what would remain unmasked).

A vendor's own texts are its bids (text fields, line items), its case studies, its
portal submissions (fields, proposal, line items) and the questions it asked; the
other vendors' texts are those of the procurement's other bidders and the buyer's own
(the procurement's name and description): a word they share names no one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, require
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError
from sizing.models import Accelerator

from ..engine.aliases import AliasCandidate, learn_aliases
from ..engine.fields import BID_FIELDS, CASE_STUDY_FIELDS
from ..engine.names import name_fragments
from ..models import (
    AuditAction,
    Bid,
    CaseStudy,
    Invitation,
    RfpQuestion,
    Submission,
    Vendor,
)
from ..models.vendors import validate_alias_list
from .audit import record_audit
from .suppliers import normalised_terms, update_vendor


@dataclass
class VendorMasking:
    """One vendor's masked terms and the name-like terms that stay visible."""

    vendor: Vendor
    fragments: list[str]
    declared: list[str]
    learnt: list[AliasCandidate] = field(default_factory=list)
    kept: list[AliasCandidate] = field(default_factory=list)  # alias_exceptions
    remaining: list[AliasCandidate] = field(default_factory=list)

    @property
    def masked_terms(self) -> list[str]:
        """Every term masked besides the name's fragments (declared, then learnt)."""
        return [*self.declared, *(c.term for c in self.learnt)]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _where(model, pk: int, field_name: str) -> str:
    """Where a text stands, as the buyer reads it: "Bid 3 · proposal text"."""
    label = (_("Bid %(id)s") if model is Bid else _("Case study %(id)s")) % {"id": pk}
    return f"{label} · {model._meta.get_field(field_name).verbose_name}"


def _bid_texts(bid: Bid) -> list[tuple[str, str]]:
    texts = []
    for name in BID_FIELDS:
        text = " · ".join(_strings(getattr(bid, name, None)))
        texts.append((_where(Bid, bid.pk, name), text))
    line_item = _("Bid %(id)s") % {"id": bid.pk} + " · " + _("line item")
    texts += [(line_item, li.description) for li in bid.line_items.all()]
    return texts


def vendor_texts(vendors: list[Vendor]) -> dict[int, list[tuple[str, str]]]:
    """Vendor id -> (where, text) of everything it wrote (the module docstring), in a
    constant number of queries whatever the number of vendors."""
    texts: dict[int, list[tuple[str, str]]] = {v.pk: [] for v in vendors}
    for bid in Bid.objects.filter(vendor__in=vendors).prefetch_related("line_items"):
        texts[bid.vendor_id] += _bid_texts(bid)
    for study in CaseStudy.objects.filter(vendor__in=vendors):
        for name in CASE_STUDY_FIELDS:
            text = " · ".join(_strings(getattr(study, name, None)))
            texts[study.vendor_id].append((_where(CaseStudy, study.pk, name), text))
    submissions = Submission.objects.filter(
        invitation__vendor__in=vendors
    ).select_related("invitation")
    for sub in submissions:
        body = _strings(sub.fields) + [sub.proposal_text] + _strings(sub.line_items)
        texts[sub.invitation.vendor_id].append(
            (_("Portal submission v%(n)s") % {"n": sub.version}, " · ".join(body))
        )
    questions = RfpQuestion.objects.filter(
        invitation__vendor__in=vendors
    ).select_related("invitation")
    for question in questions:
        texts[question.invitation.vendor_id].append(
            (_("Portal question %(id)s") % {"id": question.pk}, question.question)
        )
    return {
        pk: [(where, text) for where, text in rows if text]
        for pk, rows in texts.items()
    }


def bidders(procurement: Procurement) -> list[Vendor]:
    """The procurement's vendors: those with a bid or an RFP invitation, by id."""
    ids = set(
        Bid.objects.for_procurement(procurement).values_list("vendor_id", flat=True)
    ) | set(
        Invitation.objects.filter(procurement=procurement).values_list(
            "vendor_id", flat=True
        )
    )
    return list(Vendor.objects.filter(pk__in=ids).order_by("id"))


def _catalogue_words() -> set[str]:
    words: set[str] = set()
    for row in Accelerator.objects.values_list("key", "vendor", "model"):
        for text in row:
            words.update((text or "").split())
            words.add(text or "")
    return {w for w in words if w}


def vendor_maskings(procurement: Procurement) -> list[VendorMasking]:
    """Each vendor of the procurement with what blind grading masks of it."""
    vendors = bidders(procurement)
    texts = vendor_texts(vendors)
    buyer_texts = [procurement.name, procurement.description or ""]
    known = _catalogue_words()
    out = []
    for vendor in vendors:
        others = [t for pk, own in texts.items() if pk != vendor.pk for _w, t in own]
        masked = [*name_fragments(vendor.name), *vendor.aliases]
        report = learn_aliases(
            texts[vendor.pk], [*others, *buyer_texts], known=known, masked=masked
        )
        exceptions = {t.casefold() for t in vendor.alias_exceptions}
        out.append(
            VendorMasking(
                vendor=vendor,
                fragments=name_fragments(vendor.name),
                declared=list(vendor.aliases),
                learnt=[
                    c for c in report.learnt if c.term.casefold() not in exceptions
                ],
                kept=[c for c in report.learnt if c.term.casefold() in exceptions],
                remaining=report.remaining,
            )
        )
    return out


def alias_terms(maskings: list[VendorMasking]) -> list[str]:
    """Every vendor's masked terms besides its legal name (for `name_pattern`)."""
    return [term for m in maskings for term in m.masked_terms]


@transaction.atomic
def set_alias(
    *, procurement: Procurement, vendor: Vendor, user, term: str, masked: bool
) -> Vendor:
    """Declare ``term`` an alias of ``vendor`` (``masked``) or keep a learnt term
    visible (not ``masked``), from the blind-grading preview; audited."""
    require(user, Capability.EDIT_VENDORS)
    try:
        validate_alias_list([term])
    except ValidationError as exc:
        raise ServiceError(exc.messages[0], field="term") from None
    vendor = Vendor.objects.select_for_update().get(pk=vendor.pk)
    folded = " ".join(term.split()).casefold()
    aliases = [a for a in vendor.aliases if a.casefold() != folded]
    exceptions = [a for a in vendor.alias_exceptions if a.casefold() != folded]
    if masked:
        aliases.append(term)
    else:
        exceptions.append(term)
    old = {"aliases": vendor.aliases, "alias_exceptions": vendor.alias_exceptions}
    vendor = update_vendor(
        vendor=vendor,
        aliases=normalised_terms(aliases),
        alias_exceptions=normalised_terms(exceptions),
    )
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.SETTINGS,
        target=f"vendor #{vendor.pk} aliases",
        old=old,
        new={"aliases": vendor.aliases, "alias_exceptions": vendor.alias_exceptions},
    )
    return vendor
