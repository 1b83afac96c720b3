"""Forms of a correction request: the buyer's request on an opened bid, and the
vendor's answer in its portal (`vendors.services.corrections`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS

from ..models import BidLineItem, CorrectionKind
from ..models.corrections import CORRECTION_TEXT_MAX_CHARS

_QUANTITY = BidLineItem._meta.get_field("quantity")
_PRICE = BidLineItem._meta.get_field("unit_price")


class CorrectionRequestForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=CorrectionKind.choices)
    what = forms.CharField(
        label=_("What is to be corrected or clarified"),
        max_length=CORRECTION_TEXT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    why = forms.CharField(
        label=_("Why"),
        max_length=CORRECTION_TEXT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    line_item = forms.ModelChoiceField(
        label=_("Line item (arithmetic correction)"),
        queryset=BidLineItem.objects.none(),
        required=False,
    )
    quantity = forms.DecimalField(
        label=_("Corrected quantity"),
        required=False,
        max_digits=_QUANTITY.max_digits,
        decimal_places=_QUANTITY.decimal_places,
    )
    unit_price = forms.DecimalField(
        label=_("Corrected unit price"),
        required=False,
        max_digits=_PRICE.max_digits,
        decimal_places=_PRICE.decimal_places,
    )

    def __init__(self, *args, bid=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["line_item"].queryset = (
            BidLineItem.objects.filter(bid=bid)
            if bid is not None
            else BidLineItem.objects.none()
        )
        self.fields["line_item"].label_from_instance = lambda li: (
            f"{li.get_category_display()} · {li.description}"
        )

    def service_values(self) -> dict:
        data = self.cleaned_data
        changes = []
        if data["kind"] == CorrectionKind.ARITHMETIC and data.get("line_item"):
            for field in ("quantity", "unit_price"):
                if data.get(field) is not None:
                    changes.append(
                        {
                            "line_item": data["line_item"].pk,
                            "field": field,
                            "new": data[field],
                        }
                    )
        return {
            "kind": data["kind"],
            "what": data["what"],
            "why": data["why"],
            "changes": changes,
        }


class CorrectionAnswerForm(forms.Form):
    response = forms.CharField(
        label=_("Your answer (required to decline or to clarify)"),
        required=False,
        max_length=LONG_TEXT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class JustificationAnswerForm(forms.Form):
    """The vendor's written justification of an abnormally low price (87号令
    第六十条), with optional proof."""

    response = forms.CharField(
        label=_("Your written justification"),
        max_length=LONG_TEXT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    proof = forms.FileField(
        label=_("Proof (PDF or XLSX, optional)"),
        required=False,
        help_text=_("Cost breakdowns, supplier quotes, stock you already hold."),
    )
