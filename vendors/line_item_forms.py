"""The line-item form of the bid page: category, price, and the term (years from/to)
and scope (other categories the price covers) the TCO reads (issue 24)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import SCOPE_HELP, TERM_HELP, BidLineItem, LineCategory


class LineItemForm(forms.ModelForm):
    scope = forms.MultipleChoiceField(
        label=_("Also covers"),
        choices=LineCategory.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=SCOPE_HELP,
    )

    class Meta:
        model = BidLineItem
        fields = ["category", "description", "quantity", "unit_price", "recurring"]
        fields += ["year_from", "year_to", "scope"]
        help_texts = TERM_HELP
