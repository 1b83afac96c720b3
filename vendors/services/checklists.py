"""Evaluation checklist templates: the organisation's default from the buyer's guide,
user templates, their validation, copies, and the lock once a template is in use.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, prefetch_related_objects
from django.utils.translation import gettext as _

from clusterbuy.models import Organisation
from clusterbuy.services import ServiceError

from ..models import (
    ChecklistCriterion,
    ChecklistSection,
    ChecklistTemplate,
    Score,
    checklist_default,
)


def default_template(*, organisation: Organisation) -> ChecklistTemplate:
    """The organisation's default checklist, read only: the stored one, or before its
    first use an unsaved template of the buyer's guide (its sections are
    `template_sections`). `ensure_default_template` stores it, in a write path."""
    stored = (
        _flagged_default(organisation)
        or ChecklistTemplate.objects.filter(
            organisation=organisation, name=checklist_default.TEMPLATE_NAME
        ).first()
    )
    if stored is not None:
        return stored
    return ChecklistTemplate(
        organisation=organisation,
        name=checklist_default.TEMPLATE_NAME,
        is_default=True,
    )


def _flagged_default(organisation: Organisation) -> ChecklistTemplate | None:
    return (
        ChecklistTemplate.objects.filter(organisation=organisation, is_default=True)
        .order_by("id")
        .first()
    )


@transaction.atomic
def ensure_default_template(*, organisation: Organisation) -> ChecklistTemplate:
    """The organisation's default checklist; created from the buyer's guide on first use."""
    existing = _flagged_default(organisation)
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


def organisation_templates(*, organisation: Organisation) -> list[ChecklistTemplate]:
    """The organisation's checklists for the list page, default first, each with
    `locked`, `procurement_count` and `section_count`. Before the default's first use
    it is listed unsaved, as `ensure_default_template` will store it."""
    templates = list(
        ChecklistTemplate.objects.filter(organisation=organisation)
        .annotate(
            locked=Exists(
                Score.objects.filter(criterion__section__template=OuterRef("pk"))
            ),
            procurement_count=Count("evaluationsettings", distinct=True),
            section_count=Count("sections", distinct=True),
        )
        .order_by("-is_default", "name", "id")
    )
    default = default_template(organisation=organisation)
    if default.pk is None:
        default.locked = False
        default.procurement_count = 0
        default.section_count = len(checklist_default.SECTIONS)
        templates.insert(0, default)
    return templates


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
    """The template's sections as `create_template`/`update_template` take them (the
    one serialisation of a checklist: the editor and the API show it). An unsaved
    default (see `default_template`) has the buyer's guide sections, cleaned as they
    would be stored. Sections and criteria the caller prefetched are not read again."""
    if template.pk is None:
        return clean_sections(default_sections())
    prefetch_related_objects([template], "sections__criteria")
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
        for s in template.sections.all()
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
