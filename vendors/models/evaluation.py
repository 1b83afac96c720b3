"""Evaluation: a procurement's scoring settings, the evaluators' scores, the sealed
envelope's submissions and the final decision."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit
from clusterbuy.models import Procurement

from .bids import Bid
from .checklists import ChecklistCriterion, ChecklistTemplate


class EvaluationSettings(models.Model):
    """How a procurement's bids are evaluated (one row per procurement)."""

    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="evaluation_settings"
    )
    template = models.ForeignKey(
        ChecklistTemplate, null=True, blank=True, on_delete=models.SET_NULL
    )
    blind_grading = models.BooleanField(_("blind grading"), default=False)
    sealed_envelope = models.BooleanField(_("sealed envelope"), default=False)
    technical_threshold = models.FloatField(
        _("technical threshold (0-100)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    scoring_closed = models.BooleanField(_("scoring closed"), default=False)
    # section code -> weight; overrides the template's section weights.
    section_weights = models.JSONField(default=dict, blank=True)
    disagreement_points = models.FloatField(default=2.0)


class Score(models.Model):
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="scores")
    criterion = models.ForeignKey(
        ChecklistCriterion, on_delete=models.CASCADE, related_name="scores"
    )
    evaluator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bid_scores"
    )
    points = models.PositiveSmallIntegerField(
        _("points"), validators=[MaxValueValidator(5)]
    )
    note = models.TextField(
        _("evidence note"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["bid", "criterion", "evaluator"], name="score_unique"
            ),
            models.CheckConstraint(condition=Q(points__lte=5), name="score_0_to_5"),
        ]


class TechnicalSubmission(models.Model):
    """An evaluator has submitted their technical scores (sealed envelope opens)."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="technical_submissions"
    )
    evaluator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["procurement", "evaluator"], name="technical_submission_once"
            ),
        ]


class Decision(models.Model):
    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="vendor_decision"
    )
    bid = models.ForeignKey(Bid, on_delete=models.PROTECT, related_name="+")
    rationale = models.TextField(_("rationale"), **text_limit(LONG_TEXT_MAX_CHARS))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now=True)
    # The comparison as the decider saw it when recording the decision (columns with
    # totals, flags, compliance, ranks, weights; `vendors.decision_memo.snapshot`):
    # the memo renders from it, so later edits of a bid do not change the record.
    snapshot = models.JSONField(default=dict, blank=True, editable=False)
    # Choosing a bid that fails a requirement, falls below the technical threshold or
    # is not ranked first (`vendors.engine.decision_guard`) is an override: the
    # checks it overrode (codes) and the decider's reason, printed by the memo.
    override_checks = models.JSONField(default=list, blank=True, editable=False)
    override_reason = models.TextField(
        _("override reason"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
