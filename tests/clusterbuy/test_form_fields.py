"""The shared form partial (templates/clusterbuy/_form_fields.html): a single check box
stands before its label on one line (`.field.checkbox`); a list of check boxes keeps
its label above it, like every other field (it was laid out as one check box, its
label to the right of the list)."""

from __future__ import annotations

import re

from django import forms
from django.template.loader import render_to_string


class Choices(forms.Form):
    agree = forms.BooleanField(label="Agree", required=False)
    channels = forms.MultipleChoiceField(
        label="Support channels",
        choices=[("phone", "Phone"), ("email", "Email")],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


def _field_class(html: str, name: str) -> str:
    match = re.search(rf'<div class="([^"]*)" id="field-{name}">', html)
    assert match, html
    return match.group(1)


def test_a_single_check_box_is_a_checkbox_field_and_a_list_is_not():
    html = render_to_string("clusterbuy/_form_fields.html", {"form": Choices()})
    assert _field_class(html, "agree").split() == ["field", "checkbox"]
    assert _field_class(html, "channels").split() == ["field"]
