"""Vendors: the suppliers an organisation invites to bid, kept per organisation."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit
from clusterbuy.models import Organisation


class VendorKind(models.TextChoices):
    INTEGRATOR = "integrator", _("Cluster builder / integrator")
    OEM = "oem", _("Server OEM")
    CLOUD = "cloud", _("Cloud provider")


class VendorQuerySet(models.QuerySet):
    def for_user(self, user) -> VendorQuerySet:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(organisation__memberships__user=user)


class Vendor(models.Model):
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="vendors"
    )
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(
        _("kind"), max_length=20, choices=VendorKind.choices, default=VendorKind.OEM
    )
    region = models.CharField(_("region"), max_length=100, blank=True)
    contacts = models.TextField(
        _("contacts"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    slurm_experience = models.BooleanField(_("Slurm experience"), default=False)
    kubernetes_experience = models.BooleanField(
        _("Kubernetes experience"), default=False
    )
    other_ecosystem_experience = models.CharField(
        _("other open-source experience"), max_length=300, blank=True
    )
    certifications = models.TextField(
        _("certifications"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    notes = models.TextField(_("notes"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS))
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VendorQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("vendor")
        verbose_name_plural = _("vendors")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "name"], name="vendor_unique_name_per_org"
            )
        ]

    def __str__(self) -> str:
        return self.name
