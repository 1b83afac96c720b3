"""Use cases of vendor evaluation: the only code that writes vendors, bids and scores.

Every function takes keyword arguments, never a request; callers have already fetched
the procurement/vendor through the access rule. Refusals raise
`clusterbuy.services.ServiceError` with the field at fault (a 400 / form error).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any, BinaryIO

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.models import Organisation, Procurement
from clusterbuy.registry import CheckResult
from clusterbuy.services import ServiceError

from . import checklist_default
from .caching import bump_comparison_version
from .importing import parse_line_items
from .models import (
    SEVERITIES,
    AuditAction,
    AuditEntry,
    Bid,
    BidAttachment,
    BidLineItem,
    CaseStudy,
    ChecklistCriterion,
    ChecklistSection,
    ChecklistTemplate,
    Decision,
    EvaluationSettings,
    LineCategory,
    Score,
    TechnicalSubmission,
    Vendor,
)

MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
_PDF_MAGIC = b"%PDF-"
_ZIP_MAGIC = b"PK\x03\x04"

VENDOR_FIELDS = (
    "name",
    "kind",
    "region",
    "contacts",
    "slurm_experience",
    "kubernetes_experience",
    "other_ecosystem_experience",
    "certifications",
    "notes",
)
BID_FIELDS = (
    "accelerator",
    "gpu_count",
    "nodes",
    "server_model",
    "scaleup_link",
    "scaleup_domain_gpus",
    "network_fabric",
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "storage_write_gbs",
    "cooling",
    "peak_power_kw",
    "delivery_weeks",
    "warranty_years",
    "support_channels",
    "response_hours",
    "onsite_hours",
    "availability_pct",
    "monitoring",
    "configurable_alerts",
    "scheduler",
    "frameworks",
    "team_engineers",
    "team_dl_experience",
    "team_scheduler_experience",
    "promised_training_days",
    "proposal_text",
)
CASE_STUDY_FIELDS = (
    "client_industry",
    "scenario",
    "challenge",
    "network_architecture",
    "storage_choice",
    "solution_details",
    "outcome_before",
    "outcome_after",
    "site_visit_done",
    "remote_demo_done",
    "reference_contacted",
)


# --- sizing (optional: guarded so vendors works before the sizing app lands) ----------


def _sizing_services():
    try:
        from sizing import services as sizing_services
    except ImportError:
        return None
    return sizing_services


def plan_summary(*, procurement: Procurement) -> dict | None:
    """The sizing plan's headline figures, or None when there is no plan (yet)."""
    fn = getattr(_sizing_services(), "plan_summary", None)
    if fn is None:
        return None
    return fn(procurement=procurement)


def training_lower_bound_days(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> float | None:
    fn = getattr(_sizing_services(), "training_lower_bound_days", None)
    if fn is None:
        return None
    return fn(
        procurement=procurement, accelerator_key=accelerator_key, gpu_count=gpu_count
    )


def accelerator_model():
    try:
        from sizing.models import Accelerator
    except ImportError:
        return None
    return Accelerator


def accelerators_by_key(keys: Iterable[str]) -> dict[str, Any]:
    """Catalog rows for the given keys in one query ({} without the sizing app)."""
    model = accelerator_model()
    if model is None:
        return {}
    return {a.key: a for a in model.objects.filter(key__in=set(keys))}


def _check_accelerator(key: str) -> None:
    if not key:
        raise ServiceError(_("Choose an accelerator."), field="accelerator")
    model = accelerator_model()
    if model is None or not model.objects.exists():
        return  # no catalog loaded: accept the key as given
    if not model.objects.filter(key=key).exists():
        raise ServiceError(
            _("Unknown accelerator %(key)s: use a key from the hardware catalog.")
            % {"key": key},
            field="accelerator",
        )


# --- vendors -----------------------------------------------------------------------


def _save_vendor(vendor: Vendor) -> Vendor:
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


# --- bids --------------------------------------------------------------------------


def _clean_lists(values: dict) -> None:
    if "response_hours" in values and values["response_hours"]:
        hours = values["response_hours"]
        if not isinstance(hours, dict) or set(hours) - set(SEVERITIES):
            raise ServiceError(
                _("Response times are given per severity: sev1, sev2, sev3."),
                field="response_hours",
            )
        for severity, value in hours.items():
            try:
                number = float(value)
            except (TypeError, ValueError):
                number = -1
            if number < 0:
                raise ServiceError(
                    _("Response time for %(sev)s must be a number of hours.")
                    % {"sev": severity},
                    field="response_hours",
                )
            hours[severity] = number


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
        )
        for index, item in enumerate(items)
    ]
    created = BidLineItem.objects.bulk_create(rows)
    bump_comparison_version()
    return created


