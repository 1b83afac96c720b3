"""Organisations, memberships and procurements: the root of every user's data.

Access control is one rule (design.md): an object is visible when its organisation is
the user's organisation. `Procurement.objects.for_user(user)` is that rule's home.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .bounds import LONG_TEXT_MAX_CHARS, text_limit


class Organisation(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    ADMIN = "admin", _("Administrator")
    IT_LEAD = "it_lead", _("IT lead")
    PROCUREMENT = "procurement", _("Procurement")
    MANAGER = "manager", _("Manager")
    VIEWER = "viewer", _("Viewer")
    # An outside 评审专家 on an evaluation committee: scores as a member, nothing else.
    EXPERT = "expert", _("Evaluation expert")


class Membership(models.Model):
    """A user belongs to exactly one organisation, with one role."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} @ {self.organisation} ({self.role})"


class Currency(models.TextChoices):
    CNY = "CNY", _("CNY (¥)")
    USD = "USD", _("USD ($)")


class DeploymentSite(models.TextChoices):
    ON_PREM = "on_prem", _("On-premises")
    COLOCATION = "colocation", _("Colocation")
    CLOUD = "cloud", _("Cloud")
    HYBRID = "hybrid", _("Hybrid")


class Region(models.TextChoices):
    """Where the hardware is bought: decides which accelerators can be bought at all
    (export rules; the catalogue's ``cn_status`` / ``global_status``)."""

    CN = "cn", _("Mainland China")
    GLOBAL = "global", _("Outside China")


class DataSensitivity(models.TextChoices):
    NORMAL = "normal", _("Normal")
    CONFIDENTIAL = "confidential", _("Confidential business data")
    MEDICAL_IMAGING = (
        "medical_imaging",
        _("Medical imaging (local deployment required)"),
    )
    INDUSTRIAL_QC = "industrial_qc", _("Industrial QC (local deployment required)")
    REGULATED = "regulated", _("Regulated / classified (local deployment required)")

    @classmethod
    def requires_local(cls, value: str) -> bool:
        return value in {cls.MEDICAL_IMAGING, cls.INDUSTRIAL_QC, cls.REGULATED}


class Stage(models.IntegerChoices):
    INTERNAL_REVIEW = 1, _("1 Internal review")
    SHORTLIST = 2, _("2 Shortlist")
    TECHNICAL_EXCHANGE = 3, _("3 Deep technical exchange")
    CASE_VISITS = 4, _("4 Case visits / remote demos")
    DECISION = 5, _("5 Decision")


class ProcurementQuerySet(models.QuerySet):
    def for_organisation(self, organisation: Organisation) -> ProcurementQuerySet:
        return self.filter(organisation=organisation)

    def for_user(self, user) -> ProcurementQuerySet:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(organisation__memberships__user=user)


class Procurement(models.Model):
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="procurements"
    )
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(
        _("description"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    currency = models.CharField(
        _("currency"), max_length=3, choices=Currency.choices, default=Currency.CNY
    )
    budget_min = models.DecimalField(
        _("budget from"), max_digits=16, decimal_places=2, null=True, blank=True
    )
    budget_max = models.DecimalField(
        _("budget up to"), max_digits=16, decimal_places=2, null=True, blank=True
    )
    horizon_years = models.PositiveSmallIntegerField(
        _("planning horizon (years)"), default=5
    )
    deployment_site = models.CharField(
        _("deployment site"),
        max_length=20,
        choices=DeploymentSite.choices,
        default=DeploymentSite.ON_PREM,
    )
    city = models.CharField(_("city"), max_length=100, blank=True)
    region = models.CharField(
        _("where the hardware is bought"),
        max_length=10,
        choices=Region.choices,
        default=Region.CN,
        help_text=_(
            "Decides which accelerators can be bought (export rules) in sizing and "
            "in the bids."
        ),
    )
    data_sensitivity = models.CharField(
        _("data sensitivity"),
        max_length=30,
        choices=DataSensitivity.choices,
        default=DataSensitivity.NORMAL,
    )
    ops_staff_count = models.PositiveSmallIntegerField(
        _("in-house ops staff"), default=0
    )
    slurm_experience = models.BooleanField(_("Slurm experience"), default=False)
    kubernetes_experience = models.BooleanField(
        _("Kubernetes experience"), default=False
    )
    stage = models.PositiveSmallIntegerField(
        _("stage"), choices=Stage.choices, default=Stage.INTERNAL_REVIEW
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ProcurementQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("procurement")
        verbose_name_plural = _("procurements")
        constraints = [
            models.CheckConstraint(
                condition=Q(horizon_years__gte=3) & Q(horizon_years__lte=5),
                name="procurement_horizon_3_to_5",
            ),
            models.CheckConstraint(
                condition=Q(budget_min__isnull=True)
                | Q(budget_max__isnull=True)
                | Q(budget_min__lte=models.F("budget_max")),
                name="procurement_budget_range_ordered",
            ),
            models.UniqueConstraint(
                fields=["organisation", "name"], name="procurement_unique_name_per_org"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def requires_local_deployment(self) -> bool:
        return DataSensitivity.requires_local(self.data_sensitivity)


class StageChange(models.Model):
    """Audit trail of a procurement's stage: who moved it, when, from what to what."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="stage_changes"
    )
    from_stage = models.PositiveSmallIntegerField(choices=Stage.choices, null=True)
    to_stage = models.PositiveSmallIntegerField(choices=Stage.choices)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True, **text_limit(LONG_TEXT_MAX_CHARS))
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-id"]


class TaskPing(models.Model):
    """Written by the `ping` Celery task: proof that a worker reaches the database."""

    token = models.CharField(max_length=64, unique=True)
    worker_hostname = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
