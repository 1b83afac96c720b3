from django import forms
from django.utils.translation import gettext_lazy as _

from clusterbuy.forms import searchable
from clusterbuy.models import Region

from .models import (
    Accelerator,
    ModelPreset,
    Precision,
    Requirement,
    Workload,
    WorkloadKind,
)
from .services import REQUIREMENT_FIELDS, WORKLOAD_FIELDS, buyable_accelerators_for


def preset_choices():
    return [("", _("— custom architecture —"))] + [
        (p.key, p.name) for p in ModelPreset.objects.order_by("key")
    ]


def accelerator_choices(blank_label, accelerators=None):
    rows = Accelerator.objects.all() if accelerators is None else accelerators
    return [("", blank_label)] + [
        (a.key, f"{a.vendor} {a.model} ({a.memory_gb:g} GB)")
        for a in rows.order_by("vendor", "key")
    ]


class RequirementForm(forms.ModelForm):
    """The questionnaire's own answers; the procurement's facts (budget, horizon,
    site, region, data locality, scheduler experience) are shown, not asked."""

    class Meta:
        model = Requirement
        fields = list(REQUIREMENT_FIELDS)
        widgets = {"scenario": forms.RadioSelect}
        help_texts = {
            "growth_per_year": _("e.g. 30 for 30 % more data and demand each year"),
            "accelerator_key": _(
                "Leave empty to let the engine pick the cheapest. Only accelerators "
                "that can be bought in the procurement's region are listed."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = accelerator_choices(
            _("automatic (cheapest that fits)"),
            buyable_accelerators_for(procurement=self.instance.procurement),
        )
        stored = self.instance.accelerator_key
        if stored and stored not in {key for key, _label in choices}:
            choices += accelerator_choices("", Accelerator.objects.filter(key=stored))[
                1:
            ]
        self.fields["accelerator_key"].widget = forms.Select(
            choices=choices,
            attrs=searchable(
                _("Filter: type a name, e.g. H200"), _("Filter the accelerators")
            ),
        )
        for name in ("data_tb", "growth_per_year", "rack_power_limit_kw"):
            self.fields[name].min_value = 0
            self.fields[name].widget.attrs["min"] = 0

    def clean(self):
        data = super().clean()
        for name in ("data_tb", "growth_per_year", "rack_power_limit_kw"):
            if data.get(name) is not None and data[name] < 0:
                self.add_error(name, _("Must not be negative."))
        return data


class WorkloadForm(forms.ModelForm):
    class Meta:
        model = Workload
        fields = list(WORKLOAD_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["model_preset"].widget = forms.Select(
            choices=preset_choices(),
            attrs=searchable(
                _("Filter: type a name, e.g. Qwen or 70B"), _("Filter the models")
            ),
        )
        self.fields["kind"].widget.attrs["data-workload-kind"] = "1"
        precision = self.fields["precision"]
        precision.choices = [
            ("", _("Model's published precision (BF16 for training)")),
            *Precision.choices,
        ]
        precision.help_text = _(
            "Serving defaults to the precision the model's weights are published in "
            "(DeepSeek-V3 FP8, gpt-oss MXFP4); training defaults to BF16."
        )
        for field in self.fields.values():
            if isinstance(field, forms.FloatField | forms.IntegerField):
                field.widget.attrs.setdefault("min", 0)
                field.widget.attrs.setdefault("step", "any")
        # the interactive-chat defaults a plan without targets is warned against
        self.fields["ttft_ms"].widget.attrs["placeholder"] = "2000"
        self.fields["ttft_ms"].help_text = _(
            "Interactive chat: 2,000 ms. Left empty, a plan slower than that is "
            "shown with a warning."
        )
        self.fields["tpot_ms"].widget.attrs["placeholder"] = "50"
        self.fields["tpot_ms"].help_text = _(
            "Interactive chat: 50 ms (20 tokens/s per user). Left empty, a plan "
            "slower than that is shown with a warning."
        )

    def clean_gpu_memory_fraction(self):
        """Empty: the serving engine's default share (vLLM's 0.9)."""
        value = self.cleaned_data.get("gpu_memory_fraction")
        return (
            Workload._meta.get_field("gpu_memory_fraction").default
            if value is None
            else value
        )

    def clean(self):
        data = super().clean()
        if not data.get("model_preset"):
            for name in ("layers", "hidden_size", "attention_heads", "vocab_size"):
                if not data.get(name):
                    self.add_error(
                        name, _("Required for a custom model (or choose a preset).")
                    )
        if data.get("kind") in (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING):
            if data.get("tokens_b") is None:
                self.add_error("tokens_b", _("How many tokens will be trained?"))
            if data.get("target_days") is None and data.get("gpu_count") is None:
                self.add_error(
                    "target_days", _("Give a target duration or a GPU count.")
                )
        return data


class QuickForm(forms.Form):
    """Can model X train / serve on Y GPUs, in a region, within targets?"""

    kind = forms.ChoiceField(
        label=_("Task"),
        choices=[("inference", _("Serve (inference)")), ("training", _("Train"))],
        initial="inference",
    )
    model_preset = forms.ChoiceField(label=_("Model"))
    region = forms.ChoiceField(
        label=_("Where the hardware is bought"),
        choices=Region.choices,
        initial=Region.GLOBAL,
        required=False,  # not given: outside China, the engine's default
        help_text=_(
            "Decides which accelerators can be bought (export rules), e.g. the "
            "H20 in mainland China."
        ),
    )
    accelerator = forms.ChoiceField(label=_("Accelerator"))
    gpu_count = forms.IntegerField(
        label=_("GPU count"), min_value=1, max_value=100000, initial=8
    )
    tokens_b = forms.FloatField(
        label=_("training tokens (billions)"), required=False, min_value=0
    )
    target_days = forms.FloatField(
        label=_("Target duration (days)"), required=False, min_value=0.01
    )
    context_tokens = forms.IntegerField(
        label=_("context (tokens)"), required=False, min_value=1, initial=2048
    )
    output_tokens = forms.IntegerField(
        label=_("output (tokens)"), required=False, min_value=1, initial=256
    )
    concurrent_requests = forms.IntegerField(
        label=_("concurrent requests"), required=False, min_value=1, initial=16
    )
    # Interactive chat targets, as in the demo's serving workload (sizing/demo.py):
    # the first token within 2 s, then 50 ms per token (20 tokens/s per user).
    ttft_ms = forms.FloatField(
        label=_("TTFT target (ms)"),
        required=False,
        min_value=1,
        max_value=3_600_000,
        initial=2000,
    )
    tpot_ms = forms.FloatField(
        label=_("TPOT target (ms)"),
        required=False,
        min_value=1,
        max_value=3_600_000,
        initial=50,
    )

    def __init__(self, *args, region: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["model_preset"].choices = preset_choices()[1:]
        self.fields["accelerator"].choices = accelerator_choices(
            _("automatic (cheapest that fits)")
        )[1:]
        self.fields["accelerator"].initial = "h100-sxm-80gb"
        self.fields["model_preset"].initial = "llama-3.1-70b"
        self.fields["kind"].widget.attrs["data-workload-kind"] = "1"
        if region:
            self.fields["region"].initial = region

    def clean(self):
        data = super().clean()
        if data.get("kind") == "training" and not data.get("tokens_b"):
            self.add_error("tokens_b", _("How many tokens will be trained?"))
        return data

    def body(self) -> dict:
        """The estimate API body for this question."""
        d = self.cleaned_data
        workload: dict = {
            "kind": d["kind"],
            "model": {"preset": d["model_preset"]},
            "gpu_count": d["gpu_count"],
        }
        if d["kind"] == "training":
            workload["tokens_b"] = d["tokens_b"]
            names: tuple[str, ...] = ("target_days",)
        else:
            names = ("context_tokens", "output_tokens", "concurrent_requests")
            names += ("ttft_ms", "tpot_ms")
        for name in names:
            if d.get(name):
                workload[name] = d[name]
        return {
            "workload": workload,
            "accelerator": d["accelerator"],
            "constraints": {"region": d.get("region") or Region.GLOBAL},
        }