def _save_bid(bid: Bid) -> Bid:
    _check_accelerator(bid.accelerator)
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
    return (
        f"{item.category} · {item.description} · {item.quantity.normalize():f} x "
        f"{item.unit_price:,.2f}{per_year}"
    )


def _describe_items(items: Iterable[BidLineItem]) -> str:
    return "\n".join(describe_line_item(li) for li in items)


def _audit_line_items(
    *, bid: Bid, user, target: str, old: str, new: str
) -> AuditEntry | None:
    if old == new:
        return None
    return _audit(
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
    _clean_lists(values)
    bid = Bid(
        procurement=procurement,
        vendor=vendor,
        created_by=user,
        **{k: v for k, v in values.items() if k in BID_FIELDS},
    )
    _save_bid(bid)
    items = _write_line_items(bid, line_items)
    link_case_studies(bid=bid, case_studies=case_studies)
    _audit(
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
    vendor: Vendor | None = None,
    line_items: Iterable[dict] | None = None,
    case_studies: Iterable[CaseStudy] | None = None,
    **values,
) -> Bid:
    """Change a bid's fields (and optionally replace its line items); every changed
    field and the line-item replacement are written to the audit trail."""
    changes: list[tuple[str, Any, Any]] = []
    if vendor is not None:
        if vendor.organisation_id != bid.procurement.organisation_id:
            raise ServiceError(_("No such vendor."), field="vendor")
        if vendor.pk != bid.vendor_id:
            changes.append(("vendor", bid.vendor.name, vendor.name))
        bid.vendor = vendor
    _clean_lists(values)
    for key, value in values.items():
        if key in BID_FIELDS:
            old = _audit_value(getattr(bid, key))
            if old != _audit_value(value):
                changes.append((key, old, _audit_value(value)))
            setattr(bid, key, value)
    _save_bid(bid)
    for field, old, new in changes:
        _audit(
            procurement=bid.procurement,
            bid=bid,
            actor=user,
            action=AuditAction.BID,
            target=field,
            old=old,
            new=new,
        )
    if line_items is not None:
        before = _describe_items(bid.line_items.all())
        items = _write_line_items(bid, line_items)
        _audit_line_items(
            bid=bid,
            user=user,
            target="line_items",
            old=before,
            new=_describe_items(items),
        )
    if case_studies is not None:
        link_case_studies(bid=bid, case_studies=case_studies)
    return bid


def delete_bid(*, bid: Bid) -> None:
    decision = Decision.objects.filter(bid=bid).first()
    if decision is not None:
        raise ServiceError(
            _("This bid was chosen in the decision; change the decision first."),
            field="bid",
        )
    bid.delete()


def link_case_studies(*, bid: Bid, case_studies: Iterable[CaseStudy]) -> None:
    studies = list(case_studies)
    for study in studies:
        if study.vendor_id != bid.vendor_id:
            raise ServiceError(
                _("A case study must belong to the bid's vendor."),
                field="case_studies",
            )
    bid.case_studies.set(studies)


@transaction.atomic
def import_line_items(
    *, bid: Bid, fileobj: BinaryIO, filename: str, replace: bool = True, user=None
) -> list[BidLineItem]:
    """Import a line-item sheet, all or nothing (raises LineItemImportError)."""
    rows = parse_line_items(fileobj, filename)
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
        )
        for index, row in enumerate(rows)
    ]
    for item in items:
        item.full_clean(exclude=["bid"])
    created = BidLineItem.objects.bulk_create(items)
    bump_comparison_version()
    _audit_line_items(
        bid=bid,
        user=user,
        target=f"imported: {filename}",
        old=before,
        new=_describe_items(created),
    )
    return created


