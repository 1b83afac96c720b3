"""The hardware catalogue: an editable copy of sizing/data.

Catalogue rows mirror the columns of the CSV/JSON files in ``sizing/data`` so that
``sizing.reference_data`` remains the one place that maps a row onto an engine record.
Every row keeps its ``source``; ``updated_at`` lets ``services.engine_catalog`` notice
admin edits cheaply.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


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
    reported_memory_mib = models.FloatField(
        _("memory reported by the driver (MiB)"), null=True, blank=True
    )
    reported_memory_source = models.TextField(_("reported memory source"), blank=True)
    mem_bw_tbs = models.FloatField(_("memory bandwidth (TB/s)"), null=True, blank=True)
    bf16_dense_tflops = models.FloatField(
        _("BF16 dense (TFLOPS)"), null=True, blank=True
    )
    fp8_dense_tflops = models.FloatField(_("FP8 dense (TFLOPS)"), null=True, blank=True)
    int8_dense_tops = models.FloatField(_("INT8 dense (TOPS)"), null=True, blank=True)
    fp4_dense_tflops = models.FloatField(_("FP4 dense (TFLOPS)"), null=True, blank=True)
    # FP64 peak HPL runs at (the tensor-core FP64 where the part has one): the
    # acceptance plan's HPL threshold, never read by the sizing engine.
    fp64_tflops = models.FloatField(_("FP64 peak (TFLOPS)"), null=True, blank=True)
    fp64_source = models.TextField(_("FP64 source"), blank=True)
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
    nic_source = models.TextField(_("source of the NIC count"), blank=True, default="")
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
    # an accelerator-specific row (on-die NIC ports, a vendor's own switch): offered
    # only for accelerators of this software ecosystem; blank: for any
    ecosystem = models.CharField(_("for ecosystem"), max_length=20, blank=True)
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
    q_lora_rank = models.PositiveIntegerField(null=True, blank=True)
    qk_nope_head_dim = models.PositiveIntegerField(null=True, blank=True)
    v_head_dim = models.PositiveIntegerField(null=True, blank=True)
    moe_ffn_hidden_size = models.PositiveIntegerField(
        _("expert FFN hidden size"), null=True, blank=True
    )
    moe_shared_experts = models.PositiveIntegerField(_("shared experts"), default=0)
    moe_dense_layers = models.PositiveIntegerField(
        _("dense layers in an MoE model"), default=0
    )
    sliding_window_tokens = models.PositiveIntegerField(
        _("local attention window (tokens)"), null=True, blank=True
    )
    sliding_window_layers = models.PositiveIntegerField(
        _("local attention layers"), default=0
    )
    local_attention = models.CharField(
        _("local attention kind"),
        max_length=10,
        choices=[("sliding", _("sliding window")), ("chunked", _("chunked"))],
        default="sliding",
    )
    linear_attention_layers = models.PositiveIntegerField(
        _("linear-attention / state-space layers"), default=0
    )
    linear_state_bytes = models.PositiveBigIntegerField(
        _("fixed state per sequence and linear layer (bytes)"), default=0
    )
    native_precision = models.CharField(
        _("published weight precision"), max_length=10, default="bf16"
    )
    # config.json rope_scaling the model card validates (engine.catalog.ModelArch)
    rope_scaling_type = models.CharField(
        _("RoPE scaling"), max_length=20, blank=True, default=""
    )
    rope_scaling_factor = models.FloatField(
        _("RoPE scaling factor"), null=True, blank=True
    )
    rope_original_context_tokens = models.PositiveIntegerField(
        _("context before RoPE scaling (tokens)"), null=True, blank=True
    )

    class Meta(CatalogRow.Meta):
        verbose_name = _("model preset")
        verbose_name_plural = _("model presets")

    def __str__(self) -> str:
        return self.name
