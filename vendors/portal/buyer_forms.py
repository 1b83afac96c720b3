"""The buyer's forms of the RFP: inviting a vendor and answering a question."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS

from ..models import Vendor
from ..models.rfp import QUESTION_MAX_CHARS


class InvitationForm(forms.Form):
    vendor = forms.ModelChoiceField(
        label=pgettext_lazy("rfp opening", "Vendor"),
        queryset=Vendor.objects.none(),
        required=False,
        empty_label=_("— a new vendor —"),
    )
    vendor_name = forms.CharField(
        label=_("or a new vendor's name"), max_length=200, required=False
    )
    email = forms.EmailField(
        label=pgettext_lazy("rfp opening", "E-mail address"), max_length=254
    )
    expires_at = forms.DateTimeField(
        label=pgettext_lazy("rfp opening", "Link expires"),
        required=False,
        help_text=_(
            "Empty: 30 days after the deadline (60 days from now without one)."
        ),
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
        ),
    )

    def __init__(self, *args, organisation, editable: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        # A role that cannot invite sees the form disabled, with no vendor names.
        vendors = Vendor.objects.filter(organisation=organisation).order_by("name")
        self.fields["vendor"].queryset = vendors if editable else vendors.none()

    def clean(self):
        data = super().clean()
        vendor, name = data.get("vendor"), (data.get("vendor_name") or "").strip()
        if vendor is not None and name:
            self.add_error(
                "vendor_name",
                _("Choose an existing vendor or type a new name, not both."),
            )
        elif vendor is None and not name and "vendor" not in self.errors:
            self.add_error(
                "vendor", _("Choose a vendor or type the name of a new one.")
            )
        return data


class AnswerForm(forms.Form):
    answer = forms.CharField(
        label=pgettext_lazy("rfp opening", "Answer"),
        max_length=LONG_TEXT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    # The question as the vendors will read it, from the redaction step; absent
    # (the first step), the automatic masking is published.
    published_question = forms.CharField(
        label=_("The question as the vendors will read it"),
        max_length=QUESTION_MAX_CHARS,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
