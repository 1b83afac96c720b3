"""Bids: what a vendor offers for a procurement, its priced line items and the files
it came with."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clusterbuy.bounds import (
    FiniteValidator,
    bounded,
    stored_value_is_valid,
    text_limit,
)
from clusterbuy.engine.limits import MAX_GPU_COUNT
from clusterbuy.models import Procurement

from .bid_bounds import (
    CHECKED_BID_FIELDS,
    DELIVERY_WEEKS_MAX,
    HOURS_MAX,
    NETWORK_GBPS_PER_GPU_MAX,
    PEAK_POWER_KW_MAX,
    PROPOSAL_TEXT_MAX_CHARS,
    STORAGE_GBS_MAX,
    STORAGE_TB_MAX,
    TEAM_ENGINEERS_MAX,
    TOKENS_PER_S_MAX,
    TRAINING_DAYS_MAX,
    validate_frameworks,
    validate_monitoring,
    validate_response_hours,
    validate_support_channels,
)
from .evidence import purpose_field
from .vendors import Vendor


class Scheduler(models.TextChoices):
    SLURM = "slurm", "Slurm"
    KUBERNETES = "kubernetes", "Kubernetes"
    PROPRIETARY = "proprietary", _("Proprietary")
    OTHER = "other", _("Other")


class RootAccess(models.TextChoices):
    """Root / cluster-admin access for the buyer's engineers (the RFP asks it)."""

    YES = "yes", _("Yes, on every node and the scheduler")
    LIMITED = "limited", _("Limited")
    NO = "no", _("No")


class SchedulerAccess(models.TextChoices):
    """The native Slurm / Kubernetes interface: open to the buyer, wrapped by the
    vendor's platform, or absent."""

    OPEN = "open", _("Open (native commands)")
    WRAPPED = "wrapped", _("Wrapped by the vendor's platform")
    NONE = "none", _("None")


