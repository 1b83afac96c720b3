"""Computed sizing plans, kept as history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement


class SizingPlanQuerySet(models.QuerySet):
    def for_procurement(self, procurement: Procurement) -> SizingPlanQuerySet:
        return self.filter(procurement=procurement).order_by("-created_at", "-id")


class SizingPlan(models.Model):
    """A computed plan; never edited, kept as history (latest first)."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="sizing_plans"
    )
    engine_version = models.CharField(_("engine version"), max_length=40)
    result = models.JSONField(_("result"))  # plan_cluster(...).to_dict()
    alternatives = models.JSONField(_("alternatives"), default=list)
    inputs = models.JSONField(_("inputs"))  # {"workloads": [...], "constraints": ...}
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = SizingPlanQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("sizing plan")
        verbose_name_plural = _("sizing plans")

    def __str__(self) -> str:
        return f"{self.procurement} #{self.pk} ({self.engine_version})"
