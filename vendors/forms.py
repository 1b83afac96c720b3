import re

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, model_field_limits
from clusterbuy.forms import searchable
from clusterbuy.services import ServiceError

from .engine.fields import BID_FIELDS, CASE_STUDY_FIELDS, VENDOR_FIELDS
from .line_item_forms import LineItemForm  # noqa: F401  (the bid page's form)
from .models import (
    HOURS_MAX,
    MONITORING_ITEMS,
    SEVERITIES,
    SUPPORT_CHANNELS,
    Bid,
    CaseStudy,
    ChecklistTemplate,
    Decision,
    EvidencePurpose,
    Vendor,
    checklist_default,
)
from .services import checklists, plan_facts
from .services.evaluation import SECTION_WEIGHT_MAX, ScoreMark

CHANNEL_LABELS = {
    "phone": _("Phone"),
    "wechat": _("WeChat"),
    "ticket": _("Ticket system"),
    "email": _("Email"),
    "on_site": _("On-site"),
}
MONITORING_LABELS = {
    "gpu_temperature": _("GPU temperature"),
    "power": _("Power"),
    "utilisation": _("Utilisation"),
    "ecc_xid": _("ECC / Xid errors"),
    "interconnect_errors": _("NVLink / InfiniBand errors"),
    "storage": _("Storage"),
    "job_status": _("Job status"),
}


class TermLinesField(forms.CharField):
    """A list of terms typed one per line (a vendor's aliases)."""

    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(value)
        return value

    def to_python(self, value):
        text = super().to_python(value)
        return [line.strip() for line in text.splitlines() if line.strip()]


class VendorForm(forms.ModelForm):
    aliases = TermLinesField(
        label=_("Aliases"),
        required=False,
        help_text=_(
            "Short names, brands and product lines hidden from blind evaluators, "
            "one per line (the legal name is hidden anyway)."
        ),
    )
    alias_exceptions = TermLinesField(
        label=_("Terms not masked"),
        required=False,
        help_text=_(
            "Terms ClusterBuy learnt from the vendor's texts that stay visible, one "
            "per line."
        ),
    )

    class Meta:
        model = Vendor
        fields = list(VENDOR_FIELDS)
        widgets = {
            "contacts": forms.Textarea(attrs={"rows": 2}),
            "certifications": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }


