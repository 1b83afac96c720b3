"""The evaluation committee (评标委员会) of a procurement: its members, each member's own
marks, the changes made after summation, dissent, the bids' contact facts the
collusion signals read, and the issued 评标报告 (a frozen snapshot and its PDFs).

The composition rules (size, odd number, experts' share) are the engine's
(`vendors.engine.regimes.committee`, 87号令 第四十七条 / 招标投标法 第三十七条); the
scoring rules are `vendors.services.committee_scoring`.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator, MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit
from clusterbuy.models import Procurement

from ..engine.regimes import ScoreChangeReason
from .bids import Bid
from .checklists import ChecklistCriterion


class SeatRole(models.TextChoices):
    BUYER_REP = "buyer_rep", _("Buyer's representative")
    EXPERT = "expert", _("Evaluation expert")


class ChangeReason(models.TextChoices):
    """87号令 第六十四条's four lawful reasons to change a result after summation."""

    SUMMATION_ERROR = (
        ScoreChangeReason.SUMMATION_ERROR.value,
        _("Error in summing the scores"),
    )
    OUT_OF_RANGE = (
        ScoreChangeReason.OUT_OF_RANGE.value,
        _("A score outside the scoring standard's range"),
    )
    OBJECTIVE_INCONSISTENT = (
        ScoreChangeReason.OBJECTIVE_INCONSISTENT.value,
        _("Members scored an objective factor differently"),
    )
    ABNORMAL_SCORE = (
        ScoreChangeReason.ABNORMAL_SCORE.value,
        _("The committee found a score abnormally high or low"),
    )


class Committee(models.Model):
    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="committee"
    )
    # 87号令 第四十七条: any one of these (or a budget of 10 M CNY or more) -> 7 members.
    complex_project = models.BooleanField(
        _("technically complex project"), default=False
    )
    high_social_impact = models.BooleanField(_("large social impact"), default=False)
    # Summation (汇总): after it, a mark changes only for a lawful reason.
    summed_at = models.DateTimeField(null=True, blank=True)
    summed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("evaluation committee")
        verbose_name_plural = _("evaluation committees")


class CommitteeMember(models.Model):
    committee = models.ForeignKey(
        Committee, on_delete=models.CASCADE, related_name="members"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    role = models.CharField(_("seat"), max_length=12, choices=SeatRole.choices)
    is_chair = models.BooleanField(_("chair"), default=False)
    submitted_at = models.DateTimeField(null=True, blank=True)
    dissent = models.TextField(
        _("dissent"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    dissent_at = models.DateTimeField(null=True, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["committee", "user"], name="committee_member_once"
            ),
            models.UniqueConstraint(
                fields=["committee"],
                condition=Q(is_chair=True),
                name="committee_one_chair",
            ),
        ]

    def __str__(self) -> str:
        return self.user.get_full_name() or self.user.get_username()

    @property
    def name(self) -> str:
        return str(self)


class CommitteeScore(models.Model):
    """One member's own mark (0-5) on one technical criterion of one bid."""

    member = models.ForeignKey(
        CommitteeMember, on_delete=models.CASCADE, related_name="scores"
    )
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="+")
    criterion = models.ForeignKey(
        ChecklistCriterion, on_delete=models.CASCADE, related_name="+"
    )
    points = models.PositiveSmallIntegerField(
        _("points"), validators=[MaxValueValidator(5)]
    )
    note = models.TextField(_("note"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["member", "bid", "criterion"], name="committee_score_once"
            ),
            models.CheckConstraint(
                condition=Q(points__lte=5), name="committee_score_0_to_5"
            ),
        ]


class ScoreChange(models.Model):
    """A mark changed after summation: who, when, from what to what, and why."""

    score = models.ForeignKey(
        CommitteeScore, on_delete=models.CASCADE, related_name="changes"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    old_points = models.PositiveSmallIntegerField()
    new_points = models.PositiveSmallIntegerField()
    # Blank only under the commercial regime, which names no lawful reasons.
    reason = models.CharField(
        _("reason"), max_length=30, choices=ChangeReason.choices, blank=True
    )
    explanation = models.TextField(
        _("explanation"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )

    class Meta:
        ordering = ["changed_at", "id"]


_PHONE = re.compile(r"^\+?[0-9 ()\-]+$")
PHONE_DIGITS = (7, 20)


def validate_phone(value: str) -> None:
    """A phone number as a 投标函 gives it: digits, spaces, brackets and dashes, an
    optional leading + (``+86 10 6555 0101``, ``(010) 6555-0101``), 7-20 digits."""
    digits = sum(ch.isdigit() for ch in value)
    low, high = PHONE_DIGITS
    if not _PHONE.match(value) or not low <= digits <= high:
        raise ValidationError(
            _(
                "Enter a phone number: %(low)s to %(high)s digits, with spaces, "
                "brackets, dashes or a leading + only."
            ),
            code="invalid_phone",
            params={"low": low, "high": high},
        )


class BidContact(models.Model):
    """The contact facts of a bid's 投标函 (and the account its bond came from), which
    the collusion signals compare across bids (87号令 第三十七条)."""

    bid = models.OneToOneField(Bid, on_delete=models.CASCADE, related_name="contact")
    contact_person = models.CharField(_("contact person"), max_length=200, blank=True)
    phone = models.CharField(
        _("phone"), max_length=60, blank=True, validators=[validate_phone]
    )
    email = models.CharField(
        _("e-mail"),
        max_length=254,
        blank=True,
        validators=[EmailValidator(message=_("Enter a valid e-mail address."))],
    )
    bond_account = models.CharField(
        _("bid bond paid from account"), max_length=80, blank=True
    )


class EvaluationReport(models.Model):
    """The issued 评标报告: the snapshot it renders from and the PDFs rendered at
    issue, so a download is byte-identical whatever is edited afterwards."""

    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="evaluation_report"
    )
    snapshot = models.JSONField(default=dict, editable=False)
    pdf_en = models.BinaryField(editable=False)
    pdf_zh = models.BinaryField(editable=False)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_at = models.DateTimeField(auto_now_add=True)
