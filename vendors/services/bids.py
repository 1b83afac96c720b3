"""Use cases of bids and their line items: create, update, delete, replace-all import,
one line at a time; every change lands in the audit trail. Each write to an existing
bid locks it first and counts a version (see `bid_versions`).

Refusals raise `clusterbuy.services.ServiceError` with the field at fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, BinaryIO

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..engine.fields import BID_FIELDS
from ..engine.importing import (
    LineItemImportError,
    LineItemRow,
    RowError,
    parse_line_items,
)
from ..models import (
    CHECKED_BID_FIELDS,
    AuditAction,
    AuditEntry,
    Bid,
    BidLineItem,
    CaseStudy,
    Decision,
    Vendor,
    line_terms_errors,
)
from . import plan_facts
from .audit import record_audit
from .bid_versions import lock_bid, mark_changed
from .caching import bump_comparison_version
from .evaluation import ensure_evaluation_settings
from .line_item_template import import_vocabulary


def _catalog_accelerator(text: str) -> str:
    """The catalog key for the bid's accelerator, given as the key or the shown name
    ("NVIDIA H200 SXM 141GB"); refused when the catalog has no such accelerator."""
    if not text or not text.strip():
        raise ServiceError(_("Choose an accelerator."), field="accelerator")
    if not plan_facts.catalog_loaded():
        return text  # no catalog loaded: accept the key as given
    key = plan_facts.accelerator_key_for(text)
    if key is None:
        raise ServiceError(
            _("Unknown accelerator %(key)s: use a key from the hardware catalog.")
            % {"key": text},
            field="accelerator",
        )
    return key


def _check_figures(bid: Bid) -> None:
    """The bid's figures within their fields' bounds (`models.bid_bounds`), whatever
    the entry point: forms and serializers check the same validators first."""
    checked = {*CHECKED_BID_FIELDS, "proposal_text"}
    try:
        bid.clean_fields(
            exclude=[f.name for f in Bid._meta.fields if f.name not in checked]
        )
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError(messages[0], field=field) from exc


def _write_line_items(bid: Bid, items: Iterable[dict]) -> list[BidLineItem]:
    bid.line_items.all().delete()
    rows = [
        BidLineItem(
            bid=bid,
            position=index,
            category=item["category"],
            description=item["description"],
            quantity=Decimal(item["quantity"]),
            unit_price=Decimal(item["unit_price"]),
            recurring=bool(item.get("recurring", False)),
            year_from=item.get("year_from"),
            year_to=item.get("year_to"),
            scope=list(item.get("scope") or []),
        )
        for index, item in enumerate(items)
    ]
    for index, row in enumerate(rows):
        errors = line_terms_errors(
            year_from=row.year_from,
            year_to=row.year_to,
            scope=row.scope,
            category=row.category,
        )
        if errors:
            field, message = next(iter(errors.items()))
            raise ServiceError(message, field=f"line_items.{index}.{field}")
    created = BidLineItem.objects.bulk_create(rows)
    bump_comparison_version(bid.procurement_id)
    return created


def _save_bid(bid: Bid) -> Bid:
    bid.accelerator = _catalog_accelerator(bid.accelerator)
    _check_figures(bid)
    try:
        with transaction.atomic():
            bid.save()
    except IntegrityError as exc:
        raise ServiceError(
            _("This vendor already has a bid on this procurement."), field="vendor"
        ) from exc
    return bid


def _audit_value(value: Any) -> Any:
    """Comparable, readable form of a bid field for the audit trail."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral() else value.normalize()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Vendor):
        return value.name
    return value


def describe_line_item(item: BidLineItem) -> str:
    """One line item as the audit trail shows it."""
    per_year = " /yr" if item.recurring else ""
    term = ""
    if item.year_from or item.year_to:
        term = f" · years {item.year_from or 1}-{item.year_to or ''}"
    scope = f" · incl. {', '.join(item.scope)}" if item.scope else ""
    return (
        f"{item.category} · {item.description} · {item.quantity.normalize():f} x "
        f"{item.unit_price:,.2f}{per_year}{term}{scope}"
    )


