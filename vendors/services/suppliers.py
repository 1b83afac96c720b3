"""Use cases of vendors and their case studies (the only code that writes them).

Refusals raise `clusterbuy.services.ServiceError` with the field at fault.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Organisation, Procurement
from clusterbuy.registry import CheckResult
from clusterbuy.services import ServiceError

from ..engine.fields import CASE_STUDY_FIELDS, VENDOR_FIELDS
from ..models import Bid, CaseStudy, Vendor


def normalised_terms(terms) -> list[str]:
    """Aliases as stored: spaces collapsed, blanks and repeats (any case) dropped."""
    if not isinstance(terms, list | tuple):
        return terms  # left to the field's validator, which names the error
    seen: dict[str, str] = {}
    for term in terms:
        text = " ".join(term.split()) if isinstance(term, str) else term
        if text and isinstance(text, str):
            seen.setdefault(text.casefold(), text)
    return list(seen.values())


def _save_vendor(vendor: Vendor) -> Vendor:
    vendor.aliases = normalised_terms(vendor.aliases)
    vendor.alias_exceptions = normalised_terms(vendor.alias_exceptions)
    try:
        with transaction.atomic():
            vendor.full_clean(exclude=["organisation"], validate_unique=False)
            vendor.save()
    except IntegrityError as exc:
        raise ServiceError(
            _("A vendor with this name already exists in your organisation."),
            field="name",
        ) from exc
    return vendor


def create_vendor(*, organisation: Organisation, **values) -> Vendor:
    vendor = Vendor(
        organisation=organisation,
        **{k: v for k, v in values.items() if k in VENDOR_FIELDS},
    )
    return _save_vendor(vendor)


def update_vendor(*, vendor: Vendor, **values) -> Vendor:
    for key, value in values.items():
        if key in VENDOR_FIELDS:
            setattr(vendor, key, value)
    return _save_vendor(vendor)


def delete_vendor(*, vendor: Vendor) -> None:
    if vendor.bids.exists():
        raise ServiceError(
            _("This vendor has bids; delete the bids first."), field="vendor"
        )
    vendor.delete()


def create_case_study(
    *, vendor: Vendor, bids: Iterable[Bid] = (), **values
) -> CaseStudy:
    study = CaseStudy(
        vendor=vendor, **{k: v for k, v in values.items() if k in CASE_STUDY_FIELDS}
    )
    study.save()
    _link_bids(study, bids)
    return study


def update_case_study(
    *, case_study: CaseStudy, bids: Iterable[Bid] | None = None, **values
) -> CaseStudy:
    for key, value in values.items():
        if key in CASE_STUDY_FIELDS:
            setattr(case_study, key, value)
    case_study.save()
    if bids is not None:
        _link_bids(case_study, bids)
    return case_study


def _link_bids(study: CaseStudy, bids: Iterable[Bid]) -> None:
    bids = list(bids)
    for bid in bids:
        if bid.vendor_id != study.vendor_id:
            raise ServiceError(
                _("A case study can only be linked to its vendor's bids."),
                field="bids",
            )
    study.bids.set(bids)


def shortlist_check(procurement: Procurement) -> CheckResult:
    """Stage 2: 3-5 candidate vendors shortlisted (bids from distinct vendors)."""
    count = Bid.objects.filter(procurement=procurement).values("vendor").count()
    return CheckResult(
        _("3–5 candidate vendors shortlisted"),
        3 <= count <= 5,
        _("%(n)s vendors with a bid; shortlist 3 to 5.") % {"n": count},
    )