def attachment_kind(head: bytes) -> str | None:
    """'pdf' or 'xlsx' from the first bytes of a file (never from its name)."""
    if head.startswith(_PDF_MAGIC):
        return "pdf"
    if head.startswith(_ZIP_MAGIC):
        return "xlsx"
    return None


def _is_xlsx(data: bytes) -> bool:
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        return False
    return "[Content_Types].xml" in names and any(n.startswith("xl/") for n in names)


@transaction.atomic
def add_attachment(*, bid: Bid, user, upload) -> BidAttachment:
    """Store a PDF or XLSX (checked by content, at most 10 MB) with the bid."""
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_ATTACHMENT_BYTES:
        raise ServiceError(_("Attachments are limited to 10 MB."), field="file")
    data = upload.read(MAX_ATTACHMENT_BYTES + 1)
    if len(data) > MAX_ATTACHMENT_BYTES:
        raise ServiceError(_("Attachments are limited to 10 MB."), field="file")
    kind = attachment_kind(data[:8])
    if kind == "xlsx" and not _is_xlsx(data):
        kind = None
    if kind is None:
        raise ServiceError(
            _("Only PDF and XLSX files can be attached."),
            field="file",
        )
    name = get_valid_filename(getattr(upload, "name", "") or f"attachment.{kind}")
    attachment = BidAttachment(
        bid=bid,
        original_name=name[:255],
        kind=kind,
        size_bytes=len(data),
        uploaded_by=user,
    )
    stored = name if name.lower().endswith(f".{kind}") else f"{name}.{kind}"
    attachment.file.save(stored, ContentFile(data), save=False)
    attachment.save()
    return attachment


# --- case studies ------------------------------------------------------------------


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


# --- checklists --------------------------------------------------------------------


@transaction.atomic
def create_default_template(*, organisation: Organisation) -> ChecklistTemplate:
    """The organisation's default checklist; created from the buyer's guide on first use."""
    existing = (
        ChecklistTemplate.objects.filter(organisation=organisation, is_default=True)
        .order_by("id")
        .first()
    )
    if existing is not None:
        return existing
    template, _created = ChecklistTemplate.objects.get_or_create(
        organisation=organisation,
        name=checklist_default.TEMPLATE_NAME,
        defaults={"is_default": True},
    )
    if not template.sections.exists():
        _write_sections(template, default_sections())
    return template


def default_sections() -> list[dict]:
    return [
        {
            "code": code,
            "title": title,
            "weight": weight,
            "auto_price": auto,
            "criteria": [
                {"code": c, "text": text, "weight": w} for c, text, w in criteria
            ],
        }
        for code, title, weight, auto, criteria in checklist_default.SECTIONS
    ]


_CODE_RE = re.compile(r"^[-a-zA-Z0-9_]{1,40}$")
MAX_WEIGHT = Decimal("9999.99")


def _clean_weight(value: Any, what: str) -> Decimal:
    try:
        weight = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        weight = Decimal(-1)
    if not weight.is_finite() or not Decimal(0) <= weight <= MAX_WEIGHT:
        raise ServiceError(
            _("The weight of %(what)s must be a number from 0 to 9999.99.")
            % {"what": what},
            field="sections",
        )
    return weight.quantize(Decimal("0.01"))


def clean_sections(sections: list[dict]) -> list[dict]:
    """The checklist rules, for the API and the browser editor alike: at least one
    section, unique slug codes, titles and criteria given (at most 200/300
    characters), weights 0-9999.99 and not all sections weighing zero."""
    if not sections:
        raise ServiceError(
            _("A checklist needs at least one section."), field="sections"
        )
    cleaned = []
    for data in sections:
        code = str(data.get("code", ""))
        title = str(data.get("title", "")).strip()
        if not _CODE_RE.match(code):
            raise ServiceError(
                _("Section code %(code)s: use letters, digits, - and _ (at most 40).")
                % {"code": code},
                field="sections",
            )
        if not title or len(title) > 200:
            raise ServiceError(
                _("Every section needs a title of at most 200 characters."),
                field="sections",
            )
        criteria = []
        for c in data.get("criteria", []):
            text = str(c.get("text", "")).strip()
            if not _CODE_RE.match(str(c.get("code", ""))):
                raise ServiceError(
                    _("Criterion code %(code)s: use letters, digits, - and _.")
                    % {"code": c.get("code", "")},
                    field="sections",
                )
            if not text or len(text) > 300:
                raise ServiceError(
                    _("Every criterion needs a text of at most 300 characters."),
                    field="sections",
                )
            criteria.append(
                {
                    "code": str(c["code"]),
                    "text": text,
                    "weight": _clean_weight(c.get("weight", 1), text),
                }
            )
        cleaned.append(
            {
                "code": code,
                "title": title,
                "weight": _clean_weight(data.get("weight", 10), title),
                "auto_price": bool(data.get("auto_price", False)),
                "criteria": criteria,
            }
        )
    if sum(s["weight"] for s in cleaned) <= 0:
        raise ServiceError(_("Weights must not all be zero."), field="sections")
    return cleaned


