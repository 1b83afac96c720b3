"""Case studies: a vendor's past projects, the evidence the over-promising detector
asks for."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit

from .bids import Bid
from .vendors import Vendor


class CaseStudy(models.Model):
    vendor = models.ForeignKey(
        Vendor, on_delete=models.CASCADE, related_name="case_studies"
    )
    bids = models.ManyToManyField(Bid, blank=True, related_name="case_studies")
    client_industry = models.CharField(_("client industry"), max_length=200)
    scenario = models.CharField(_("scenario"), max_length=300, blank=True)
    challenge = models.TextField(
        _("challenge"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    network_architecture = models.TextField(
        _("network architecture"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    storage_choice = models.TextField(
        _("storage choice"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    solution_details = models.TextField(
        _("solution details"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    outcome_before = models.CharField(
        _("measured outcome: before"), max_length=300, blank=True
    )
    outcome_after = models.CharField(
        _("measured outcome: after"), max_length=300, blank=True
    )
    site_visit_done = models.BooleanField(_("site visit done"), default=False)
    remote_demo_done = models.BooleanField(_("remote demo done"), default=False)
    reference_contacted = models.BooleanField(_("reference contacted"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("case study")
        verbose_name_plural = _("case studies")

    def __str__(self) -> str:
        return f"{self.vendor}: {self.client_industry}"

    @property
    def evidence_kinds(self) -> frozenset[str]:
        """The detectors' evidence kinds this case study provides."""
        kinds = set()
        if self.outcome_before and self.outcome_after:
            kinds.add("measured_case_study")
        if self.site_visit_done:
            kinds.add("site_visit")
        if self.remote_demo_done:
            kinds.add("demo")
        return frozenset(kinds)
