"""A procurement's answers to the sizing questionnaire.

Budget, horizon, site, region, data locality and the team's scheduler experience are
the procurement's facts (clusterbuy.models.Procurement): the questionnaire shows them
and sizing reads them from there; they have no copy here (issue 12).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement, Region

from .catalog import Ecosystem

__all__ = ["Region", "Requirement", "Scenario"]  # Region: the procurement's choices


class Scenario(models.TextChoices):
    TRAINING = "training", _("Training")
    INFERENCE = "inference", _("Inference")
    MIXED = "mixed", _("Training and inference")


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
    growth_per_year = models.FloatField(
        _("data and demand growth per year (%)"), default=0
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

    def __str__(self) -> str:
        return f"{self.procurement}: {self.get_scenario_display()}"