def _write_sections(template: ChecklistTemplate, sections: list[dict]) -> None:
    sections = clean_sections(sections)
    codes = [s["code"] for s in sections]
    if len(codes) != len(set(codes)):
        raise ServiceError(_("Section codes must be unique."), field="sections")
    for position, data in enumerate(sections):
        section = ChecklistSection.objects.create(
            template=template,
            code=data["code"],
            title=data["title"],
            weight=Decimal(str(data.get("weight", 10))),
            auto_price=bool(data.get("auto_price", False)),
            position=position,
        )
        criterion_codes = [c["code"] for c in data.get("criteria", [])]
        if len(criterion_codes) != len(set(criterion_codes)):
            raise ServiceError(
                _("Criterion codes must be unique within a section."),
                field="sections",
            )
        ChecklistCriterion.objects.bulk_create(
            ChecklistCriterion(
                section=section,
                code=c["code"],
                text=c["text"],
                weight=Decimal(str(c.get("weight", 1))),
                position=i,
            )
            for i, c in enumerate(data.get("criteria", []))
        )


def _clean_template_name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise ServiceError(
            _("Give the checklist a name of at most 200 characters."), field="name"
        )
    return name


@transaction.atomic
def create_template(
    *, organisation: Organisation, name: str, sections: list[dict] | None = None
) -> ChecklistTemplate:
    name = _clean_template_name(name)
    try:
        with transaction.atomic():
            template = ChecklistTemplate.objects.create(
                organisation=organisation, name=name
            )
    except IntegrityError as exc:
        raise ServiceError(
            _("A checklist with this name already exists."), field="name"
        ) from exc
    _write_sections(template, sections if sections is not None else default_sections())
    return template


@transaction.atomic
def update_template(
    *, template: ChecklistTemplate, name: str | None = None, sections=None
) -> ChecklistTemplate:
    """Rename, and/or replace the sections. Sections with scores keep their rows:
    a replaced template with scores is refused (scores would lose their criteria)."""
    if name is not None:
        template.name = _clean_template_name(name)
        try:
            with transaction.atomic():
                template.save()
        except IntegrityError as exc:
            raise ServiceError(
                _("A checklist with this name already exists."), field="name"
            ) from exc
    if sections is not None:
        if Score.objects.filter(criterion__section__template=template).exists():
            raise ServiceError(
                _("Bids were already scored with this checklist; copy it instead."),
                field="sections",
            )
        template.sections.all().delete()
        _write_sections(template, sections)
    return template


def template_locked(*, template: ChecklistTemplate) -> bool:
    """Scored with already: its sections and criteria can no longer change."""
    return Score.objects.filter(criterion__section__template=template).exists()


def template_sections(template: ChecklistTemplate) -> list[dict]:
    """The template's sections as `create_template`/`update_template` take them."""
    return [
        {
            "code": s.code,
            "title": s.title,
            "weight": s.weight,
            "auto_price": s.auto_price,
            "criteria": [
                {"code": c.code, "text": c.text, "weight": c.weight}
                for c in s.criteria.all()
            ],
        }
        for s in template.sections.prefetch_related("criteria")
    ]


