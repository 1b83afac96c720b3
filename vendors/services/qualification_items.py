"""The 资格审查 requirements of a procurement's tender settings: their names, the
regime's statutory defaults (`regimes.qualification`) and the cleaning of a list the
buyer gives. Stored on `TenderSettings.qualification_items` as [{"key", "text"}]."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..engine.regimes import rules_for, statutory_qualification
from ..engine.regimes.qualification import (
    CUSTOM_PREFIX,
    GPL22_KEYS,
    STATUTORY_KEYS,
    TBL26_KEYS,
    item_article,
)

MAX_ITEMS = 30
MAX_TEXT = 300

#: The statutory requirements' names (政府采购法 第二十二条, 招标投标法 第二十六条).
STATUTORY_LABELS = {
    "gpl22_civil_liability": gettext_lazy("Able to bear civil liability independently"),
    "gpl22_credit_accounting": gettext_lazy(
        "Good business reputation and sound financial accounting"
    ),
    "gpl22_equipment_expertise": gettext_lazy(
        "The equipment and professional expertise the contract needs"
    ),
    "gpl22_tax_social_security": gettext_lazy(
        "A good record of paying taxes and social security contributions"
    ),
    "gpl22_no_violations": gettext_lazy(
        "No major violation of law in business operations in the three years "
        "before the procurement"
    ),
    "gpl22_other_legal": gettext_lazy(
        "Other conditions set by laws and administrative regulations"
    ),
    "tbl26_capability": gettext_lazy(
        "Able to carry out the project, with the qualifications the state or the "
        "tender documents require"
    ),
}

#: The statutory keys in the order a form lists them.
STATUTORY_ORDER = GPL22_KEYS + TBL26_KEYS


def statutory_items(regime: str) -> list[dict]:
    """The regime's statutory requirements as stored (the default list)."""
    return [
        {"key": i.key, "text": ""} for i in statutory_qualification(rules_for(regime))
    ]


def item_label(row: dict) -> str:
    """A requirement's name in the active language: the statutory one's translated,
    the buyer's own as written."""
    label = STATUTORY_LABELS.get(row.get("key", ""))
    return str(label) if label is not None else row.get("text", "")


def item_citation(key: str) -> str:
    """The article a statutory requirement comes from ("" for the buyer's own)."""
    article = item_article(key)
    return article.citation if article is not None else ""


def custom_items(lines: str) -> list[dict]:
    """The buyer's own requirements from text, one per non-empty line."""
    texts = [line.strip() for line in (lines or "").splitlines() if line.strip()]
    return [
        {"key": f"{CUSTOM_PREFIX}{n}", "text": text}
        for n, text in enumerate(texts, start=1)
    ]


def clean_items(items: Any) -> list[dict]:
    """The requirements as given: a statutory key (its text ignored) or a custom key
    with its text; raises ValueError with the message for the field."""
    if not isinstance(items, list):
        raise ValueError(_("Give the qualification requirements as a list."))
    if len(items) > MAX_ITEMS:
        raise ValueError(
            _("At most %(n)s qualification requirements.") % {"n": MAX_ITEMS}
        )
    cleaned: list[dict] = []
    seen: set[str] = set()
    for row in items:
        key = row.get("key") if isinstance(row, dict) else None
        custom = isinstance(key, str) and key.startswith(CUSTOM_PREFIX)
        if key not in STATUTORY_KEYS and not (
            custom and key[len(CUSTOM_PREFIX) :].isdigit()
        ):
            raise ValueError(
                _("Unknown qualification requirement: %(key)s.") % {"key": key}
            )
        if key in seen:
            raise ValueError(
                _("Qualification requirement %(key)s given twice.") % {"key": key}
            )
        seen.add(key)
        text = str(row.get("text") or "").strip() if custom else ""
        if custom and not text:
            raise ValueError(
                _("Qualification requirement %(key)s needs its wording.") % {"key": key}
            )
        if len(text) > MAX_TEXT:
            raise ValueError(
                _("A qualification requirement has at most %(n)s characters.")
                % {"n": MAX_TEXT}
            )
        cleaned.append({"key": key, "text": text})
    return cleaned
