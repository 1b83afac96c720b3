"""Vendors: the suppliers an organisation invites to bid, kept per organisation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
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


MAX_ALIASES = 50
ALIAS_MAX_CHARS = 100


def validate_alias_list(value) -> None:
    """A list of at most MAX_ALIASES terms of 2 to ALIAS_MAX_CHARS printable
    characters (a term of one character would blank that letter everywhere)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError(_("Give a list of terms."), code="not_a_list")
    if len(value) > MAX_ALIASES:
        raise ValidationError(
            _("At most %(n)s terms.") % {"n": MAX_ALIASES}, code="too_many"
        )
    for term in value:
        text = " ".join(term.split())
        if len(text) < 2 or len(text) > ALIAS_MAX_CHARS:
            raise ValidationError(
                _("Each term has 2 to %(n)s characters: “%(term)s”.")
                % {"n": ALIAS_MAX_CHARS, "term": term[:40]},
                code="length",
            )
        if not term.isprintable():
            raise ValidationError(
                _("A term holds a control character."), code="control_character"
            )


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
    # Short names, brands and product lines masked for blind evaluators besides the
    # legal name ("华东智算", "天际 TJ-AI8000"); learnt ones the buyer keeps visible
    # are in alias_exceptions (`vendors.engine.aliases`, `services.aliases`).
    aliases = models.JSONField(
        _("aliases"),
        default=list,
        blank=True,
        validators=[validate_alias_list],
        help_text=_(
            "Short names, brands and product lines hidden from blind evaluators, "
            "one per line."
        ),
    )
    alias_exceptions = models.JSONField(
        _("terms not masked"),
        default=list,
        blank=True,
        validators=[validate_alias_list],
        help_text=_(
            "Terms ClusterBuy learnt from the vendor's texts that stay visible, one "
            "per line."
        ),
    )
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
