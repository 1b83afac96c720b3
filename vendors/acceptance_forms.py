"""The acceptance tab's forms: a log to upload, a figure recorded by hand, a tighter
threshold, the delivery date."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models.acceptance import NODE_NAME_MAX_CHARS


class ResultUploadForm(forms.Form):
    file = forms.FileField(label=_("Log file"))
    node = forms.CharField(
        label=_("Node (if the log does not name it)"),
        required=False,
        max_length=NODE_NAME_MAX_CHARS,
    )
    clause = forms.ChoiceField(
        label=_("Test (if the log fits several)"), required=False
    )
    note = forms.CharField(
        label=_("What was repaired (for a rerun)"), required=False, max_length=2000
    )

    def __init__(self, *args, clauses=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["clause"].choices = [("", _("detect from the log"))] + [
            (c.key, c.key) for c in clauses if not c.hand_recorded
        ]


class MeasurementForm(forms.Form):
    clause = forms.ChoiceField(label=_("Clause"))
    measured = forms.FloatField(
        label=_("Measured value (1 = passed, 0 = failed for a pass/fail clause)"),
        min_value=0,
    )
    node = forms.CharField(
        label=_("Node"), required=False, max_length=NODE_NAME_MAX_CHARS
    )
    note = forms.CharField(label=_("Note"), required=False, max_length=2000)

    def __init__(self, *args, clauses=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["clause"].choices = [
            (c.key, c.key) for c in clauses if c.hand_recorded
        ]


class ThresholdForm(forms.Form):
    clause = forms.CharField(max_length=60, widget=forms.HiddenInput)
    required = forms.FloatField(label=_("Tighter threshold"), min_value=0)


class DeliveryForm(forms.Form):
    delivered_on = forms.DateField(
        label=_("Delivered on"), widget=forms.DateInput(attrs={"type": "date"})
    )


class PlanForm(forms.Form):
    burn_in_hours = forms.IntegerField(
        label=_("Burn-in (hours)"), min_value=1, max_value=24 * 31, initial=72
    )
