"""The acceptance plan: the tests in order, each with its command and threshold."""

from __future__ import annotations

from .records import AcceptanceInputs, ClauseSpec


def build_clauses(inputs: AcceptanceInputs) -> tuple[ClauseSpec, ...]:
    raise NotImplementedError