@transaction.atomic
def copy_template(
    *, template: ChecklistTemplate, name: str | None = None
) -> ChecklistTemplate:
    """An editable copy (the way to change a checklist bids were scored with)."""
    if name is None:
        base = _("Copy of %(name)s") % {
            "name": checklist_default.template_name(template.name)
        }
        name, n = base[:200], 2
        taken = set(
            ChecklistTemplate.objects.filter(
                organisation_id=template.organisation_id
            ).values_list("name", flat=True)
        )
        while name in taken:
            name = f"{base[:190]} ({n})"
            n += 1
    return create_template(
        organisation=template.organisation,
        name=name,
        sections=template_sections(template),
    )


def delete_template(*, template: ChecklistTemplate) -> None:
    if Score.objects.filter(criterion__section__template=template).exists():
        raise ServiceError(
            _("Bids were already scored with this checklist."), field="template"
        )
    template.delete()


# --- evaluation settings, scores, audit --------------------------------------------


def _audit(
    *,
    procurement: Procurement,
    actor,
    action: str,
    target: str,
    old: Any,
    new: Any,
    bid: Bid | None = None,
) -> AuditEntry:
    def text(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, dict | list):
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        return str(value)

    return AuditEntry.objects.create(
        procurement=procurement,
        bid=bid,
        actor=actor,
        action=action,
        target=target,
        old_value=text(old),
        new_value=text(new),
    )


def evaluation_settings_for(*, procurement: Procurement) -> EvaluationSettings:
    """The procurement's evaluation settings, created with the default checklist."""
    settings_row = (
        EvaluationSettings.objects.filter(procurement=procurement)
        .select_related("template")
        .first()
    )
    if settings_row is not None and settings_row.template_id is not None:
        return settings_row
    template = create_default_template(organisation=procurement.organisation)
    settings_row, _created = EvaluationSettings.objects.get_or_create(
        procurement=procurement, defaults={"template": template}
    )
    if settings_row.template_id is None:
        settings_row.template = template
        settings_row.save(update_fields=["template"])
    return settings_row


SETTINGS_FIELDS = (
    "blind_grading",
    "sealed_envelope",
    "technical_threshold",
    "scoring_closed",
    "template",
)


@transaction.atomic
def update_evaluation_settings(
    *, procurement: Procurement, user, **values
) -> EvaluationSettings:
    row = evaluation_settings_for(procurement=procurement)
    template = values.get("template")
    if template is not None and template.organisation_id != procurement.organisation_id:
        raise ServiceError(_("No such checklist."), field="template")
    if (
        template is not None
        and template.pk != row.template_id
        and Score.objects.filter(bid__procurement=procurement).exists()
    ):
        raise ServiceError(
            _("Bids were already scored; the checklist can no longer change."),
            field="template",
        )
    threshold = values.get("technical_threshold")
    if threshold is not None and not 0 <= threshold <= 100:
        raise ServiceError(
            _("The technical threshold is between 0 and 100."),
            field="technical_threshold",
        )
    for field in SETTINGS_FIELDS:
        if field not in values:
            continue
        old = getattr(row, field)
        new = values[field]
        if old != new:
            _audit(
                procurement=procurement,
                actor=user,
                action=AuditAction.SETTINGS,
                target=field,
                old=old,
                new=new,
            )
            setattr(row, field, new)
    row.save()
    return row


def section_weights(
    settings_row: EvaluationSettings, sections: Iterable[ChecklistSection]
) -> dict[str, float]:
    """Effective weight of every section: the procurement's override or the template's."""
    override = settings_row.section_weights or {}
    return {s.code: float(override.get(s.code, s.weight)) for s in sections}


def clean_section_weights(
    weights: dict[str, Any], sections: Iterable[ChecklistSection]
) -> dict[str, float]:
    known = {s.code for s in sections}
    cleaned: dict[str, float] = {}
    for code, value in weights.items():
        if code not in known:
            raise ServiceError(
                _("Unknown section %(code)s.") % {"code": code}, field="weights"
            )
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = -1.0
        if not 0 <= number <= 1000:
            raise ServiceError(
                _("Weights are numbers between 0 and 1000."), field="weights"
            )
        cleaned[code] = number
    if cleaned and sum(cleaned.values()) <= 0:
        raise ServiceError(_("Weights must not all be zero."), field="weights")
    return cleaned