class BidForm(forms.ModelForm):
    """The bid's facts; line items are added on the bid page or imported."""

    support_channels = forms.MultipleChoiceField(
        label=_("Support channels"),
        choices=[(c, CHANNEL_LABELS[c]) for c in SUPPORT_CHANNELS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    monitoring = forms.MultipleChoiceField(
        label=_("Monitoring offered"),
        choices=[(m, MONITORING_LABELS[m]) for m in MONITORING_ITEMS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    frameworks = forms.CharField(
        label=_("Frameworks supported"),
        help_text=_("Comma-separated, e.g. PyTorch, Megatron-LM, vLLM"),
        required=False,
    )
    sev1_hours = forms.FloatField(
        label=_("Response, severity 1 (h)"),
        min_value=0,
        max_value=HOURS_MAX,
        required=False,
    )
    sev2_hours = forms.FloatField(
        label=_("Response, severity 2 (h)"),
        min_value=0,
        max_value=HOURS_MAX,
        required=False,
    )
    sev3_hours = forms.FloatField(
        label=_("Response, severity 3 (h)"),
        min_value=0,
        max_value=HOURS_MAX,
        required=False,
    )
    # The version of the bid the form was filled from: a save over a newer one is
    # refused (bid_versions.StaleBidError) instead of undoing the other change.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Bid
        fields = ["vendor"] + [
            f
            for f in BID_FIELDS
            if f
            not in ("support_channels", "monitoring", "frameworks", "response_hours")
        ]
        widgets = {"proposal_text": forms.Textarea(attrs={"rows": 6})}

    def __init__(self, *args, organisation=None, procurement=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["vendor"].queryset = Vendor.objects.filter(
            organisation=organisation
        )
        self.fields["vendor"].label = _("Vendor")  # the model's name is not translated
        self._accelerator_select(procurement)
        if self.instance.pk:
            self.initial["version"] = self.instance.version
            self.initial["frameworks"] = ", ".join(self.instance.frameworks or [])
            for sev in SEVERITIES:
                self.initial[f"{sev}_hours"] = (self.instance.response_hours or {}).get(
                    sev
                )

    def _accelerator_select(self, procurement) -> None:
        """The accelerator is chosen by name from the catalog, grouped by vendor (the
        key is what is posted), those buyable in the procurement's region first; a
        filter box above it (static/js/app.js, ``data-searchable``) narrows the list
        as the user types. Without a loaded catalog the key is typed, as the service
        then accepts any key."""
        choices = plan_facts.accelerator_choices(procurement=procurement)
        if not choices:
            return
        field = self.fields["accelerator"]
        self.fields["accelerator"] = forms.ChoiceField(
            label=field.label,
            choices=[("", _("Choose an accelerator"))] + choices,
            help_text=_(
                "From the hardware catalog (sizing tab); those buyable in the "
                "procurement's region are listed first."
            ),
            widget=forms.Select(
                attrs=searchable(
                    _("Filter: type a name, e.g. H200"), _("Filter the accelerators")
                )
            ),
        )

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and cleaned.get("version") is None:
            raise forms.ValidationError(
                _("This form is out of date: reload the page and make your changes.")
            )
        return cleaned

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        data["frameworks"] = [
            f.strip() for f in (data.get("frameworks") or "").split(",") if f.strip()
        ]
        data["response_hours"] = {
            sev: data.pop(f"{sev}_hours")
            for sev in SEVERITIES
            if data.get(f"{sev}_hours") is not None
        }
        for sev in SEVERITIES:
            data.pop(f"{sev}_hours", None)
        return data


class UploadForm(forms.Form):
    file = forms.FileField(label=_("File"))


class AttachmentForm(UploadForm):
    """A bid's attachment with what it proves (a declaration is accepted only with
    the evidence of its purpose, `services.declarations`)."""

    purpose = forms.ChoiceField(
        label=_("Purpose"),
        choices=EvidencePurpose.choices,
        initial=EvidencePurpose.GENERAL,
        required=False,
    )


class CaseStudyForm(forms.ModelForm):
    class Meta:
        model = CaseStudy
        fields = list(CASE_STUDY_FIELDS)
        widgets = {
            f: forms.Textarea(attrs={"rows": 2})
            for f in (
                "challenge",
                "network_architecture",
                "storage_choice",
                "solution_details",
            )
        }


class EvaluationSettingsForm(forms.Form):
    template = forms.ModelChoiceField(
        label=_("Checklist"),
        queryset=ChecklistTemplate.objects.none(),
        required=False,
        help_text=_("Fixed once bids are scored."),
    )
    blind_grading = forms.BooleanField(label=_("Blind grading"), required=False)
    sealed_envelope = forms.BooleanField(label=_("Sealed envelope"), required=False)
    technical_threshold = forms.FloatField(
        label=_("Technical threshold (0–100)"),
        min_value=0,
        max_value=100,
        required=False,
    )
    scoring_closed = forms.BooleanField(label=_("Scoring closed"), required=False)

    def __init__(self, *args, organisation=None, procurement=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["template"].queryset = ChecklistTemplate.objects.filter(
            organisation=organisation
        )
        self.fields["template"].label_from_instance = lambda t: t.display_name

    @classmethod
    def showing(cls, settings_row, *, organisation) -> "EvaluationSettingsForm":
        """The form filled with the procurement's settings. A default checklist not
        stored yet is the empty choice, named: saving the form stores it."""
        form = cls(
            organisation=organisation,
            initial={
                "template": settings_row.template_id,
                "blind_grading": settings_row.blind_grading,
                "sealed_envelope": settings_row.sealed_envelope,
                "technical_threshold": settings_row.technical_threshold,
                "scoring_closed": settings_row.scoring_closed,
            },
        )
        if settings_row.template_id is None:
            form.fields["template"].empty_label = settings_row.template.display_name
        return form

    def service_values(self) -> dict:
        values = dict(self.cleaned_data)
        if values.get("template") is None:
            values.pop("template", None)
        return values


_POINTS_FIELD = re.compile(r"^points_(\d+)$")


def score_marks(post) -> list[ScoreMark]:
    """The bid page's score form, in its order: `points_<criterion id>` (blank: not
    scored) with `note_<criterion id>`. Points that are not a whole number refuse
    the whole form."""
    marks = []
    for key in post:
        match = _POINTS_FIELD.match(key)
        raw = post.get(key, "")
        if match is None or raw == "":
            continue
        try:
            points = int(raw)
        except ValueError:
            raise ServiceError(_("Invalid points."), field="points") from None
        note = post.get(f"note_{match[1]}", "")
        if len(note) > LONG_TEXT_MAX_CHARS:
            raise ServiceError(
                _("An evidence note is at most %(n)s characters.")
                % {"n": LONG_TEXT_MAX_CHARS},
                field="note",
            )
        marks.append(ScoreMark(criterion=int(match[1]), points=points, note=note))
    return marks


def posted_weights(post, section_codes: list[str]) -> dict[str, float]:
    """The comparison's weights form: `w_<section code>`, blank for unchanged."""
    weights = {}
    for code in section_codes:
        raw = post.get(f"w_{code}", "")
        if raw.strip():
            try:
                weights[code] = float(raw)
            except ValueError:
                raise ServiceError(_("Weights are numbers."), field="weights") from None
    return weights


class DecisionForm(forms.Form):
    bid = forms.ModelChoiceField(label=_("Chosen bid"), queryset=Bid.objects.none())
    rationale = forms.CharField(
        label=_("Rationale"),
        widget=forms.Textarea(attrs={"rows": 4}),
        **model_field_limits(Decision, "rationale"),
    )
    override_reason = forms.CharField(
        label=_("Reason for the override"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "Needed when the chosen bid fails a mandatory requirement or the "
            "technical threshold, or is not ranked first; the memo prints it."
        ),
        **model_field_limits(Decision, "override_reason"),
    )
    # The decision the page showed (`decisions.decision_token`), so a decision
    # recorded by someone else meanwhile is not silently replaced.
    seen = forms.CharField(required=False, widget=forms.HiddenInput)

    def service_values(self) -> dict:
        values = dict(self.cleaned_data)
        values["seen"] = values["seen"] if "seen" in self.data else None
        return values

    def __init__(self, *args, procurement=None, labels=None, **kwargs):
        """``labels``: bid id -> what the viewer may call the bid ("Vendor n" under
        blind grading, `Visibility.labels`); "vendor · procurement" otherwise."""
        super().__init__(*args, **kwargs)
        self.fields["bid"].queryset = (
            Bid.objects.filter(procurement=procurement)
            .select_related("vendor")
            .order_by("id")
        )
        shown = labels or {}
        self.fields["bid"].label_from_instance = lambda bid: shown.get(bid.pk, str(bid))


def weights_form_class(sections):
    """``sections`` are the comparison's SectionInfo rows (titles already as shown)."""
    fields = {
        f"w_{s.code}": forms.FloatField(
            label=s.title,
            min_value=0,
            max_value=SECTION_WEIGHT_MAX,
            initial=s.weight,
            required=False,
        )
        for s in sections
    }
    return type("WeightsForm", (forms.Form,), fields)


# --- checklist editor (a hand-rolled form: sections x criteria of any length) ---------


def checklist_rows(template: ChecklistTemplate) -> list[dict]:
    """The template's sections as the editor shows them (default titles translated)."""
    return [
        {
            **section,
            "title": checklist_default.section_title(section["code"], section["title"]),
            "criteria": [
                {
                    **criterion,
                    "text": checklist_default.criterion_text(
                        criterion["code"], criterion["text"]
                    ),
                }
                for criterion in section["criteria"]
            ],
        }
        for section in checklists.template_sections(template)
    ]


def _free_code(base: str, taken: set[str]) -> str:
    base = slugify(base)[:34] or "item"
    n = 1
    while f"{base}_{n}" in taken:
        n += 1
    taken.add(f"{base}_{n}")
    return f"{base}_{n}"


def _count(post, key: str) -> int:
    try:
        return max(0, min(int(post.get(key, 0)), 200))
    except (TypeError, ValueError):
        return 0


def parse_checklist_post(post) -> tuple[str, list[dict]]:
    """The editor's POST as (name, sections) in the editor's own shape: titles as
    typed, removed rows dropped, new rows given free codes. `stored_sections` turns
    it into what the service stores."""
    sections: list[dict] = []
    section_codes: set[str] = {
        str(post.get(f"s{i}_code", "")) for i in range(_count(post, "section_count"))
    }
    for i in range(_count(post, "section_count")):
        prefix = f"s{i}_"
        if post.get(prefix + "remove"):
            continue
        code = str(post.get(prefix + "code", ""))
        criteria = []
        taken: set[str] = set()
        for j in range(_count(post, prefix + "ccount")):
            cp = f"{prefix}c{j}_"
            taken.add(str(post.get(cp + "code", "")))
            if post.get(cp + "remove"):
                continue
            criteria.append(
                {
                    "code": str(post.get(cp + "code", "")),
                    "text": str(post.get(cp + "text", "")).strip(),
                    "weight": str(post.get(cp + "weight", "")).strip() or "1",
                }
            )
        new_text = str(post.get(prefix + "new_text", "")).strip()
        if new_text:
            criteria.append(
                {
                    "code": _free_code(code, taken),
                    "text": new_text,
                    "weight": str(post.get(prefix + "new_weight", "")).strip() or "1",
                }
            )
        sections.append(
            {
                "code": code,
                "title": str(post.get(prefix + "title", "")).strip(),
                "weight": str(post.get(prefix + "weight", "")).strip() or "0",
                "auto_price": post.get(prefix + "auto") == "1",
                "criteria": criteria,
            }
        )
    new_title = str(post.get("new_section_title", "")).strip()
    if new_title:
        sections.append(
            {
                "code": _free_code("section", section_codes),
                "title": new_title,
                "weight": str(post.get("new_section_weight", "")).strip() or "10",
                "auto_price": False,
                "criteria": [],
            }
        )
    return str(post.get("name", "")).strip(), sections


def stored_name(name: str) -> str:
    return checklist_default.stored_template_name(name)


def stored_sections(sections: list[dict]) -> list[dict]:
    """Editor rows -> service rows: a default title shown translated is stored as the
    default's msgid again, so it stays translated for every language."""
    return [
        {
            **s,
            "title": checklist_default.stored_section_title(s["code"], s["title"]),
            "criteria": [
                {
                    **c,
                    "text": checklist_default.stored_criterion_text(
                        c["code"], c["text"]
                    ),
                }
                for c in s["criteria"]
            ],
        }
        for s in sections
    ]
