"""The RFP settings form of the buyer's RFP page."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models.rfp import INSTRUCTIONS_MAX_CHARS

DEADLINE_INPUT = "%Y-%m-%dT%H:%M"


class RfpSettingsForm(forms.Form):
    deadline = forms.DateTimeField(
        label=_("Submission deadline"),
        required=False,
        input_formats=[DEADLINE_INPUT, "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local"}, format=DEADLINE_INPUT
        ),
        help_text=_("In your time zone; submissions after it are refused."),
    )
    publish_weights = forms.BooleanField(
        label=_("Publish the evaluation weights"), required=False
    )
    two_person_opening = forms.BooleanField(
        label=_("Two-person opening"),
        required=False,
        help_text=_("Opening needs a second administrator to confirm."),
    )
    instructions = forms.CharField(
        label=_("Instructions to bidders"),
        required=False,
        max_length=INSTRUCTIONS_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 4}),
    )

    @classmethod
    def showing(cls, row) -> RfpSettingsForm:
        deadline = timezone.localtime(row.deadline) if row.deadline else None
        return cls(
            initial={
                "deadline": deadline,
                "publish_weights": row.publish_weights,
                "two_person_opening": row.two_person_opening,
                "instructions": row.instructions,
            }
        )