def _describe_items(items: Iterable[BidLineItem]) -> str:
    return "\n".join(describe_line_item(li) for li in items)


def _audit_line_items(
    *, bid: Bid, user, target: str, old: str, new: str
) -> AuditEntry | None:
    if old == new:
        return None
    return record_audit(
        procurement=bid.procurement,
        bid=bid,
        actor=user,
        action=AuditAction.LINE_ITEM,
        target=target[:200],
        old=old,
        new=new,
    )


@transaction.atomic
def create_bid(
    *,
    procurement: Procurement,
    vendor: Vendor,
    user=None,
    line_items: Iterable[dict] = (),
    case_studies: Iterable[CaseStudy] = (),
    **values,
) -> Bid:
    if vendor.organisation_id != procurement.organisation_id:
        raise ServiceError(_("No such vendor."), field="vendor")
    # The first bid fixes the checklist its evaluation reads (pages never write it).
    ensure_evaluation_settings(procurement=procurement)
    bid = Bid(
        procurement=procurement,
        vendor=vendor,
        created_by=user,
        updated_by=user,
        **{k: v for k, v in values.items() if k in BID_FIELDS},
    )
    _save_bid(bid)
    items = _write_line_items(bid, line_items)
    link_case_studies(bid=bid, case_studies=case_studies)
    record_audit(
        procurement=procurement,
        bid=bid,
        actor=user,
        action=AuditAction.BID,
        target="created",
        old=None,
        new=f"{vendor.name} · {bid.accelerator} x {bid.gpu_count}",
    )
    _audit_line_items(
        bid=bid, user=user, target="line_items", old="", new=_describe_items(items)
    )
    return bid


@transaction.atomic
def update_bid(
    *,
    bid: Bid,
    user=None,
    version: int | None = None,
    vendor: Vendor | None = None,
    line_items: Iterable[dict] | None = None,
    case_studies: Iterable[CaseStudy] | None = None,
    **values,
) -> Bid:
    """Change a bid's fields (and optionally replace its line items); every changed
    field and the line-item replacement are written to the audit trail.

    `version` is the one the caller read (None: unchecked): an older one raises
    `StaleBidError` and changes nothing. The bid is reloaded under its row lock
    before the values are applied, so the audit's old values are the stored ones."""
    lock_bid(bid, version=version)
    changes: list[tuple[str, Any, Any]] = []
    if vendor is not None:
        if vendor.organisation_id != bid.procurement.organisation_id:
            raise ServiceError(_("No such vendor."), field="vendor")
        if vendor.pk != bid.vendor_id:
            changes.append(("vendor", bid.vendor.name, vendor.name))
        bid.vendor = vendor
    if "accelerator" in values:  # the audit compares keys, not a name with a key
        values["accelerator"] = _catalog_accelerator(values["accelerator"])
    for key, value in values.items():
        if key in BID_FIELDS:
            old = _audit_value(getattr(bid, key))
            if old != _audit_value(value):
                changes.append((key, old, _audit_value(value)))
            setattr(bid, key, value)
    _save_bid(bid)
    for field, old, new in changes:
        record_audit(
            procurement=bid.procurement,
            bid=bid,
            actor=user,
            action=AuditAction.BID,
            target=field,
            old=old,
            new=new,
        )
    replaced = line_items is not None and _replace_line_items(bid, user, line_items)
    linked = case_studies is not None and link_case_studies(
        bid=bid, case_studies=case_studies
    )
    if changes or replaced or linked:
        mark_changed(bid, user=user)
    return bid


def _replace_line_items(bid: Bid, user, line_items: Iterable[dict]) -> bool:
    """Replace the bid's lines (the caller holds the bid's lock); True when the new
    lines differ from the old ones."""
    before = _describe_items(bid.line_items.all())
    after = _describe_items(_write_line_items(bid, line_items))
    _audit_line_items(bid=bid, user=user, target="line_items", old=before, new=after)
    return before != after


