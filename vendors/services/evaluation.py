"""Evaluation of the bids: settings (blind grading, sealed envelope, threshold,
weights), evaluators' scores (held against the automatic scores) and the technical
submission. The decision is `vendors.services.decisions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..models import (
    AuditAction,
    Bid,
    ChecklistCriterion,
    ChecklistSection,
    EvaluationSettings,
    Score,
    TechnicalSubmission,
)
from . import stages
from .audit import record_audit
from .checklists import default_template, ensure_default_template


def evaluation_settings_for(*, procurement: Procurement) -> EvaluationSettings:
    """The procurement's evaluation settings, read only (pages and the API read them
    on GET). Before the first write an unsaved row: the model's defaults and the
    organisation's default checklist, itself unsaved before its first use (see
    `checklists.default_template`). `ensure_evaluation_settings` stores them."""
    settings_row = _stored_settings(procurement)
    if settings_row is None:
        settings_row = EvaluationSettings(procurement=procurement)
    if settings_row.template_id is None:
        settings_row.template = default_template(organisation=procurement.organisation)
    return settings_row


def _stored_settings(procurement: Procurement) -> EvaluationSettings | None:
    return (
        EvaluationSettings.objects.filter(procurement=procurement)
        .select_related("template")
        .first()
    )


@transaction.atomic
def ensure_evaluation_settings(*, procurement: Procurement) -> EvaluationSettings:
    """The procurement's stored evaluation settings, created with the organisation's
    default checklist on first use: called by the write paths (a bid, a score, the
    settings, the weights), never by a read."""
    settings_row = _stored_settings(procurement)
    if settings_row is not None and settings_row.template_id is not None:
        return settings_row
    template = ensure_default_template(organisation=procurement.organisation)
    settings_row, _created = EvaluationSettings.objects.get_or_create(
        procurement=procurement, defaults={"template": template}
    )
    if settings_row.template_id is None:
        settings_row.template = template
        settings_row.save(update_fields=["template"])
    return settings_row


def checklist_sections(settings_row: EvaluationSettings) -> list[ChecklistSection]:
    """The stored sections, with their criteria, of the settings' checklist; none
    while it is the unsaved default (nothing was scored or weighed against it yet)."""
    if settings_row.template_id is None:
        return []
    return list(
        ChecklistSection.objects.filter(
            template_id=settings_row.template_id
        ).prefetch_related("criteria")
    )


#: The heaviest a checklist section may weigh (forms, the API and this service).
SECTION_WEIGHT_MAX = 1000

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
    row = ensure_evaluation_settings(procurement=procurement)
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
            record_audit(
                procurement=procurement,
                actor=user,
                action=AuditAction.SETTINGS,
                target=field,
                old=old,
                new=new,
            )
            setattr(row, field, new)
    row.save()
    if values.get("scoring_closed") is True:
        stages.on_evaluation_closed(procurement, user)
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
        if not 0 <= number <= SECTION_WEIGHT_MAX:
            raise ServiceError(
                _("Weights are numbers between 0 and %(max)s.")
                % {"max": SECTION_WEIGHT_MAX},
                field="weights",
            )
        cleaned[code] = number
    if cleaned and sum(cleaned.values()) <= 0:
        raise ServiceError(_("Weights must not all be zero."), field="weights")
    return cleaned


@transaction.atomic
def save_section_weights(
    *, procurement: Procurement, user, weights: dict[str, Any]
) -> dict[str, float]:
    row = ensure_evaluation_settings(procurement=procurement)
    sections = list(row.template.sections.all())
    cleaned = clean_section_weights(weights, sections)
    old = section_weights(row, sections)
    new = {**old, **cleaned}
    for code in new:
        if old.get(code) != new[code]:
            record_audit(
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


def has_submitted(*, procurement: Procurement, user) -> bool:
    return TechnicalSubmission.objects.filter(
        procurement=procurement, evaluator=user
    ).exists()


@dataclass(frozen=True)
class ScoreMark:
    """One mark to record: `criterion` is its id (the bid page) or its code (the API,
    where digits are tried as an id when no code matches)."""

    criterion: int | str
    points: int
    note: str = ""


@transaction.atomic
def record_score(
    *,
    bid: Bid,
    criterion: ChecklistCriterion,
    evaluator,
    points: int,
    note: str = "",
    automatic: Mapping[str, float] | None = None,
) -> Score:
    """Create or change one evaluator's mark (0-5) on one criterion, with an audit row
    (``automatic``: as in `record_scores`; the demo seeds marks without findings)."""
    settings_row = ensure_evaluation_settings(procurement=bid.procurement)
    auto = (automatic or {}).get(criterion.code)
    return _record_mark(settings_row, bid, criterion, evaluator, points, note, auto)


@transaction.atomic
def record_scores(
    *,
    bid: Bid,
    evaluator,
    scores: Iterable[ScoreMark],
    automatic: Mapping[str, float],
) -> list[Score]:
    """An evaluator's marks on one bid, all or none: one refused mark (an unknown or
    price criterion, points outside 0-5, scoring closed or sealed, an automatic score
    overridden without a note) rolls back the marks recorded before it, so a form
    posted with one bad value changes nothing.

    ``automatic`` (criterion code -> points, `comparison.automatic_points`) holds the
    automatic scores the evaluator sees: a mark that differs from one needs a note
    saying why, and is audited as an override."""
    settings_row = ensure_evaluation_settings(procurement=bid.procurement)
    criteria = list(
        ChecklistCriterion.objects.filter(
            section__template_id=settings_row.template_id
        ).select_related("section")
    )
    marks = [(criterion_for(mark.criterion, criteria), mark) for mark in scores]
    return [
        _record_mark(
            settings_row,
            bid,
            criterion,
            evaluator,
            mark.points,
            mark.note,
            automatic.get(criterion.code),
        )
        for criterion, mark in marks
    ]


def criterion_for(
    key: int | str, criteria: list[ChecklistCriterion]
) -> ChecklistCriterion:
    """The first criterion (in checklist order) with code `key`, else with id `key`."""
    if isinstance(key, str):
        match = next((c for c in criteria if c.code == key), None)
        if match is not None:
            return match
        key = int(key) if key.isdigit() else -1
    match = next((c for c in criteria if c.pk == key), None)
    if match is None:
        raise ServiceError(_("No such criterion."), field="criterion")
    return match


def _record_mark(
    settings_row: EvaluationSettings,
    bid: Bid,
    criterion: ChecklistCriterion,
    evaluator,
    points: int,
    note: str,
    automatic: float | None = None,
) -> Score:
    procurement = bid.procurement
    if settings_row.scoring_closed:
        raise ServiceError(_("Scoring is closed."), field="points")
    if criterion.section.template_id != settings_row.template_id:
        raise ServiceError(_("No such criterion."), field="criterion")
    if criterion.section.auto_price:
        raise ServiceError(
            _("The price section is scored from the normalised TCO."),
            field="criterion",
        )
    if not isinstance(points, int) or not 0 <= points <= 5:
        raise ServiceError(_("Points are a whole number from 0 to 5."), field="points")
    if settings_row.sealed_envelope and has_submitted(
        procurement=procurement, user=evaluator
    ):
        raise ServiceError(
            _("You have submitted your technical scores; they can no longer change."),
            field="points",
        )
    overrides = automatic is not None and points != automatic
    if overrides and not note.strip():
        raise ServiceError(
            _(
                "“%(criterion)s” is scored %(automatic)s automatically from the "
                "findings; give a note saying why it deserves %(points)s."
            )
            % {
                "criterion": criterion.display_text,
                "automatic": f"{automatic:g}",
                "points": points,
            },
            field="note",
        )
    score, old = _claim_score(bid, criterion, evaluator, points, note)
    if old != points or score.note != note:
        record_audit(
            procurement=procurement,
            bid=bid,
            actor=evaluator,
            action=AuditAction.OVERRIDE if overrides else AuditAction.SCORE,
            target=criterion.code,
            old=f"{automatic:g}" if overrides and old is None else old,
            new=f"{points}: {note.strip()}" if overrides else points,
        )
    score.points = points
    score.note = note
    score.save()
    return score


def _claim_score(
    bid: Bid, criterion: ChecklistCriterion, evaluator, points: int, note: str
) -> tuple[Score, int | None]:
    """The evaluator's mark on the criterion, locked, with its points before this
    call (None: a first mark, created here). Two first marks posted at once: the
    second insert waits for the first to commit, fails on the unique constraint in
    its savepoint, and takes the row the first one wrote, so it updates instead of
    answering an error."""
    key = {"bid": bid, "criterion": criterion, "evaluator": evaluator}
    score = Score.objects.select_for_update().filter(**key).first()
    if score is not None:
        return score, score.points
    try:
        with transaction.atomic():
            return Score.objects.create(**key, points=points, note=note), None
    except IntegrityError:
        score = Score.objects.select_for_update().filter(**key).first()
        if score is None:
            raise
        return score, score.points


@transaction.atomic
def submit_technical_scores(*, procurement: Procurement, evaluator) -> None:
    """Seal an evaluator's technical scores; prices become visible to them."""
    _submission, created = TechnicalSubmission.objects.get_or_create(
        procurement=procurement, evaluator=evaluator
    )
    if created:
        record_audit(
            procurement=procurement,
            actor=evaluator,
            action=AuditAction.SUBMISSION,
            target=evaluator.get_username(),
            old="",
            new="submitted",
        )
