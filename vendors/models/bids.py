"""Bids: what a vendor offers for a procurement, its priced line items and the files
it came with."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement

from .vendors import Vendor


class Scheduler(models.TextChoices):
    SLURM = "slurm", "Slurm"
    KUBERNETES = "kubernetes", "Kubernetes"
    PROPRIETARY = "proprietary", _("Proprietary")
    OTHER = "other", _("Other")


class Cooling(models.TextChoices):
    AIR = "air", _("Air")
    LIQUID = "liquid", _("Liquid")


SUPPORT_CHANNELS = ("phone", "wechat", "ticket", "email", "on_site")
MONITORING_ITEMS = (
    "gpu_temperature",
    "power",
    "utilisation",
    "ecc_xid",
    "interconnect_errors",
    "storage",
    "job_status",
)
SEVERITIES = ("sev1", "sev2", "sev3")


class BidQuerySet(models.QuerySet):
    def for_procurement(self, procurement: Procurement) -> BidQuerySet:
        return self.filter(procurement=procurement)

    def for_comparison(self) -> BidQuerySet:
        """Everything the comparison reads, in a constant number of queries."""
        return self.select_related("vendor").prefetch_related(
            "line_items", "case_studies", "scores"
        )


class Bid(models.Model):
    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="bids"
    )
    vendor = models.ForeignKey(Vendor, on_delete=models.PROTECT, related_name="bids")
    # hardware
    accelerator = models.CharField(
        _("accelerator"), max_length=64, help_text=_("Hardware catalog key")
    )
    gpu_count = models.PositiveIntegerField(
        _("GPU count"), validators=[MinValueValidator(1)]
    )
    nodes = models.PositiveIntegerField(_("nodes"), null=True, blank=True)
    server_model = models.CharField(_("server model"), max_length=200, blank=True)
    scaleup_link = models.CharField(_("scale-up link"), max_length=100, blank=True)
    scaleup_domain_gpus = models.PositiveIntegerField(
        _("scale-up domain (GPUs)"), null=True, blank=True
    )
    network_fabric = models.CharField(_("network fabric"), max_length=100, blank=True)
    network_gbps_per_gpu = models.FloatField(
        _("network per GPU (Gb/s)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    storage_tb = models.FloatField(
        _("storage capacity (TB)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    storage_read_gbs = models.FloatField(
        _("storage read (GB/s)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    storage_write_gbs = models.FloatField(
        _("storage write (GB/s)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    cooling = models.CharField(
        _("cooling"), max_length=10, choices=Cooling.choices, blank=True
    )
    peak_power_kw = models.FloatField(
        _("peak power (kW)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    # terms
    delivery_weeks = models.PositiveIntegerField(
        _("delivery (weeks)"), null=True, blank=True
    )
    warranty_years = models.DecimalField(
        _("warranty (years)"),
        max_digits=4,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(10))],
    )
    # service
    support_channels = models.JSONField(_("support channels"), default=list, blank=True)
    response_hours = models.JSONField(
        _("response time by severity (hours)"), default=dict, blank=True
    )
    onsite_hours = models.FloatField(
        _("on-site arrival (hours)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    availability_pct = models.FloatField(
        _("availability (%)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    monitoring = models.JSONField(_("monitoring offered"), default=list, blank=True)
    configurable_alerts = models.BooleanField(
        _("configurable alert rules"), default=False
    )
    # software and team
    scheduler = models.CharField(
        _("scheduler"), max_length=20, choices=Scheduler.choices
    )
    frameworks = models.JSONField(_("frameworks supported"), default=list, blank=True)
    team_engineers = models.PositiveIntegerField(
        _("engineers on the team"), null=True, blank=True
    )
    team_dl_experience = models.BooleanField(
        _("team knows deep-learning frameworks"), default=False
    )
    team_scheduler_experience = models.BooleanField(
        _("team knows schedulers"), default=False
    )
    promised_training_days = models.FloatField(
        _("promised training time (days)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    proposal_text = models.TextField(_("proposal text"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Optimistic concurrency: every change of the bid, its line items or its case
    # studies adds one (under the bid's row lock); a save that names an older
    # version is refused instead of overwriting what someone else saved.
    version = models.PositiveIntegerField(default=1, editable=False)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = BidQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        verbose_name = _("bid")
        verbose_name_plural = _("bids")
        constraints = [
            models.UniqueConstraint(
                fields=["procurement", "vendor"], name="bid_one_per_vendor"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.vendor} · {self.procurement}"


class LineCategory(models.TextChoices):
    GPU_SERVERS = "gpu_servers", _("GPU servers")
    NETWORK = "network", _("Network")
    STORAGE = "storage", _("Storage")
    SOFTWARE = "software", _("Software")
    INSTALLATION = "installation", _("Installation")
    SUPPORT = "support", _("Support")
    POWER_COOLING = "power_cooling", _("Power and cooling")
    TRAINING = "training", _("Training")
    OTHER = "other", _("Other")


class BidLineItem(models.Model):
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="line_items")
    category = models.CharField(
        _("category"), max_length=20, choices=LineCategory.choices
    )
    description = models.CharField(_("description"), max_length=500)
    quantity = models.DecimalField(
        _("quantity"),
        max_digits=12,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    unit_price = models.DecimalField(
        _("unit price"),
        max_digits=16,
        decimal_places=2,
        validators=[MinValueValidator(Decimal(0))],
    )
    recurring = models.BooleanField(_("recurring (per year)"), default=False)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("line item")
        verbose_name_plural = _("line items")
        constraints = [
            models.CheckConstraint(
                condition=Q(quantity__gt=0), name="line_item_quantity_positive"
            ),
            models.CheckConstraint(
                condition=Q(unit_price__gte=0), name="line_item_price_not_negative"
            ),
        ]

    @property
    def amount(self) -> Decimal:
        return self.quantity * self.unit_price


def attachment_path(instance: BidAttachment, filename: str) -> str:
    return f"bids/{instance.bid.procurement_id}/{instance.bid_id}/{filename}"


class BidAttachment(models.Model):
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path)
    original_name = models.CharField(max_length=255)
    kind = models.CharField(max_length=10)  # "pdf" or "xlsx", from magic bytes
    size_bytes = models.PositiveIntegerField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
