"""A clause graded against a parsed log: verdicts per node / NIC and stragglers."""

from __future__ import annotations

from .records import ClauseGrade, ClauseSpec, ParsedLog


def grade_clause(
    clause: ClauseSpec, log: ParsedLog, *, expected_hosts: int | None = None
) -> ClauseGrade:
    raise NotImplementedError
