"""The automatic scores of a column as the pages and the API show them: the points,
the rule's source and the evidence (the findings' own sentences), and whether they
count (no evaluator marked the criterion) or an evaluator's mark replaced them."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..engine.autoscore import AutoScore, AutoSource
from .build import build_comparison
from .labels import compliance_label, pitfall_label, shown_value, status_label
from .pitfall_texts import fact_text
from .result import Column, SectionInfo


def _number(value) -> str:
    value = shown_value(value)
    if isinstance(value, float):
        return f"{value:g}"
    return "—" if value is None else str(value)


def evidence_lines(auto: AutoScore, lang: str) -> list[str]:
    """Why the automatic score is what it is, in ``lang`` (pitfall reasons, the
    figures behind them and the bid's own words quoted; the compliance items that warn
    or fail)."""
    if auto.source == AutoSource.PITFALL:
        if not auto.flags:
            return [
                _("No “%(pitfall)s” flag.") % {"pitfall": pitfall_label(auto.pitfall)}
            ]
        lines = []
        for flag in auto.flags:
            lines.append(flag.reason(lang))
            lines += [fact_text(f) for f in flag.facts]
            lines += [e if e.startswith("“") else f"“{e}”" for e in flag.evidence]
        return lines
    if not auto.compliance:
        return [
            _("All %(n)s compliance items pass the sizing plan.") % {"n": auto.checked}
        ]
    lines = []
    for item in auto.compliance:
        unit = f" {item.unit}" if item.unit else ""
        text = (
            f"{compliance_label(item.item)}: {_number(item.offered)} / "
            f"{_number(item.required)}{unit} ({status_label(item.status)})"
        )
        note = item.note_for(lang)
        lines.append(f"{text} — {note}" if note else text)
    return lines


def source_label(auto: AutoScore) -> str:
    if auto.source == AutoSource.PITFALL:
        return _("pitfall detector")
    return _("compliance with the sizing plan")


def automatic_json(column: Column, lang: str) -> dict:
    """The API's ``scores.automatic``: criterion code -> points, source, evidence and
    ``counted`` (False: an evaluator's mark replaces it)."""
    return {
        code: {
            "points": auto.points,
            "source": str(auto.source),
            "evidence": evidence_lines(auto, lang),
            "counted": code not in column.criteria,
        }
        for code, auto in column.automatic.items()
    }


def unscored_titles(column: Column, sections: list[SectionInfo]) -> list[str]:
    titles = {s.code: s.title for s in sections}
    return [titles.get(code, code) for code in column.unscored_sections]


def counted_sections(comparison) -> int:
    """How many sections count in the rank this viewer sees (weight above 0; the
    price section unless prices are hidden)."""
    return sum(
        1
        for s in comparison.sections
        if s.weight > 0 and not (s.auto_price and comparison.prices_hidden)
    )


def provisional_notice(column: Column, comparison) -> str:
    """ "3 of 6 sections unscored — rank is provisional", or "" when complete."""
    if column.scores_complete:
        return ""
    total = counted_sections(comparison)
    if column.unscored_sections:
        return _("%(n)s of %(total)s sections unscored — rank is provisional") % {
            "n": len(column.unscored_sections),
            "total": total,
        }
    return _("%(n)s of %(total)s sections partly scored — rank is provisional") % {
        "n": len(column.partial_sections),
        "total": total,
    }


def provisional_notices(comparison) -> list[dict]:
    """The bids whose rank is provisional: their label, the notice and the titles of
    the sections nobody scored (the page shows them above the table)."""
    return [
        {
            "label": c.label,
            "notice": provisional_notice(c, comparison),
            "unscored": unscored_titles(c, comparison.sections),
        }
        for c in comparison.columns
        if not c.scores_complete
    ]


def automatic_points(*, bid, user) -> dict[str, float]:
    """Criterion code -> the automatic score of ``bid`` as ``user`` sees it (from the
    findings their visibility shows): what `evaluation.record_scores` holds a mark
    against, so that a different mark needs a note."""
    result = build_comparison(procurement=bid.procurement, user=user)
    column = next((c for c in result.columns if c.bid.pk == bid.pk), None)
    if column is None:
        return {}
    return {code: auto.points for code, auto in column.automatic.items()}
