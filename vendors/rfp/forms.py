"""The RFP settings form of the buyer's RFP page."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models.rfp import INSTRUCTIONS_MAX_CHARS

DEADLINE_INPUT = "%Y-%m-%dT%H:%M"


def deadline_field(help_text) -> forms.DateTimeField:
    """The submission deadline as a local date-time input (settings and addenda)."""
    return forms.DateTimeField(
        label=_("Submission deadline"),
        required=False,
        input_formats=[DEADLINE_INPUT, "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local"}, format=DEADLINE_INPUT
        ),
        help_text=help_text,
    )


class RfpSettingsForm(forms.Form):
    deadline = deadline_field(_("In your time zone; submissions after it are refused."))
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
    addendum_notice_days = forms.IntegerField(
        label=_("Addendum notice (days)"),
        required=False,
        min_value=0,
        max_value=90,
        help_text=_(
            "15 under government procurement (its Implementing Regulations, Art. 31) and tendering (its Implementing Regulations, Art. 21)."
        ),
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("addendum_notice_days") is None:
            cleaned.pop("addendum_notice_days", None)  # left empty: kept as it is
        return cleaned

    @classmethod
    def showing(cls, row) -> RfpSettingsForm:
        deadline = timezone.localtime(row.deadline) if row.deadline else None
        return cls(
            initial={
                "deadline": deadline,
                "publish_weights": row.publish_weights,
                "two_person_opening": row.two_person_opening,
                "instructions": row.instructions,
                "addendum_notice_days": row.addendum_notice_days,
            }
        )


class AddendumForm(forms.Form):
    """An addendum (澄清或者修改) to a published RFP: what and why, and the settings
    it changes; the live plan's minimums and weights go with it as they stand."""

    note = forms.CharField(
        label=_("What the addendum clarifies or changes, and why"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    deadline = deadline_field(
        _("Keep it or extend it; a published deadline is never shortened.")
    )
    two_person_opening = forms.BooleanField(
        label=_("Two-person opening"), required=False
    )
    publish_weights = forms.BooleanField(
        label=_("Publish the evaluation weights"), required=False
    )
    affects_bids = forms.BooleanField(
        label=_("May affect how bids are prepared"),
        required=False,
        initial=True,
        help_text=_(
            "Then the deadline moves when fewer than the notice days are left."
        ),
    )

    @classmethod
    def showing(cls, row) -> AddendumForm:
        deadline = timezone.localtime(row.deadline) if row.deadline else None
        return cls(
            initial={
                "deadline": deadline,
                "two_person_opening": row.two_person_opening,
                "publish_weights": row.publish_weights,
                "affects_bids": True,
            }
        )
