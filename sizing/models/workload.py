"""A procurement's workloads, with the engine's fields (see sizing.engine.workload)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement


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
    MXFP4 = "mxfp4", "MXFP4"
    NVFP4 = "nvfp4", "NVFP4"
    FP32 = "fp32", "FP32"


class KvCachePrecision(models.TextChoices):
    BF16 = "bf16", "BF16"
    FP16 = "fp16", "FP16"
    FP8 = "fp8", "FP8"
    INT8 = "int8", "INT8"


class Arrival(models.TextChoices):
    """How the concurrent requests arrive (engine.serving_latency.ARRIVALS)."""

    STEADY = "steady", _("Steady: users arrive independently")
    BURST = "burst", _("Burst: all arrive at once (a batch job)")


class OutputLengths(models.TextChoices):
    """Whether output lengths vary (engine.serving_latency.OUTPUT_LENGTHS)."""

    VARIED = "varied", _("Varied around the mean (real traffic, chat datasets)")
    FIXED = "fixed", _("All the same length (synthetic benchmarks)")


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
    # Empty: the engine's default, the weights' published precision when serving
    # (DeepSeek-V3 FP8, gpt-oss MXFP4) and BF16 when training (engine.workload).
    precision = models.CharField(
        _("precision"),
        max_length=10,
        choices=Precision.choices,
        default="",
        blank=True,
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
    # serving only (ignored for training); empty: the engine's default, bf16
    kv_cache_precision = models.CharField(
        _("KV cache precision"),
        max_length=10,
        choices=KvCachePrecision.choices,
        default=KvCachePrecision.BF16,
        blank=True,
    )
    # serving only: the share of the device's reported memory the serving engine may use
    # (vLLM --gpu-memory-utilization, default 0.9) and expert-parallel load balancing
    # (DeepSeek EPLB, SGLang --enable-eplb); engine.memory / engine.moe_cost
    gpu_memory_fraction = models.FloatField(
        _("serving engine memory fraction"),
        default=0.9,
        blank=True,
        validators=[MinValueValidator(0.5), MaxValueValidator(1.0)],
        help_text=_(
            "Share of each GPU's reported memory the serving engine may use for "
            "weights, activations and KV cache (vLLM --gpu-memory-utilization, "
            "default 0.9)."
        ),
    )
    expert_load_balancing = models.BooleanField(
        _("expert-parallel load balancing"),
        default=False,
        help_text=_(
            "MoE models: hot experts are replicated and placed so every GPU gets the "
            "same load (DeepSeek EPLB, SGLang --enable-eplb)."
        ),
    )
    arrival = models.CharField(
        _("request arrival"),
        max_length=10,
        choices=Arrival.choices,
        default=Arrival.STEADY,
        blank=True,  # empty: steady
        help_text=_(
            "Serving: a burst's requests are prefilled together, so each waits for "
            "the prompts before it; steady users queue one prefill at a time."
        ),
    )
    output_lengths = models.CharField(
        _("output lengths"),
        max_length=10,
        choices=OutputLengths.choices,
        default=OutputLengths.VARIED,
        blank=True,  # empty: varied
        help_text=_(
            "Serving in a burst: with varied lengths the longest outputs decide when "
            "the batch finishes, so the burst takes longer than its mean request."
        ),
    )
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
        data: dict = {"kind": self.kind, "model": model}
        if self.precision:
            data["precision"] = self.precision
        fields = TRAINING_FIELDS if self.is_training else INFERENCE_FIELDS
        for name in ("seq_len", "dataset_tb", *fields):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if not self.is_training and self.kv_cache_precision:
            data["kv_cache_precision"] = self.kv_cache_precision
        if not self.is_training:
            data["gpu_memory_fraction"] = self.gpu_memory_fraction
            data["expert_load_balancing"] = self.expert_load_balancing
            data["arrival"] = self.arrival or Arrival.STEADY
            data["output_lengths"] = self.output_lengths or OutputLengths.VARIED
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
