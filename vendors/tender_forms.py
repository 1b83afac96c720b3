"""The tender settings form: the regime's choices, one include box with its
threshold per ★ item (`services.tender.ITEM_KINDS`), one box per statutory
qualification requirement and a text of the buyer's own, one a line."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from .comparison.tender import item_source, item_unit
from .models import TenderSettings
from .services import qualification_items as qualification
from .services.tender import FROZEN_LISTS, ITEM_KINDS, SETTING_FIELDS

# The settings the form edits: the service's, less the lists (their own rows).
SETTINGS_FIELDS = [f for f in SETTING_FIELDS if f not in FROZEN_LISTS]

ITEM_LABELS = {
    "delivered_pflops": _("★ Delivered compute at least (PFLOPS)"),
    "memory_fit": _("★ The planned model fits in memory"),
    "network_gbps_per_gpu": _("★ Network per GPU at least (Gbit/s)"),
    "storage_tb": _("★ Storage capacity at least (TB)"),
    "delivery_days": _("★ Delivery within (days)"),
    "open_scheduler": _("★ An open scheduler (Slurm or Kubernetes)"),
}


class TenderSettingsForm(forms.ModelForm):
    class Meta:
        model = TenderSettings
        fields = SETTINGS_FIELDS

    def __init__(self, *args, items_frozen: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        current = {i["key"]: i for i in self.instance.mandatory_items or []}
        for key, (comparison, _unit) in ITEM_KINDS.items():
            self.fields[f"item_{key}"] = forms.BooleanField(
                label=ITEM_LABELS[key],
                required=False,
                initial=key in current,
                disabled=items_frozen,
            )
            if comparison != "true":
                required = current.get(key, {}).get("required")
                self.fields[f"required_{key}"] = forms.DecimalField(
                    label=_("threshold"),
                    required=False,
                    min_value=Decimal("0.01"),
                    max_digits=12,
                    decimal_places=2,
                    initial=None if required is None else Decimal(str(required)),
                    disabled=items_frozen,
                )
        self._qualification_fields(items_frozen)
        self.items_frozen = items_frozen

    def _qualification_fields(self, frozen: bool) -> None:
        current = self.instance.qualification_items or []
        keys = {i["key"] for i in current}
        for key in qualification.STATUTORY_ORDER:
            self.fields[f"qual_{key}"] = forms.BooleanField(
                label=qualification.STATUTORY_LABELS[key],
                required=False,
                initial=key in keys,
                disabled=frozen,
            )
        self.fields["qual_custom"] = forms.CharField(
            label=_("Further qualification requirements (one a line)"),
            required=False,
            widget=forms.Textarea(attrs={"rows": 3}),
            initial="\n".join(
                i["text"]
                for i in current
                if i["key"] not in qualification.STATUTORY_LABELS
            ),
            disabled=frozen,
        )

    def qualification_items(self) -> list[dict]:
        """The requirements as ticked and typed (statutory ones first)."""
        items = [
            {"key": key, "text": ""}
            for key in qualification.STATUTORY_ORDER
            if self.cleaned_data.get(f"qual_{key}")
        ]
        return items + qualification.custom_items(self.cleaned_data.get("qual_custom"))

    def qualification_rows(self) -> list[dict]:
        return [
            {
                "key": key,
                "include": self[f"qual_{key}"],
                "citation": qualification.item_citation(key),
            }
            for key in qualification.STATUTORY_ORDER
        ]

    def mandatory_items(self) -> list[dict]:
        """The ★ items as ticked, the rows kept for their source."""
        current = {i["key"]: i for i in self.instance.mandatory_items or []}
        items = []
        for key, (comparison, _unit) in ITEM_KINDS.items():
            if not self.cleaned_data.get(f"item_{key}"):
                continue
            row = {"key": key, "source": current.get(key, {}).get("source", "")}
            if comparison == "true":
                row["required"] = True
            else:
                row["required"] = self.cleaned_data.get(f"required_{key}")
            items.append(row)
        return items

    def settings_values(self) -> dict:
        values = {name: self.cleaned_data[name] for name in SETTINGS_FIELDS}
        if not self.items_frozen:
            values["mandatory_items"] = self.mandatory_items()
            items = self.qualification_items()
            # A new regime with the requirements untouched: its statutory ones.
            unchanged = items == (self.instance.qualification_items or [])
            if not (unchanged and values.get("regime") != self.instance.regime):
                values["qualification_items"] = items
        return values

    def add_service_errors(self, errors: dict[str, list[str]]) -> None:
        for field, messages in errors.items():
            target = field if field in self.fields else None
            for message in messages:
                self.add_error(target, message)

    def settings_bound_fields(self):
        return [self[name] for name in SETTINGS_FIELDS]

    def item_rows(self) -> list[dict]:
        """One row per ★ item kind: its include box, its threshold, its unit."""
        current = {i["key"]: i for i in self.instance.mandatory_items or []}
        return [
            {
                "key": key,
                "include": self[f"item_{key}"],
                "threshold": self[f"required_{key}"]
                if f"required_{key}" in self.fields
                else None,
                "comparison": comparison,
                "unit": item_unit(unit),
                "source": item_source(current.get(key, {}).get("source", "")),
            }
            for key, (comparison, unit) in ITEM_KINDS.items()
        ]
