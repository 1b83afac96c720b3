"""The committee's summed results, read by the comparison: the technical criteria and
section weights, whether the marks are summed, each member's marks and the mean.

Apart from ``committee_scoring`` (which reads the comparison for the bids a member
may score), so the comparison can read these without a cycle.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from clusterbuy.models import Procurement

from ..engine.regimes.committee_scores import (
    ScoredCriterion,
    committee_mean,
    member_total_100,
)
from ..models import ChecklistCriterion, CommitteeMember
from . import evaluation
from .committee import committee_of, members_of


def technical_criteria(
    procurement: Procurement,
) -> tuple[list[ChecklistCriterion], dict[str, Decimal]]:
    """The checklist's technical criteria (price sections excepted) and the weight
    of each technical section."""
    row = evaluation.evaluation_settings_for(procurement=procurement)
    sections = [s for s in evaluation.checklist_sections(row) if not s.auto_price]
    weights = evaluation.section_weights(row, sections)
    criteria = [c for s in sections for c in s.criteria.all()]
    for c in criteria:
        c.section_code = next(s.code for s in sections if s.pk == c.section_id)
    return criteria, {code: Decimal(str(w)) for code, w in weights.items()}


def is_summed(procurement: Procurement) -> bool:
    committee = committee_of(procurement)
    return bool(committee and committee.summed_at)


def member_scores(
    member: CommitteeMember, criteria: list[ChecklistCriterion]
) -> dict[int, dict[str, int]]:
    """bid id -> criterion code -> points, for one member."""
    codes = {c.pk: c.code for c in criteria}
    found: dict[int, dict[str, int]] = {}
    for s in member.scores.all():
        if s.criterion_id in codes:
            found.setdefault(s.bid_id, {})[codes[s.criterion_id]] = s.points
    return found


def committee_results(
    procurement: Procurement,
    bid_ids: Iterable[int],
    *,
    also: CommitteeMember | None = None,
) -> dict[int, dict]:
    """bid id -> {"members": {member id: total}, "mean": committee score} over the
    submitted members (the pre-scores never enter). ``also``: a member who has not
    submitted, whose own totals are shown to them but never enter the mean."""
    criteria, weights = technical_criteria(procurement)
    scored = [ScoredCriterion(c.code, c.section_code, c.weight) for c in criteria]
    members = [
        m for m in members_of(committee_of(procurement)) if m.submitted_at is not None
    ]
    extra = [also] if also is not None and also.submitted_at is None else []
    marks = {m.pk: member_scores(m, criteria) for m in members + extra}
    results = {}
    for bid_id in bid_ids:
        totals = {
            m.pk: member_total_100(marks[m.pk].get(bid_id, {}), scored, weights)
            for m in members + extra
            if len(marks[m.pk].get(bid_id, {})) == len(scored)
        }
        counted = [t for pk, t in totals.items() if pk not in {e.pk for e in extra}]
        results[bid_id] = {"members": totals, "mean": committee_mean(counted)}
    return results
