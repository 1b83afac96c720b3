"""Who may see which vendor and which price: the one visibility rule of the evaluation.

Blind grading hides which vendor made which bid from everyone who does not manage the
vendors (procurement, admin) until scoring closes; a sealed envelope hides every price
from a technical evaluator (`access.is_technical_evaluator`) until they submit their
technical scores. `viewer_variant` is the rule; `visibility_for` turns it into the
`Visibility` every page, API field, export, select, chart caption, attachment and
vendor page of a bid goes through. What follows from it:

- blind: a bid is "Vendor n" (n in bid id order), its vendor id is withheld, and so
  are the ids of its case studies (their API is nested under the vendor). A vendor
  with a bid in a procurement blind to the user is missing from that user's vendor
  directory (list, page, API, case studies: 404): its page would name the vendor next
  to its bids and case studies. In the free text of a bid (proposal, offer fields,
  line items, case studies, audit trail, score notes, decision rationale, pitfall
  evidence) the names of the procurement's vendors (bidders and invited), the short
  forms of them `name_fragments` lists, and their aliases (declared on the vendor, or
  learnt from its own texts: `services.aliases`) read "[vendor]", the same for every
  vendor so that no two texts are linked. Best effort by nature: a brand that recurs
  nowhere and was not declared stays (the buyer's preview before blind grading lists
  such terms), and a name that is also a common word blanks that word too. Blindness is per procurement: the same vendor's name shown on another
  procurement's pages, next to the same case studies, is not hidden there.
- sealed: no price, TCO, price score, pitfall computed from prices (a share of the
  hardware cost) or line-item audit entry.
- either: attachments stay sealed (links hidden, download and listing 403). They are
  the vendor's own documents, which can carry its identity (letterhead, file name)
  and its prices in any form (an XLSX quote, a priced PDF), and cannot be redacted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clusterbuy.access import Capability, can, is_technical_evaluator
from clusterbuy.models import Procurement

from .engine.detectors import Fact, Pitfall
from .engine.fields import BID_FIELDS
from .engine.names import name_fragments as name_fragments
from .engine.names import name_pattern
from .models import Bid, EvaluationSettings, Invitation, Vendor
from .services.aliases import alias_terms, vendor_maskings
from .services.evaluation import evaluation_settings_for, has_submitted

ATTACHMENTS_SEALED = gettext_lazy(
    "The vendor's attachments are sealed: they can carry its name or its prices."
)


def viewer_variant(
    procurement: Procurement, settings_row: EvaluationSettings, user
) -> tuple[bool, bool]:
    """(blind, prices_hidden) for this user: vendor names hidden under blind grading
    from whoever does not manage vendors until scoring closes; prices sealed for a
    technical evaluator who has not submitted. `visible_vendors` is the same rule
    for the vendor directory."""
    blind = bool(
        settings_row.blind_grading
        and not settings_row.scoring_closed
        and not can(user, Capability.EDIT_VENDORS)
    )
    prices_hidden = bool(
        settings_row.sealed_envelope
        and is_technical_evaluator(user)
        and not has_submitted(procurement=procurement, user=user)
    )
    return blind, prices_hidden


def visible_vendors(user) -> QuerySet[Vendor]:
    """The user's organisation's vendors, less those with a bid in, or an RFP
    invitation to, a procurement that is blind to the user (`viewer_variant`'s first
    half, as a query)."""
    vendors = Vendor.objects.for_user(user)
    if can(user, Capability.EDIT_VENDORS):
        return vendors
    blind = {
        "procurement__evaluation_settings__blind_grading": True,
        "procurement__evaluation_settings__scoring_closed": False,
    }
    return vendors.exclude(
        pk__in=Bid.objects.filter(**blind).values("vendor_id")
    ).exclude(pk__in=Invitation.objects.filter(**blind).values("vendor_id"))


@dataclass(frozen=True)
class Visibility:
    """What one user may see of one procurement's bids (see the module docstring)."""

    blind: bool = False
    prices_hidden: bool = False
    labels: Mapping[int, str] = field(default_factory=dict)  # bid id -> "Vendor n"
    names: re.Pattern | None = None  # the bidders' names, for `redact`

    @property
    def attachments_sealed(self) -> bool:
        return self.blind or self.prices_hidden

    def label(self, bid: Bid) -> str:
        return self.labels[bid.pk] if self.blind else bid.vendor.name

    def vendor(self, bid: Bid) -> dict:
        if self.blind:
            return {"id": None, "name": self.labels[bid.pk], "blind": True}
        return {"id": bid.vendor_id, "name": bid.vendor.name, "blind": False}

    def redact(self, text: str) -> str:
        if not self.blind or self.names is None or not text:
            return text
        return self.names.sub(_("[vendor]"), text)

    def redact_tree(self, value: Any) -> Any:
        """Every string in an API payload (dicts and lists, any depth) redacted."""
        if not self.blind:
            return value
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, Mapping):
            return {key: self.redact_tree(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact_tree(item) for item in value]
        return value

    def mask_rows(self, rows: Iterable[Any], fields: Iterable[str]) -> list[Any]:
        """``rows`` with the text of ``fields`` redacted in memory (never saved)."""
        rows = list(rows)
        if self.blind:
            for row in rows:
                for name in fields:
                    value = getattr(row, name)
                    if isinstance(value, str):
                        setattr(row, name, self.redact(value))
                    elif isinstance(value, list):
                        setattr(row, name, self.redact_tree(value))
        return rows

    def mask_bid(self, bid: Bid) -> Bid:
        """The bid's own free text redacted in memory (never saved)."""
        return self.mask_rows([bid], BID_FIELDS)[0]

    def pitfalls(self, found: Iterable[Pitfall]) -> list[Pitfall]:
        """Price-derived findings withheld from a sealed viewer; names redacted from
        the evidence (snippets of the bid's text; the reasons are ClusterBuy's own
        sentences)."""
        return [
            replace(
                p,
                evidence=tuple(self.redact(e) for e in p.evidence),
                facts=tuple(self._redact_fact(f) for f in p.facts),
            )
            for p in found
            if not (self.prices_hidden and p.reads_prices)
        ]

    def _redact_fact(self, fact: Fact) -> Fact:
        """Names in a fact's words (a scheduler, frameworks) are the bid's text."""
        params = {
            k: (
                self.redact(v)
                if isinstance(v, str)
                else tuple(self.redact(x) if isinstance(x, str) else x for x in v)
                if isinstance(v, tuple)
                else v
            )
            for k, v in fact.params.items()
        }
        return replace(fact, params=params)


def visibility_for(
    *, procurement: Procurement, user, settings_row: EvaluationSettings | None = None
) -> Visibility:
    """The Visibility of ``procurement``'s bids for ``user``."""
    if settings_row is None:
        settings_row = evaluation_settings_for(procurement=procurement)
    blind, prices_hidden = viewer_variant(procurement, settings_row, user)
    if not blind:
        return Visibility(prices_hidden=prices_hidden)
    bids = list(
        Bid.objects.for_procurement(procurement)
        .order_by("id")
        .values_list("id", "vendor__name")
    )
    maskings = vendor_maskings(procurement)
    return Visibility(
        blind=True,
        prices_hidden=prices_hidden,
        labels={
            pk: _("Vendor %(n)s") % {"n": index}
            for index, (pk, _name) in enumerate(bids, start=1)
        },
        names=name_pattern(
            [m.vendor.name for m in maskings], aliases=alias_terms(maskings)
        ),
    )
