"""The portal's forms: the bid form's own fields and bounds for a vendor's submission
(`vendors.forms.BidForm`: accelerator chosen from the catalog by name, figures within
`models.bid_bounds`), a question, an evidence file."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from ..engine.fields import BID_FIELDS
from ..forms import BidForm
from ..models import SEVERITIES
from ..models.rfp import QUESTION_MAX_CHARS


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


def initial_from(fields: Mapping, proposal_text: str = "") -> dict:
    """A stored version's fields as the form's initial values (to revise it)."""
    initial = {k: v for k, v in fields.items() if k not in ("response_hours",)}
    if isinstance(fields.get("frameworks"), list):
        initial["frameworks"] = ", ".join(fields["frameworks"])
    for sev, hours in (fields.get("response_hours") or {}).items():
        initial[f"{sev}_hours"] = hours
    initial["proposal_text"] = proposal_text
    return initial
