"""The portal's forms: the bid form's own fields and bounds for a vendor's submission
(`vendors.forms.BidForm`: accelerator chosen from the catalog by name, figures within
`models.bid_bounds`), its policy declarations and the contact facts of its 投标函
(`BidContact`'s own field rules), a question, an evidence file with its purpose."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from ..engine.fields import BID_FIELDS
from ..forms import BidForm
from ..models import SEVERITIES, BidContact, EvidencePurpose
from ..models.evidence import SUBMISSION_PURPOSE_CHOICES
from ..models.rfp import QUESTION_MAX_CHARS
from ..services.committee_collusion import CONTACT_FIELDS


class SubmissionForm(BidForm):
    """The bid form less the vendor (the invitation names it) and the version (each
    submission adds one), plus the line-item workbook."""

    workbook = forms.FileField(
        label=_("Line-item workbook (XLSX)"),
        required=False,
        help_text=_(
            "The bid template filled in. Leave empty to keep the workbook of your "
            "latest version."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, organisation=None, **kwargs)
        del self.fields["vendor"]
        del self.fields["version"]

    def bid_values(self) -> dict:
        """The bid's fields by name (`BID_FIELDS`), proposal text included."""
        values = self.service_values()
        return {name: values.get(name) for name in BID_FIELDS if name in values}


class DeclarationsForm(forms.Form):
    """The policy declarations a price deduction rests on (财库〔2020〕46号 and
    〔2022〕19号: small and micro enterprises; 国办发〔2025〕34号: domestic products).
    The buyer accepts each only with its evidence file."""

    declares_sme = forms.BooleanField(
        label=_("We declare a small or micro enterprise"),
        required=False,
        help_text=_(
            "Attach the small-enterprise declaration letter under Evidence, "
            "purpose: small-enterprise declaration."
        ),
    )
    declares_domestic = forms.BooleanField(
        label=_("We declare domestic products"),
        required=False,
        help_text=_(
            "Attach the domestic-product proof under Evidence, purpose: "
            "domestic-product proof."
        ),
    )
    domestic_cost_share_pct = forms.DecimalField(
        label=_("Domestic share of the product cost (%)"),
        required=False,
        min_value=0,
        max_value=100,
        max_digits=5,
        decimal_places=2,
    )

    def clean(self):
        cleaned = super().clean()
        share = cleaned.get("domestic_cost_share_pct")
        if cleaned.get("declares_domestic") and share is None:
            if "domestic_cost_share_pct" not in self.errors:
                self.add_error(
                    "domestic_cost_share_pct",
                    _("Give the domestic share of the product cost."),
                )
        return cleaned

    def stored(self) -> dict:
        """As a submission keeps them (`Submission.declarations`)."""
        data = self.cleaned_data
        domestic = bool(data.get("declares_domestic"))
        share = data.get("domestic_cost_share_pct") if domestic else None
        return {
            "sme": bool(data.get("declares_sme")),
            "domestic": domestic,
            "domestic_cost_share_pct": None
            if share is None
            else str(share.quantize(Decimal("0.01"))),
        }


def declarations_initial(stored: Mapping) -> dict:
    return {
        "declares_sme": bool(stored.get("sme")),
        "declares_domestic": bool(stored.get("domestic")),
        "domestic_cost_share_pct": stored.get("domestic_cost_share_pct"),
    }


class ContactForm(forms.ModelForm):
    """The contact facts of the 投标函 and the bond's account (the collusion signals
    compare them across bids), with `BidContact`'s own phone and e-mail rules."""

    class Meta:
        model = BidContact
        fields = list(CONTACT_FIELDS)

    def stored(self) -> dict:
        return {name: self.cleaned_data.get(name) or "" for name in CONTACT_FIELDS}


def form_data(fields: Mapping) -> Mapping:
    """An API client's fields (JSON: lists, a response-hours object) as the form's
    data; a posted form is taken as it is."""
    if isinstance(fields, QueryDict):
        return fields
    data = {k: v for k, v in fields.items() if v is not None}
    frameworks = data.get("frameworks")
    if isinstance(frameworks, list | tuple):
        data["frameworks"] = ", ".join(str(f) for f in frameworks)
    hours = data.pop("response_hours", None)
    if isinstance(hours, Mapping):
        for sev in SEVERITIES:
            if hours.get(sev) is not None:
                data[f"{sev}_hours"] = hours[sev]
    elif hours is not None:
        data["sev1_hours"] = "?"  # not an object: refused as a number would be
    return data


class QuestionForm(forms.Form):
    question = forms.CharField(
        label=_("Your question"),
        max_length=QUESTION_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class EvidenceForm(forms.Form):
    file = forms.FileField(
        label=_("Evidence file (PDF or XLSX)"),
        help_text=_("Case studies with measured outcomes, datasheets, certificates."),
    )
    purpose = forms.ChoiceField(
        label=_("Purpose"),
        choices=SUBMISSION_PURPOSE_CHOICES,
        initial=EvidencePurpose.GENERAL,
        required=False,
        help_text=_(
            "A small-enterprise declaration or a domestic-product proof backs the "
            "declaration of the same name."
        ),
    )


def initial_from(fields: Mapping, proposal_text: str = "") -> dict:
    """A stored version's fields as the form's initial values (to revise it)."""
    initial = {k: v for k, v in fields.items() if k not in ("response_hours",)}
    if isinstance(fields.get("frameworks"), list):
        initial["frameworks"] = ", ".join(fields["frameworks"])
    for sev, hours in (fields.get("response_hours") or {}).items():
        initial[f"{sev}_hours"] = hours
    initial["proposal_text"] = proposal_text
    return initial
