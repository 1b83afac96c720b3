"""Automatic scores: what the pitfall detectors and the compliance check already found,
turned into marks (0-5) on the checklist criteria that ask the same question.

Pure engine, no Django. An automatic score counts in the ranking for a criterion no
evaluator has marked; an evaluator's own mark replaces it (with a note when it differs,
`vendors.services.evaluation`). The rules, on the evaluators' 0-5 scale:

* a pitfall criterion (``PITFALL_CRITERIA``: "A complete cluster, not only GPU servers"
  reads the ``gpu_only`` detector, and so on) scores 5 with no flag of its pitfall;
  each flag takes ``POINTS_PER_FLAG`` = 3 off, floor 0 (one flag: 2 of 5, "poor";
  two: 0);
* the design-balance criterion (``COMPLIANCE_CRITERIA``) reads the compliance check
  against the sizing plan: any item that fails gives 0; otherwise 5 less
  ``POINTS_PER_WARNING`` = 1 for each item that warns (short by at most the tolerance,
  or not stated: "ask the vendor"), floor 0. Items the plan does not state (no
  plan yet: every item warns with nothing required) are not counted; with none left
  there is no automatic score.

The findings are those the viewer may see (a sealed envelope withholds price-derived
pitfalls from a technical evaluator), so an automatic score never carries what the
viewer may not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .compliance import ComplianceItem, ComplianceStatus
from .detectors import Pitfall, PitfallCode

__all__ = [
    "COMPLIANCE_CRITERIA",
    "PITFALL_CRITERIA",
    "POINTS_PER_FLAG",
    "POINTS_PER_WARNING",
    "AutoScore",
    "AutoSource",
    "automatic_scores",
]

MAX_POINTS = 5.0
POINTS_PER_FLAG = 3.0
POINTS_PER_WARNING = 1.0

#: Checklist criterion code -> the pitfall whose flags score it.
PITFALL_CRITERIA: dict[str, PitfallCode] = {
    "pit_gpu_only": PitfallCode.GPU_ONLY,
    "pit_promises": PitfallCode.OVER_PROMISING,
    "pit_template": PitfallCode.TEMPLATE_PROPOSAL,
    "pit_open": PitfallCode.CLOSED_ECOSYSTEM,
}
#: Checklist criterion codes scored from the compliance check against the plan.
COMPLIANCE_CRITERIA: frozenset[str] = frozenset({"arch_balance"})


class AutoSource(StrEnum):
    PITFALL = "pitfall"
    COMPLIANCE = "compliance"


@dataclass(frozen=True)
class AutoScore:
    """One criterion's automatic mark and the findings behind it: the flags of its
    pitfall (``pitfall`` names it, none found: an empty tuple), or the compliance
    items that warn or fail (``compliance``, with ``checked`` items in all)."""

    criterion: str
    points: float  # 0-5
    source: AutoSource
    pitfall: str = ""
    flags: tuple[Pitfall, ...] = ()
    compliance: tuple[ComplianceItem, ...] = ()
    checked: int = 0


def _pitfall_score(code: str, pitfall: PitfallCode, found: Sequence[Pitfall]):
    flags = tuple(p for p in found if p.code == pitfall)
    points = max(0.0, MAX_POINTS - POINTS_PER_FLAG * len(flags))
    return AutoScore(code, points, AutoSource.PITFALL, str(pitfall), flags)


def _compliance_score(code: str, items: Sequence[ComplianceItem]) -> AutoScore | None:
    items = [i for i in items if i.required is not None]
    if not items:
        return None
    short = tuple(i for i in items if i.status != ComplianceStatus.PASS)
    if any(i.status == ComplianceStatus.FAIL for i in short):
        points = 0.0
    else:
        points = max(0.0, MAX_POINTS - POINTS_PER_WARNING * len(short))
    return AutoScore(
        code, points, AutoSource.COMPLIANCE, compliance=short, checked=len(items)
    )


def automatic_scores(
    criteria: Iterable[str],
    pitfalls: Sequence[Pitfall],
    compliance: Sequence[ComplianceItem],
) -> dict[str, AutoScore]:
    """The automatic score of every criterion in ``criteria`` that has a rule."""
    scores: dict[str, AutoScore] = {}
    for code in criteria:
        if code in PITFALL_CRITERIA:
            scores[code] = _pitfall_score(code, PITFALL_CRITERIA[code], pitfalls)
        elif code in COMPLIANCE_CRITERIA:
            score = _compliance_score(code, compliance)
            if score is not None:
                scores[code] = score
    return scores
