"""An RFP diff (`vendors.engine.rfp_diff`) as the pages show it: each change with its
section's label in the active language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..engine.rfp_diff import Change


def section_labels() -> dict[str, str]:
    return {
        "deadline": _("Submission deadline"),
        "opening": _("Opening rule"),
        "instructions": _("Instructions to bidders"),
        "requirement": _("Requirement"),
        "workloads": _("Workloads"),
        "minimums": _("Minimum requirements"),
        "criteria": _("Evaluation criteria"),
    }


def shown_changes(changes: list[Change]) -> list[dict]:
    labels = section_labels()
    return [
        {
            "section": c.section,
            "section_label": labels[c.section],
            "item": c.item,
            "old": c.old,
            "new": c.new,
        }
        for c in changes
    ]
