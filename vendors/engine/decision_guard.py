"""Which checks a chosen bid fails, so that choosing it is an explicit override.

A decision for a bid that fails a mandatory requirement (a compliance item of the
RFP's minimums marked "fail"), that falls below the technical threshold (or was
excluded by it under a sealed envelope), or that is not ranked first, is still the
decider's to make, but never silently: the decision needs a reason for the override,
which the memo prints and the audit trail keeps (issue 22).

Pure: plain values in, codes out; the service reads them from the comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class OverrideCheck(StrEnum):
    FAILS_REQUIREMENT = "fails_requirement"
    BELOW_THRESHOLD = "below_threshold"
    NOT_RANKED_FIRST = "not_ranked_first"


@dataclass(frozen=True)
class ChoiceFacts:
    """What the comparison says of the chosen bid."""

    failed_requirements: tuple[str, ...]  # compliance items marked "fail"
    technical_100: float
    threshold_100: float | None  # None or 0: no threshold set
    excluded: bool  # excluded by the threshold (sealed envelope)
    rank: int | None  # None: not ranked (excluded, or nothing to rank on)
    any_ranked: bool  # whether some bid has a rank at all


def checks_failed(facts: ChoiceFacts) -> tuple[OverrideCheck, ...]:
    """The checks a decision for this bid overrides, in a fixed order. A bid with no
    rank while another bid has one is not ranked first; when nothing is ranked (no
    scores, no prices) the rank check does not apply."""
    failed = []
    if facts.failed_requirements:
        failed.append(OverrideCheck.FAILS_REQUIREMENT)
    threshold = facts.threshold_100 or 0.0
    if facts.excluded or (threshold > 0 and facts.technical_100 < threshold):
        failed.append(OverrideCheck.BELOW_THRESHOLD)
    if facts.any_ranked and facts.rank != 1:
        failed.append(OverrideCheck.NOT_RANKED_FIRST)
    return tuple(failed)