@transaction.atomic
def save_section_weights(
    *, procurement: Procurement, user, weights: dict[str, Any]
) -> dict[str, float]:
    row = evaluation_settings_for(procurement=procurement)
    sections = list(row.template.sections.all())
    cleaned = clean_section_weights(weights, sections)
    old = section_weights(row, sections)
    new = {**old, **cleaned}
    for code in new:
        if old.get(code) != new[code]:
            _audit(
                procurement=procurement,
                actor=user,
                action=AuditAction.WEIGHT,
                target=f"section:{code}",
                old=old.get(code),
                new=new[code],
            )
    row.section_weights = new
    row.save(update_fields=["section_weights"])
    return new


def is_technical_evaluator(user) -> bool:
    """Scores bids but neither manages vendors nor decides: the IT lead's seat."""
    return (
        can(user, Capability.SCORE_BIDS)
        and not can(user, Capability.EDIT_VENDORS)
        and not can(user, Capability.DECIDE)
    )


def has_submitted(*, procurement: Procurement, user) -> bool:
    return TechnicalSubmission.objects.filter(
        procurement=procurement, evaluator=user
    ).exists()


@transaction.atomic
def record_score(
    *,
    bid: Bid,
    criterion: ChecklistCriterion,
    evaluator,
    points: int,
    note: str = "",
) -> Score:
    """Create or change one evaluator's mark (0-5) on one criterion, with an audit row."""
    procurement = bid.procurement
    row = evaluation_settings_for(procurement=procurement)
    if row.scoring_closed:
        raise ServiceError(_("Scoring is closed."), field="points")
    if criterion.section.template_id != row.template_id:
        raise ServiceError(_("No such criterion."), field="criterion")
    if criterion.section.auto_price:
        raise ServiceError(
            _("The price section is scored from the normalised TCO."),
            field="criterion",
        )
    if not isinstance(points, int) or not 0 <= points <= 5:
        raise ServiceError(_("Points are a whole number from 0 to 5."), field="points")
    if row.sealed_envelope and has_submitted(procurement=procurement, user=evaluator):
        raise ServiceError(
            _("You have submitted your technical scores; they can no longer change."),
            field="points",
        )
    score = (
        Score.objects.select_for_update()
        .filter(bid=bid, criterion=criterion, evaluator=evaluator)
        .first()
    )
    old = None if score is None else score.points
    if score is None:
        score = Score(bid=bid, criterion=criterion, evaluator=evaluator)
    if old != points or score.note != note:
        _audit(
            procurement=procurement,
            bid=bid,
            actor=evaluator,
            action=AuditAction.SCORE,
            target=criterion.code,
            old=old,
            new=points,
        )
    score.points = points
    score.note = note
    score.save()
    return score


@transaction.atomic
def submit_technical_scores(*, procurement: Procurement, evaluator) -> None:
    """Seal an evaluator's technical scores; prices become visible to them."""
    _submission, created = TechnicalSubmission.objects.get_or_create(
        procurement=procurement, evaluator=evaluator
    )
    if created:
        _audit(
            procurement=procurement,
            actor=evaluator,
            action=AuditAction.SUBMISSION,
            target=evaluator.get_username(),
            old="",
            new="submitted",
        )


@transaction.atomic
def record_decision(
    *, procurement: Procurement, user, bid: Bid, rationale: str
) -> Decision:
    """Stage 5: the chosen bid and why. Only a role with DECIDE (manager, admin)."""
    if not can(user, Capability.DECIDE):
        raise ServiceError(_("Only a manager can record the decision."), field="bid")
    if bid.procurement_id != procurement.pk:
        raise ServiceError(_("No such bid."), field="bid")
    if not rationale.strip():
        raise ServiceError(_("Give the rationale for the decision."), field="rationale")
    decision = Decision.objects.filter(procurement=procurement).first()
    old = None if decision is None else f"bid {decision.bid_id}: {decision.rationale}"
    if decision is None:
        decision = Decision(procurement=procurement)
    decision.bid = bid
    decision.rationale = rationale
    decision.decided_by = user
    decision.save()
    _audit(
        procurement=procurement,
        bid=bid,
        actor=user,
        action=AuditAction.DECISION,
        target="decision",
        old=old,
        new=f"bid {bid.pk}: {rationale}",
    )
    return decision