@transaction.atomic
def delete_bid(*, bid: Bid) -> None:
    lock_bid(bid)
    decision = Decision.objects.filter(bid=bid).first()
    if decision is not None:
        raise ServiceError(
            _("This bid was chosen in the decision; change the decision first."),
            field="bid",
        )
    bid.delete()


def link_case_studies(*, bid: Bid, case_studies: Iterable[CaseStudy]) -> bool:
    """Link exactly these case studies to the bid; True when the links changed."""
    studies = list(case_studies)
    for study in studies:
        if study.vendor_id != bid.vendor_id:
            raise ServiceError(
                _("A case study must belong to the bid's vendor."),
                field="case_studies",
            )
    before = set(bid.case_studies.values_list("pk", flat=True))
    bid.case_studies.set(studies)
    return before != {study.pk for study in studies}


def _check_imported(rows: list[LineItemRow], items: list[BidLineItem]) -> None:
    """Each imported row against the line item's own fields (digits, decimal places,
    minimums), reported as row errors like the parser's, whichever page uploaded it."""
    errors = []
    for row, item in zip(rows, items, strict=True):
        try:
            item.full_clean(exclude=["bid"])
        except ValidationError as exc:
            errors += [
                RowError(row.row, field if field != NON_FIELD_ERRORS else "", message)
                for field, messages in exc.message_dict.items()
                for message in messages
            ]
    if errors:
        raise LineItemImportError(errors)


@transaction.atomic
def import_line_items(
    *,
    bid: Bid,
    fileobj: BinaryIO,
    filename: str,
    replace: bool = True,
    user=None,
    version: int | None = None,
) -> list[BidLineItem]:
    """Import a line-item sheet, all or nothing (raises LineItemImportError). The
    sheet is read before the bid is locked; `version` as in `update_bid`."""
    rows = parse_line_items(fileobj, filename, vocabulary=import_vocabulary())
    lock_bid(bid, version=version)
    before = _describe_items(bid.line_items.all()) if replace else ""
    if replace:
        bid.line_items.all().delete()
        start = 0
    else:
        start = bid.line_items.count()
    items = [
        BidLineItem(
            bid=bid,
            position=start + index,
            category=row.category,
            description=row.description[:500],
            quantity=row.quantity,
            unit_price=row.unit_price,
            recurring=row.recurring,
            year_from=row.year_from,
            year_to=row.year_to,
            scope=list(row.scope),
        )
        for index, row in enumerate(rows)
    ]
    _check_imported(rows, items)
    created = BidLineItem.objects.bulk_create(items)
    bump_comparison_version(bid.procurement_id)
    after = _describe_items(created)
    _audit_line_items(
        bid=bid, user=user, target=f"imported: {filename}", old=before, new=after
    )
    if before != after:
        mark_changed(bid, user=user)
    return created


@transaction.atomic
def add_line_item(*, bid: Bid, user=None, **values) -> BidLineItem:
    lock_bid(bid)
    item = BidLineItem(bid=bid, position=bid.line_items.count(), **values)
    item.full_clean(exclude=["bid"])
    item.save()
    _audit_line_items(
        bid=bid, user=user, target="added", old="", new=describe_line_item(item)
    )
    mark_changed(bid, user=user)
    return item


@transaction.atomic
def delete_line_item(*, item: BidLineItem, user=None) -> None:
    """Remove one line; a line already gone (a replace-all or another removal got
    there first) is left at that."""
    bid = lock_bid(item.bid)
    if not BidLineItem.objects.filter(pk=item.pk, bid=bid).exists():
        return
    _audit_line_items(
        bid=bid, user=user, target="removed", old=describe_line_item(item), new=""
    )
    item.delete()
    mark_changed(bid, user=user)
