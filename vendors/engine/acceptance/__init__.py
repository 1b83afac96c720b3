"""Acceptance (验收): the plan's clauses, the tools' logs parsed and graded. Pure: no
Django, no I/O; bytes and frozen dataclasses in, frozen dataclasses out."""

from .detect import parse_log
from .grading import STRAGGLER_FRACTION, grade_clause, merge_logs
from .matching import clauses_for_log
from .plan import build_clauses
from .records import (
    TOOLS,
    AcceptanceInputs,
    ClauseGrade,
    ClauseSpec,
    LogFormatError,
    Measurement,
    ParsedLog,
    Verdict,
)

__all__ = [
    "STRAGGLER_FRACTION",
    "TOOLS",
    "AcceptanceInputs",
    "ClauseGrade",
    "ClauseSpec",
    "LogFormatError",
    "Measurement",
    "ParsedLog",
    "Verdict",
    "build_clauses",
    "clauses_for_log",
    "grade_clause",
    "merge_logs",
    "parse_log",
]
