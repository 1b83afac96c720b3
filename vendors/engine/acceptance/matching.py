"""Which clauses of a plan a parsed log grades (acceptance_changes.md, request 1).

A log grades the clauses of its own tool whose metric it measured (a pass/fail
clause takes any log of its tool; a log that measured nothing - a sweep below the
plateau, a fio job that moved no data - still reaches its clauses, to fail them
rather than be refused). A collective clause names its operation: the log's, when
the log tells it (nccl-tests print the program, or the table shows it), must be the
same; a log that does not tell reaches every collective of its tool and the caller
asks which. Within one node or across the fabric is read from the hosts the log
shows (one host: the node clause; several: the fabric clause), or, without hosts,
from its GPU count against each clause's ``gpus``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .records import ClauseSpec, ParsedLog


def _takes(clause: ClauseSpec, log: ParsedLog, metrics: set[str]) -> bool:
    if clause.tool != log.tool:
        return False
    if metrics and clause.comparison != "pass" and clause.metric not in metrics:
        return False
    if clause.operation and log.operation and clause.operation != log.operation:
        return False
    return True


def _in_scope(clause: ClauseSpec, log: ParsedLog) -> bool:
    if not clause.operation:
        return True
    if log.hosts:
        return (clause.scope == "cluster") == (len(log.hosts) > 1)
    if log.gpu_count is not None and clause.gpus is not None:
        return clause.gpus == log.gpu_count
    return True


def clauses_for_log(
    clauses: Iterable[ClauseSpec], log: ParsedLog
) -> tuple[ClauseSpec, ...]:
    """The clauses ``log`` grades, in the plan's order (empty: none takes it)."""
    metrics = {m.metric for m in log.measurements}
    found = [c for c in clauses if _takes(c, log, metrics) and _in_scope(c, log)]
    return tuple(sorted(found, key=lambda c: c.order))
