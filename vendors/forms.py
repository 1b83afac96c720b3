from django import forms
from django.utils.translation import gettext_lazy as _

from .models import (
    MONITORING_ITEMS,
    SEVERITIES,
    SUPPORT_CHANNELS,
    Bid,
    BidLineItem,
    CaseStudy,
    Vendor,
)
from .services import BID_FIELDS, CASE_STUDY_FIELDS, VENDOR_FIELDS

CHANNEL_LABELS = {
    "phone": _("Phone"),
    "wechat": _("WeChat"),
    "ticket": _("Ticket system"),
    "email": _("Email"),
    "on_site": _("On-site"),
}
MONITORING_LABELS = {
    "gpu_temperature": _("GPU temperature"),
    "power": _("Power"),
    "utilisation": _("Utilisation"),
    "ecc_xid": _("ECC / Xid errors"),
    "interconnect_errors": _("NVLink / InfiniBand errors"),
    "storage": _("Storage"),
    "job_status": _("Job status"),
}


class VendorForm(forms.ModelForm):
    class Meta:
        model = Vendor
        fields = list(VENDOR_FIELDS)
        widgets = {
            "contacts": forms.Textarea(attrs={"rows": 2}),
            "certifications": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }


class BidForm(forms.ModelForm):
    """The bid's facts; line items are added on the bid page or imported."""

    support_channels = forms.MultipleChoiceField(
        label=_("Support channels"),
        choices=[(c, CHANNEL_LABELS[c]) for c in SUPPORT_CHANNELS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    monitoring = forms.MultipleChoiceField(
        label=_("Monitoring offered"),
        choices=[(m, MONITORING_LABELS[m]) for m in MONITORING_ITEMS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    frameworks = forms.CharField(
        label=_("Frameworks supported"),
        help_text=_("Comma-separated, e.g. PyTorch, Megatron-LM, vLLM"),
        required=False,
    )
    sev1_hours = forms.FloatField(
        label=_("Response, severity 1 (h)"), min_value=0, required=False
    )
    sev2_hours = forms.FloatField(
        label=_("Response, severity 2 (h)"), min_value=0, required=False
    )
    sev3_hours = forms.FloatField(
        label=_("Response, severity 3 (h)"), min_value=0, required=False
    )

    class Meta:
        model = Bid
        fields = ["vendor"] + [
            f
            for f in BID_FIELDS
            if f
            not in ("support_channels", "monitoring", "frameworks", "response_hours")
        ]
        widgets = {"proposal_text": forms.Textarea(attrs={"rows": 6})}

    def __init__(self, *args, organisation=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["vendor"].queryset = Vendor.objects.filter(
            organisation=organisation
        )
        if self.instance.pk:
            self.initial["frameworks"] = ", ".join(self.instance.frameworks or [])
            for sev in SEVERITIES:
                self.initial[f"{sev}_hours"] = (self.instance.response_hours or {}).get(
                    sev
                )

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        data["frameworks"] = [
            f.strip() for f in (data.get("frameworks") or "").split(",") if f.strip()
        ]
        data["response_hours"] = {
            sev: data.pop(f"{sev}_hours")
            for sev in SEVERITIES
            if data.get(f"{sev}_hours") is not None
        }
        for sev in SEVERITIES:
            data.pop(f"{sev}_hours", None)
        return data


class LineItemForm(forms.ModelForm):
    class Meta:
        model = BidLineItem
        fields = ["category", "description", "quantity", "unit_price", "recurring"]


class UploadForm(forms.Form):
    file = forms.FileField(label=_("File"))


class CaseStudyForm(forms.ModelForm):
    class Meta:
        model = CaseStudy
        fields = list(CASE_STUDY_FIELDS)
        widgets = {
            f: forms.Textarea(attrs={"rows": 2})
            for f in (
                "challenge",
                "network_architecture",
                "storage_choice",
                "solution_details",
            )
        }


class EvaluationSettingsForm(forms.Form):
    blind_grading = forms.BooleanField(label=_("Blind grading"), required=False)
    sealed_envelope = forms.BooleanField(label=_("Sealed envelope"), required=False)
    technical_threshold = forms.FloatField(
        label=_("Technical threshold (0–100)"),
        min_value=0,
        max_value=100,
        required=False,
    )
    scoring_closed = forms.BooleanField(label=_("Scoring closed"), required=False)


class DecisionForm(forms.Form):
    bid = forms.ModelChoiceField(label=_("Chosen bid"), queryset=Bid.objects.none())
    rationale = forms.CharField(
        label=_("Rationale"), widget=forms.Textarea(attrs={"rows": 4})
    )

    def __init__(self, *args, procurement=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bid"].queryset = Bid.objects.filter(
            procurement=procurement
        ).select_related("vendor")


def weights_form_class(sections):
    fields = {
        f"w_{s.code}": forms.FloatField(
            label=s.title, min_value=0, max_value=1000, initial=s.weight, required=False
        )
        for s in sections
    }
    return type("WeightsForm", (forms.Form,), fields)