# --- stage check -------------------------------------------------------------------


def shortlist_check(procurement: Procurement) -> CheckResult:
    """Stage 2: 3-5 candidate vendors shortlisted (bids from distinct vendors)."""
    count = Bid.objects.filter(procurement=procurement).values("vendor").count()
    return CheckResult(
        _("3–5 candidate vendors shortlisted"),
        3 <= count <= 5,
        _("%(n)s vendors with a bid; shortlist 3 to 5.") % {"n": count},
    )


@transaction.atomic
def add_line_item(*, bid: Bid, user=None, **values) -> BidLineItem:
    item = BidLineItem(bid=bid, position=bid.line_items.count(), **values)
    item.full_clean(exclude=["bid"])
    item.save()
    _audit_line_items(
        bid=bid, user=user, target="added", old="", new=describe_line_item(item)
    )
    return item


@transaction.atomic
def delete_line_item(*, item: BidLineItem, user=None) -> None:
    _audit_line_items(
        bid=item.bid, user=user, target="removed", old=describe_line_item(item), new=""
    )
    item.delete()


def visible_audit(
    entries: Iterable[AuditEntry],
    *,
    hide_prices: bool,
    blind: bool,
    criteria: dict[str, str] | None = None,
) -> list[AuditEntry]:
    """The audit entries a user may read, each with a readable ``target_label``:
    line items (they carry prices) stay sealed until a sealed-envelope evaluator has
    submitted, vendor names stay hidden under blind grading. ``criteria`` maps
    criterion codes to their shown text. Rows are masked in memory, never saved."""
    hidden = _("hidden")
    labels = {
        "created": _("bid created"),
        "added": _("line item added"),
        "removed": _("line item removed"),
        "line_items": _("line items replaced"),
    }
    out = []
    for entry in entries:
        masked = (hide_prices and entry.action == AuditAction.LINE_ITEM) or (
            blind
            and entry.action == AuditAction.BID
            and entry.target in ("created", "vendor")
        )
        if masked:
            entry.old_value = hidden if entry.old_value else ""
            entry.new_value = hidden if entry.new_value else ""
        entry.target_label = labels.get(entry.target, entry.target)
        if entry.action == AuditAction.BID and entry.target in BID_FIELDS + ("vendor",):
            entry.target_label = str(Bid._meta.get_field(entry.target).verbose_name)
        elif entry.action == AuditAction.SCORE and criteria:
            entry.target_label = criteria.get(entry.target, entry.target)
        elif entry.target.startswith("imported: "):
            entry.target_label = _("imported from %(file)s") % {
                "file": entry.target.removeprefix("imported: ")
            }
        if entry.action == AuditAction.LINE_ITEM and not masked:
            entry.old_value = _readable_items(entry.old_value)
            entry.new_value = _readable_items(entry.new_value)
        out.append(entry)
    return out


def _readable_items(text: str) -> str:
    """Stored line-item descriptions start with the category code and may end in
    " /yr": show the category's translated label and "per year" instead."""
    if not text:
        return text
    lines = []
    for line in text.split("\n"):
        code, sep, rest = line.partition(" · ")
        if sep and code in LineCategory.values:
            line = f"{LineCategory(code).label}{sep}{rest}"
        if line.endswith(" /yr"):
            line = f"{line.removesuffix(' /yr')} {_('per year')}"
        lines.append(line)
    return "\n".join(lines)


def visibility_context(procurement, user) -> dict:
    """Blind labels and sealed prices for this user (see comparison.build_comparison)."""
    row = evaluation_settings_for(procurement=procurement)
    context: dict = {}
    if (
        row.blind_grading
        and not row.scoring_closed
        and not can(user, Capability.EDIT_VENDORS)
    ):
        ids = (
            Bid.objects.for_procurement(procurement)
            .order_by("id")
            .values_list("id", flat=True)
        )
        context["blind_labels"] = {
            pk: _("Vendor %(n)s") % {"n": i} for i, pk in enumerate(ids, start=1)
        }
    context["hide_prices"] = (
        row.sealed_envelope
        and is_technical_evaluator(user)
        and not has_submitted(procurement=procurement, user=user)
    )
    return context
