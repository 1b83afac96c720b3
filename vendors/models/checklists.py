"""Checklist templates: the weighted sections and criteria evaluators score bids on."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Organisation

from . import checklist_default


class ChecklistTemplate(models.Model):
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="checklist_templates"
    )
    name = models.CharField(_("name"), max_length=200)
    is_default = models.BooleanField(_("default for new procurements"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-is_default", "name", "id"]
        verbose_name = _("checklist template")
        verbose_name_plural = _("checklist templates")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "name"], name="checklist_unique_name_per_org"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def display_name(self) -> str:
        return checklist_default.template_name(self.name)


class ChecklistSection(models.Model):
    template = models.ForeignKey(
        ChecklistTemplate, on_delete=models.CASCADE, related_name="sections"
    )
    code = models.SlugField(max_length=40)
    title = models.CharField(_("title"), max_length=200)
    weight = models.DecimalField(
        _("weight"),
        max_digits=6,
        decimal_places=2,
        default=Decimal(10),
        validators=[MinValueValidator(Decimal(0))],
    )
    # The price section is scored from the normalised TCO, not by evaluators.
    auto_price = models.BooleanField(_("scored from normalised TCO"), default=False)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["template", "code"], name="section_unique_code"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def display_title(self) -> str:
        """Translated while it is the default checklist's title, else as typed."""
        return checklist_default.section_title(self.code, self.title)


class ChecklistCriterion(models.Model):
    section = models.ForeignKey(
        ChecklistSection, on_delete=models.CASCADE, related_name="criteria"
    )
    code = models.SlugField(max_length=40)
    text = models.CharField(_("criterion"), max_length=300)
    weight = models.DecimalField(
        _("weight"),
        max_digits=6,
        decimal_places=2,
        default=Decimal(1),
        validators=[MinValueValidator(Decimal(0))],
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "code"], name="criterion_unique_code"
            ),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def display_text(self) -> str:
        return checklist_default.criterion_text(self.code, self.text)