class Cooling(models.TextChoices):
    AIR = "air", _("Air")
    LIQUID = "liquid", _("Liquid")


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
        _("GPU count"), validators=bounded(1, MAX_GPU_COUNT)
    )
    nodes = models.PositiveIntegerField(
        _("nodes"), null=True, blank=True, validators=bounded(0, MAX_GPU_COUNT)
    )
    server_model = models.CharField(_("server model"), max_length=200, blank=True)
    scaleup_link = models.CharField(_("scale-up link"), max_length=100, blank=True)
    scaleup_domain_gpus = models.PositiveIntegerField(
        _("scale-up domain (GPUs)"),
        null=True,
        blank=True,
        validators=bounded(1, MAX_GPU_COUNT),
    )
    network_fabric = models.CharField(_("network fabric"), max_length=100, blank=True)
    network_gbps_per_gpu = models.FloatField(
        _("network per GPU (Gb/s)"),
        null=True,
        blank=True,
        validators=bounded(0, NETWORK_GBPS_PER_GPU_MAX),
    )
    storage_tb = models.FloatField(
        _("storage capacity (TB)"),
        null=True,
        blank=True,
        validators=bounded(0, STORAGE_TB_MAX),
    )
    storage_read_gbs = models.FloatField(
        _("storage read (GB/s)"),
        null=True,
        blank=True,
        validators=bounded(0, STORAGE_GBS_MAX),
    )
    storage_write_gbs = models.FloatField(
        _("storage write (GB/s)"),
        null=True,
        blank=True,
        validators=bounded(0, STORAGE_GBS_MAX),
    )
    cooling = models.CharField(
        _("cooling"), max_length=10, choices=Cooling.choices, blank=True
    )
    peak_power_kw = models.FloatField(
        _("peak power (kW)"),
        null=True,
        blank=True,
        validators=bounded(0, PEAK_POWER_KW_MAX),
    )
    # terms
    delivery_weeks = models.PositiveIntegerField(
        _("delivery (weeks)"),
        null=True,
        blank=True,
        validators=bounded(0, DELIVERY_WEEKS_MAX),
    )
    warranty_years = models.DecimalField(
        _("warranty (years)"),
        max_digits=4,
        decimal_places=1,
        null=True,
        blank=True,
        validators=bounded(Decimal(0), Decimal(10)),
    )
    # service
    support_channels = models.JSONField(
        _("support channels"),
        default=list,
        blank=True,
        validators=[validate_support_channels],
    )
    response_hours = models.JSONField(
        _("response time by severity (hours)"),
        default=dict,
        blank=True,
        validators=[validate_response_hours],
    )
    onsite_hours = models.FloatField(
        _("on-site arrival (hours)"),
        null=True,
        blank=True,
        validators=bounded(0, HOURS_MAX),
    )
    availability_pct = models.FloatField(
        _("availability (%)"),
        null=True,
        blank=True,
        validators=bounded(0, 100),
    )
    monitoring = models.JSONField(
        _("monitoring offered"),
        default=list,
        blank=True,
        validators=[validate_monitoring],
    )
    configurable_alerts = models.BooleanField(
        _("configurable alert rules"), default=False
    )
    # software and team
    scheduler = models.CharField(
        _("scheduler"), max_length=20, choices=Scheduler.choices
    )
    frameworks = models.JSONField(
        _("frameworks supported"),
        default=list,
        blank=True,
        validators=[validate_frameworks],
    )
    team_engineers = models.PositiveIntegerField(
        _("engineers on the team"),
        null=True,
        blank=True,
        validators=bounded(0, TEAM_ENGINEERS_MAX),
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
        validators=bounded(0, TRAINING_DAYS_MAX),
    )
    promised_tokens_per_s = models.FloatField(
        _("promised serving throughput (tokens/s)"),
        null=True,
        blank=True,
        validators=bounded(0, TOKENS_PER_S_MAX),
        help_text=_(
            "Output tokens a second the vendor promises for the inference load"
        ),
    )
    # access and licence facts, asked as questions in the RFP (issue 24)
    root_access = models.CharField(
        _("root / cluster-admin access"),
        max_length=10,
        choices=RootAccess.choices,
        blank=True,
    )
    native_scheduler_access = models.CharField(
        _("native scheduler access"),
        max_length=10,
        choices=SchedulerAccess.choices,
        blank=True,
    )
    job_submission = models.CharField(
        _("how jobs are submitted"), max_length=500, blank=True
    )
    licence_fee = models.CharField(
        _("licence fee (per GPU / per node / none, with amount)"),
        max_length=500,
        blank=True,
    )
    expansion_terms = models.CharField(_("expansion terms"), max_length=500, blank=True)
    # Policy deductions (`vendors.engine.regimes.deductions`): what the vendor
    # declared in its portal submission (``*_claimed``), and the 中小企业声明函 and
    # 本国产品 proof as the buyer accepted them (only with the evidence attached).
    sme_claimed = models.BooleanField(
        _("small or micro enterprise (declared by the vendor)"), default=False
    )
    domestic_claimed = models.BooleanField(
        _("domestic product (declared by the vendor)"), default=False
    )
    sme_declared = models.BooleanField(
        _("small or micro enterprise (declaration accepted)"), default=False
    )
    domestic_product = models.BooleanField(
        _("domestic product (proof accepted)"), default=False
    )
    domestic_cost_share_pct = models.DecimalField(
        _("domestic share of the product cost (%)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=bounded(Decimal(0), Decimal(100)),
    )
    proposal_text = models.TextField(
        _("proposal text"), blank=True, **text_limit(PROPOSAL_TEXT_MAX_CHARS)
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

    @property
    def invalid_fields(self) -> frozenset[str]:
        """The figures whose stored value their own field refuses (written past
        validation: a raw UPDATE, an old row): shown as "invalid", never computed
        with."""
        return frozenset(n for n in CHECKED_BID_FIELDS if not self._stored_is_valid(n))

    def checked(self, name: str):
        """The stored value of figure ``name``, or None when its field refuses it."""
        return getattr(self, name) if self._stored_is_valid(name) else None

    def _stored_is_valid(self, name: str) -> bool:
        return stored_value_is_valid(self._meta.get_field(name), getattr(self, name))


class LineCategory(models.TextChoices):
    GPU_SERVERS = "gpu_servers", _("GPU servers")
    NETWORK = "network", _("Network")
    STORAGE = "storage", _("Storage")
    SOFTWARE = "software", _("Software")
    INSTALLATION = "installation", _("Installation")
    SUPPORT = "support", _("Support")
    POWER_COOLING = "power_cooling", _("Power and cooling")
    # staff training (培训), not model training (训练)
    TRAINING = "training", pgettext_lazy("line item category", "Training")
    OTHER = "other", _("Other")


#: The last contract year a line item may name (far beyond any TCO horizon).
LINE_TERM_MAX_YEAR = 30
#: What the line-item form says of its scope and term fields.
SCOPE_HELP = _(
    "Other categories this price includes (a service package with network, "
    "storage and installation; installation in the server price): they are "
    "not added again."
)
TERM_HELP = {
    "year_from": _("The first contract year the line covers; empty: year 1."),
    "year_to": _("The last contract year it covers; empty: the end of the horizon."),
}


def line_terms_errors(
    *, year_from: int | None, year_to: int | None, scope: Any, category: str
) -> dict[str, str]:
    """Field errors of a line's term and scope (the form, the API and the import)."""
    errors: dict[str, str] = {}
    if year_from is not None and year_to is not None and year_to < year_from:
        errors["year_to"] = _("The last year must not be before the first year.")
    codes = set(LineCategory.values)
    if not isinstance(scope, list) or not all(
        isinstance(code, str) and code in codes for code in scope
    ):
        errors["scope"] = _("Choose categories from the list.")
    return errors


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
        validators=[FiniteValidator(), MinValueValidator(Decimal("0.01"))],
    )
    unit_price = models.DecimalField(
        _("unit price"),
        max_digits=16,
        decimal_places=2,
        validators=[FiniteValidator(), MinValueValidator(Decimal(0))],
    )
    recurring = models.BooleanField(_("recurring (per year)"), default=False)
    #: The contract years the line covers (1 = the first year), inclusive: a support
    #: line for years 4-5 is priced for 2 years, not the whole horizon.
    year_from = models.PositiveSmallIntegerField(
        _("from year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(LINE_TERM_MAX_YEAR)],
    )
    year_to = models.PositiveSmallIntegerField(
        _("to year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(LINE_TERM_MAX_YEAR)],
    )
    #: Other categories this line's price covers: a 服务包 "incl. network, storage and
    #: installation", or installation included in the node price.
    scope = models.JSONField(_("also covers"), default=list, blank=True)
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
            models.CheckConstraint(
                condition=Q(year_from__isnull=True)
                | Q(year_to__isnull=True)
                | Q(year_to__gte=models.F("year_from")),
                name="line_item_term_in_order",
            ),
        ]

    def clean(self) -> None:
        super().clean()
        errors = line_terms_errors(
            year_from=self.year_from,
            year_to=self.year_to,
            scope=self.scope,
            category=self.category,
        )
        if errors:
            raise ValidationError(errors)

    @property
    def amount(self) -> Decimal:
        return self.quantity * self.unit_price

    @property
    def scope_labels(self) -> list[str]:
        """The categories of ``scope`` as the page names them."""
        labels = dict(LineCategory.choices)
        return [str(labels.get(code, code)) for code in self.scope or []]

    @property
    def is_valid(self) -> bool:
        """Whether quantity and unit price pass their own fields (see `Bid.checked`)."""
        return all(
            stored_value_is_valid(self._meta.get_field(name), getattr(self, name))
            for name in ("quantity", "unit_price")
        )


def attachment_path(instance: BidAttachment, filename: str) -> str:
    return f"bids/{instance.bid.procurement_id}/{instance.bid_id}/{filename}"


class BidAttachment(models.Model):
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path)
    original_name = models.CharField(max_length=255)
    kind = models.CharField(max_length=10)  # "pdf" or "xlsx", from magic bytes
    size_bytes = models.PositiveIntegerField()
    purpose = purpose_field()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
