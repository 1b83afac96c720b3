"""A procurement's answers to the sizing questionnaire."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement

from .catalog import Ecosystem


class Scenario(models.TextChoices):
    TRAINING = "training", _("Training")
    INFERENCE = "inference", _("Inference")
    MIXED = "mixed", _("Training and inference")


class DataLocation(models.TextChoices):
    ON_PREM = "on_prem", _("On-premises")
    CLOUD = "cloud", _("Cloud")
    MULTI_SITE = "multi_site", _("Several sites")


class Region(models.TextChoices):
    CN = "cn", _("Mainland China")
    GLOBAL = "global", _("Outside China")


class SchedulerExperience(models.TextChoices):
    NONE = "none", _("None")
    SLURM = "slurm", "Slurm"
    KUBERNETES = "kubernetes", "Kubernetes"
    BOTH = "both", _("Slurm and Kubernetes")


class Requirement(models.Model):
    """The procurement's answers to the questionnaire (one per procurement)."""

    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="sizing_requirement"
    )
    scenario = models.CharField(
        _("business scenario"),
        max_length=20,
        choices=Scenario.choices,
        default=Scenario.MIXED,
    )
    data_tb = models.FloatField(_("data volume today (TB)"), default=0)
    data_location = models.CharField(
        _("data location"),
        max_length=20,
        choices=DataLocation.choices,
        default=DataLocation.ON_PREM,
    )
    growth_per_year = models.FloatField(
        _("data and demand growth per year (%)"), default=0
    )
    planning_years = models.PositiveSmallIntegerField(
        _("plan for the next (years)"), default=3
    )
    budget = models.DecimalField(
        _("hardware budget"), max_digits=16, decimal_places=2, null=True, blank=True
    )
    budget_currency = models.CharField(
        _("budget currency"), max_length=3, default="CNY"
    )
    region = models.CharField(
        _("where the hardware is bought"),
        max_length=10,
        choices=Region.choices,
        default=Region.CN,
    )
    rack_power_limit_kw = models.FloatField(
        _("rack power limit (kW)"), null=True, blank=True
    )
    liquid_cooling_ok = models.BooleanField(_("liquid cooling possible"), default=False)
    preferred_ecosystem = models.CharField(
        _("preferred software ecosystem"),
        max_length=20,
        choices=Ecosystem.choices,
        blank=True,
    )
    scheduler_experience = models.CharField(
        _("team's scheduler experience"),
        max_length=20,
        choices=SchedulerExperience.choices,
        default=SchedulerExperience.NONE,
    )
    accelerator_key = models.CharField(
        _("pin an accelerator (optional)"), max_length=80, blank=True
    )
    time_shared = models.BooleanField(
        _("workloads take turns on the same GPUs"), default=False
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("requirement")
        verbose_name_plural = _("requirements")
        constraints = [
            models.CheckConstraint(
                condition=Q(planning_years__gte=1) & Q(planning_years__lte=3),
                name="sizing_requirement_planning_1_to_3_years",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.procurement}: {self.get_scenario_display()}"
