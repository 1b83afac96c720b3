"""Vendors, their bids and line items, case studies, checklists, scores and decisions.

Everything is reached through a procurement or an organisation, so the access rule of
the core (`Procurement.objects.for_user(user)`) covers it: bids hang off a procurement,
vendors and checklist templates off an organisation.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Organisation, Procurement

from . import checklist_default


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
    contacts = models.TextField(_("contacts"), blank=True)
    slurm_experience = models.BooleanField(_("Slurm experience"), default=False)
    kubernetes_experience = models.BooleanField(
        _("Kubernetes experience"), default=False
    )
    other_ecosystem_experience = models.CharField(
        _("other open-source experience"), max_length=300, blank=True
    )
    certifications = models.TextField(_("certifications"), blank=True)
    notes = models.TextField(_("notes"), blank=True)
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


class CaseStudy(models.Model):
    vendor = models.ForeignKey(
        Vendor, on_delete=models.CASCADE, related_name="case_studies"
    )
    bids = models.ManyToManyField(Bid, blank=True, related_name="case_studies")
    client_industry = models.CharField(_("client industry"), max_length=200)
    scenario = models.CharField(_("scenario"), max_length=300, blank=True)
    challenge = models.TextField(_("challenge"), blank=True)
    network_architecture = models.TextField(_("network architecture"), blank=True)
    storage_choice = models.TextField(_("storage choice"), blank=True)
    solution_details = models.TextField(_("solution details"), blank=True)
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


class EvaluationSettings(models.Model):
    """How a procurement's bids are evaluated (one row per procurement)."""

    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="evaluation_settings"
    )
    template = models.ForeignKey(
        ChecklistTemplate, null=True, blank=True, on_delete=models.SET_NULL
    )
    blind_grading = models.BooleanField(_("blind grading"), default=False)
    sealed_envelope = models.BooleanField(_("sealed envelope"), default=False)
    technical_threshold = models.FloatField(
        _("technical threshold (0-100)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    scoring_closed = models.BooleanField(_("scoring closed"), default=False)
    # section code -> weight; overrides the template's section weights.
    section_weights = models.JSONField(default=dict, blank=True)
    disagreement_points = models.FloatField(default=2.0)


class Score(models.Model):
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="scores")
    criterion = models.ForeignKey(
        ChecklistCriterion, on_delete=models.CASCADE, related_name="scores"
    )
    evaluator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bid_scores"
    )
    points = models.PositiveSmallIntegerField(
        _("points"), validators=[MaxValueValidator(5)]
    )
    note = models.TextField(_("evidence note"), blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["bid", "criterion", "evaluator"], name="score_unique"
            ),
            models.CheckConstraint(condition=Q(points__lte=5), name="score_0_to_5"),
        ]


class TechnicalSubmission(models.Model):
    """An evaluator has submitted their technical scores (sealed envelope opens)."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="technical_submissions"
    )
    evaluator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["procurement", "evaluator"], name="technical_submission_once"
            ),
        ]


class Decision(models.Model):
    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="vendor_decision"
    )
    bid = models.ForeignKey(Bid, on_delete=models.PROTECT, related_name="+")
    rationale = models.TextField(_("rationale"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now=True)


class AuditAction(models.TextChoices):
    SCORE = "score", _("Score")
    WEIGHT = "weight", _("Weight")
    DECISION = "decision", _("Decision")
    SETTINGS = "settings", _("Evaluation settings")
    SUBMISSION = "submission", _("Technical scores submitted")
    BID = "bid", _("Bid change")
    LINE_ITEM = "line_item", _("Line items")


class AuditEntry(models.Model):
    """Who changed which score, weight, bid field, line item or decision, when, from
    what to what."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="vendor_audit"
    )
    bid = models.ForeignKey(
        Bid, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=AuditAction.choices)
    target = models.CharField(max_length=200)
    old_value = models.TextField(blank=True)
    new_value = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
