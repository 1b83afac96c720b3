"""Sizing: the hardware catalogue (editable copy of sizing/data), a procurement's
requirements and workloads, and the sizing plans computed from them.

Catalogue rows mirror the columns of the CSV/JSON files in ``sizing/data`` so that
``sizing.reference_data`` remains the one place that maps a row onto an engine record.
Every row keeps its ``source``; ``updated_at`` lets ``services.engine_catalog`` notice
admin edits cheaply.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement


class Availability(models.TextChoices):
    AVAILABLE = "available", _("Available")
    CONDITIONAL = "conditional", _("Conditional")
    RESTRICTED = "restricted", _("Restricted")


class Ecosystem(models.TextChoices):
    CUDA = "cuda", "CUDA"
    ROCM = "rocm", "ROCm"
    CANN = "cann", "CANN"
    SYNAPSEAI = "synapseai", "SynapseAI"


class CatalogRow(models.Model):
    key = models.SlugField(_("key"), max_length=80, unique=True)
    source = models.TextField(_("source"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        abstract = True
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key


class AcceleratorQuerySet(models.QuerySet):
    def available_in(self, region: str) -> AcceleratorQuerySet:
        """Rows buyable in ``region`` ("cn" or "global"): available or conditional."""
        status_field = "cn_status" if region == "cn" else "global_status"
        return self.filter(
            **{
                f"{status_field}__in": [
                    Availability.AVAILABLE,
                    Availability.CONDITIONAL,
                ]
            }
        )


class Accelerator(CatalogRow):
    vendor = models.CharField(_("vendor"), max_length=60, db_index=True)
    model = models.CharField(_("model"), max_length=120)
    family = models.CharField(_("family"), max_length=60)
    ecosystem = models.CharField(
        _("software ecosystem"), max_length=20, choices=Ecosystem.choices
    )
    memory_gb = models.FloatField(_("memory (GB)"))
    memory_type = models.CharField(_("memory type"), max_length=40, blank=True)
    mem_bw_tbs = models.FloatField(_("memory bandwidth (TB/s)"), null=True, blank=True)
    bf16_dense_tflops = models.FloatField(
        _("BF16 dense (TFLOPS)"), null=True, blank=True
    )
    fp8_dense_tflops = models.FloatField(_("FP8 dense (TFLOPS)"), null=True, blank=True)
    int8_dense_tops = models.FloatField(_("INT8 dense (TOPS)"), null=True, blank=True)
    tdp_w = models.FloatField(_("TDP (W)"), null=True, blank=True)
    form_factor = models.CharField(_("form factor"), max_length=200, blank=True)
    scaleup_link = models.CharField(_("scale-up link"), max_length=200, blank=True)
    scaleup_gbs_per_gpu = models.FloatField(
        _("scale-up bandwidth per GPU (GB/s)"), null=True, blank=True
    )
    scaleup_domain_gpus = models.PositiveIntegerField(
        _("scale-up domain (GPUs)"), null=True, blank=True
    )
    pcie_gen = models.PositiveSmallIntegerField(
        _("PCIe generation"), null=True, blank=True
    )
    server_8gpu_max_kw = models.FloatField(
        _("8-GPU server max power (kW)"), null=True, blank=True
    )
    launch_year = models.PositiveSmallIntegerField(
        _("launch year"), null=True, blank=True
    )
    cn_status = models.CharField(
        _("availability in China"),
        max_length=20,
        choices=Availability.choices,
        default=Availability.RESTRICTED,
    )
    global_status = models.CharField(
        _("availability outside China"),
        max_length=20,
        choices=Availability.choices,
        default=Availability.AVAILABLE,
    )
    china_availability = models.TextField(_("China availability note"), blank=True)
    china_availability_date = models.CharField(
        _("China availability as of"), max_length=20, blank=True
    )
    framework_notes = models.TextField(_("framework notes"), blank=True)
    price = models.DecimalField(
        _("indicative price"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_currency = models.CharField(_("price currency"), max_length=3, default="USD")
    price_basis = models.CharField(
        _("price basis"),
        max_length=20,
        blank=True,
        help_text=_("gpu: GPU alone; server_share: 1/8 of an 8-GPU server"),
    )
    price_date = models.CharField(_("price date"), max_length=20, blank=True)
    price_source = models.TextField(_("price source"), blank=True)
    is_estimate = models.BooleanField(_("estimate"), default=False)
    max_context_note = models.TextField(blank=True)
    notes = models.TextField(_("notes"), blank=True)

    objects = AcceleratorQuerySet.as_manager()

    class Meta(CatalogRow.Meta):
        verbose_name = _("accelerator")
        verbose_name_plural = _("accelerators")

    def __str__(self) -> str:
        return f"{self.vendor} {self.model}"


class ServerPlatform(CatalogRow):
    name = models.CharField(_("name"), max_length=200)
    accelerator_key = models.CharField(_("accelerator key"), max_length=80)
    gpus_per_node = models.PositiveSmallIntegerField(_("GPUs per node"))
    node_max_kw = models.FloatField(_("node max power (kW)"), null=True, blank=True)
    nic_count = models.PositiveSmallIntegerField(_("compute NICs"))
    nic_gbps = models.FloatField(_("NIC speed (Gbit/s)"))
    rack_units = models.PositiveSmallIntegerField(
        _("rack units"), null=True, blank=True
    )
    psu_redundancy = models.CharField(_("PSU redundancy"), max_length=20, blank=True)
    liquid_cooled = models.BooleanField(_("liquid cooled"), default=False)

    class Meta(CatalogRow.Meta):
        verbose_name = _("server platform")
        verbose_name_plural = _("server platforms")


class NetworkOption(CatalogRow):
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20)
    generation = models.CharField(_("generation"), max_length=20, blank=True)
    port_gbps = models.FloatField(_("port speed (Gbit/s)"))
    switch_radix = models.PositiveIntegerField(_("switch radix (ports)"))
    switch_price = models.DecimalField(
        _("switch price"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    switch_price_currency = models.CharField(
        _("price currency"), max_length=3, default="USD"
    )
    nic_price = models.DecimalField(
        _("NIC price"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    cable_price = models.DecimalField(
        _("cable price"), max_digits=14, decimal_places=2, null=True, blank=True
    )

    class Meta(CatalogRow.Meta):
        verbose_name = _("network option")
        verbose_name_plural = _("network options")


class StorageTier(CatalogRow):
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20)
    capacity_tb_per_node = models.FloatField(
        _("capacity per node (TB)"), null=True, blank=True
    )
    read_gbs_per_node = models.FloatField(
        _("read per node (GB/s)"), null=True, blank=True
    )
    write_gbs_per_node = models.FloatField(
        _("write per node (GB/s)"), null=True, blank=True
    )
    price_per_tb = models.DecimalField(
        _("price per TB"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(_("currency"), max_length=3, default="USD")

    class Meta(CatalogRow.Meta):
        verbose_name = _("storage tier")
        verbose_name_plural = _("storage tiers")


class ModelPreset(CatalogRow):
    name = models.CharField(_("name"), max_length=120)
    params_b = models.FloatField(_("parameters (billions)"), null=True, blank=True)
    active_params_b = models.FloatField(
        _("active parameters (billions)"), null=True, blank=True
    )
    use_published_params = models.BooleanField(
        _("use the published parameter count"), default=False
    )
    layers = models.PositiveIntegerField(_("layers"))
    hidden_size = models.PositiveIntegerField(_("hidden size"))
    attention_heads = models.PositiveIntegerField(_("attention heads"))
    kv_heads = models.PositiveIntegerField(_("KV heads"))
    head_dim = models.PositiveIntegerField(_("head dimension"))
    ffn_hidden_size = models.PositiveIntegerField(_("FFN hidden size"))
    vocab_size = models.PositiveIntegerField(_("vocabulary size"))
    gated_ffn = models.BooleanField(_("gated FFN"), default=True)
    tied_embeddings = models.BooleanField(_("tied embeddings"), default=False)
    moe_experts = models.PositiveIntegerField(_("MoE experts"), null=True, blank=True)
    moe_active_experts = models.PositiveIntegerField(
        _("MoE active experts"), null=True, blank=True
    )
    max_context_tokens = models.PositiveIntegerField(
        _("max context (tokens)"), null=True, blank=True
    )
    arch_style = models.CharField(
        _("architecture style"), max_length=10, default="llama"
    )
    qkv_bias = models.BooleanField(_("QKV bias"), default=False)
    kv_lora_rank = models.PositiveIntegerField(null=True, blank=True)
    qk_rope_head_dim = models.PositiveIntegerField(null=True, blank=True)

    class Meta(CatalogRow.Meta):
        verbose_name = _("model preset")
        verbose_name_plural = _("model presets")

    def __str__(self) -> str:
        return self.name


# ----------------------------------------------------------------- procurement side


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


class WorkloadKind(models.TextChoices):
    TRAINING = "training", _("Pre-training / continued pre-training")
    FINE_TUNING = "fine_tuning", _("Fine-tuning")
    INFERENCE = "inference", _("Inference")


class Precision(models.TextChoices):
    BF16 = "bf16", "BF16"
    FP16 = "fp16", "FP16"
    FP8 = "fp8", "FP8"
    INT8 = "int8", "INT8"
    INT4 = "int4", "INT4"
    FP32 = "fp32", "FP32"


class WorkloadQuerySet(models.QuerySet):
    def for_procurement(self, procurement: Procurement) -> WorkloadQuerySet:
        return self.filter(procurement=procurement)


class Workload(models.Model):
    """One workload of a procurement, with the engine's fields (see engine.workload)."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="sizing_workloads"
    )
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=20, choices=WorkloadKind.choices)
    model_preset = models.CharField(_("model preset"), max_length=80, blank=True)
    # custom architecture (used when no preset is chosen)
    model_name = models.CharField(_("model name"), max_length=120, blank=True)
    layers = models.PositiveIntegerField(_("layers"), null=True, blank=True)
    hidden_size = models.PositiveIntegerField(_("hidden size"), null=True, blank=True)
    attention_heads = models.PositiveIntegerField(
        _("attention heads"), null=True, blank=True
    )
    kv_heads = models.PositiveIntegerField(_("KV heads"), null=True, blank=True)
    ffn_hidden_size = models.PositiveIntegerField(
        _("FFN hidden size"), null=True, blank=True
    )
    vocab_size = models.PositiveIntegerField(
        _("vocabulary size"), null=True, blank=True
    )
    moe_experts = models.PositiveIntegerField(_("MoE experts"), null=True, blank=True)
    moe_active_experts = models.PositiveIntegerField(
        _("MoE active experts"), null=True, blank=True
    )
    precision = models.CharField(
        _("precision"), max_length=10, choices=Precision.choices, default="bf16"
    )
    seq_len = models.PositiveIntegerField(_("sequence length"), null=True, blank=True)
    # training / fine-tuning
    tokens_b = models.FloatField(_("training tokens (billions)"), null=True, blank=True)
    target_days = models.FloatField(_("target duration (days)"), null=True, blank=True)
    gpu_count = models.PositiveIntegerField(_("GPU count"), null=True, blank=True)
    lora_trainable_fraction = models.FloatField(
        _("LoRA trainable share"), null=True, blank=True
    )
    # inference
    context_tokens = models.PositiveIntegerField(
        _("context (tokens)"), null=True, blank=True
    )
    output_tokens = models.PositiveIntegerField(
        _("output (tokens)"), null=True, blank=True
    )
    concurrent_requests = models.PositiveIntegerField(
        _("concurrent requests"), null=True, blank=True
    )
    tokens_per_second = models.FloatField(
        _("output tokens per second"), null=True, blank=True
    )
    ttft_ms = models.FloatField(_("TTFT target (ms)"), null=True, blank=True)
    tpot_ms = models.FloatField(_("TPOT target (ms)"), null=True, blank=True)
    dataset_tb = models.FloatField(_("dataset (TB)"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = WorkloadQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("workload")
        verbose_name_plural = _("workloads")

    def __str__(self) -> str:
        return self.name

    @property
    def is_training(self) -> bool:
        return self.kind in (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)

    @property
    def model_label(self) -> str:
        return self.model_preset or self.model_name or _("custom model")

    def to_engine_dict(self) -> dict:
        """The API body's ``workload`` object for this row (engine.workload_from_dict)."""
        if self.model_preset:
            model: dict = {"preset": self.model_preset}
        else:
            model = {"name": self.model_name or self.name}
            for name in CUSTOM_MODEL_FIELDS:
                model[name] = getattr(self, name)
        data: dict = {"kind": self.kind, "model": model, "precision": self.precision}
        fields = TRAINING_FIELDS if self.is_training else INFERENCE_FIELDS
        for name in ("seq_len", "dataset_tb", *fields):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data


CUSTOM_MODEL_FIELDS = (
    "layers",
    "hidden_size",
    "attention_heads",
    "kv_heads",
    "ffn_hidden_size",
    "vocab_size",
    "moe_experts",
    "moe_active_experts",
)
TRAINING_FIELDS = ("tokens_b", "target_days", "gpu_count", "lora_trainable_fraction")
INFERENCE_FIELDS = (
    "context_tokens",
    "output_tokens",
    "concurrent_requests",
    "tokens_per_second",
    "ttft_ms",
    "tpot_ms",
    "gpu_count",
)


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
