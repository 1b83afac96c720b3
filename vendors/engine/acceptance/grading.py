"""A clause graded against a parsed log: verdicts per node / NIC and stragglers.

Order of judgement: a log from another tool or collective, a failure in the log
(#wrong, FAILED residual, DCGM Fail/Warn), a skipped test, or a GPU / host count that
differs from the clause fails every verdict whatever the figures say. Then each
measured figure is compared with the clause's threshold.

Stragglers: with figures from two or more nodes (or NICs), one below
STRAGGLER_FRACTION x the fleet's median is named and its verdict fails even when it
clears the threshold: a node 10 % behind its identical peers is a defect to repair,
and a collective runs at the pace of its slowest member.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from .records import ClauseGrade, ClauseSpec, Measurement, ParsedLog, Verdict

STRAGGLER_FRACTION = 0.9


def merge_logs(logs: Sequence[ParsedLog]) -> ParsedLog:
    """One log from several of the same tool (one per node), to grade a clause over
    the fleet: hosts, figures, failures and skips are joined, prefixed by node."""
    if not logs:
        raise ValueError("merge_logs needs at least one log")
    tools = {log.tool for log in logs}
    if len(tools) > 1:
        raise ValueError(f"merge_logs got logs of several tools: {sorted(tools)}")

    def tagged(log: ParsedLog, items: tuple[str, ...]) -> list[str]:
        where = ",".join(log.hosts)
        return [f"{where}: {item}" if where else item for item in items]

    counts = {log.gpu_count for log in logs}
    ops = {log.operation for log in logs}
    return ParsedLog(
        tool=logs[0].tool,
        tool_version=logs[0].tool_version,
        operation=ops.pop() if len(ops) == 1 else None,
        hosts=tuple(dict.fromkeys(h for log in logs for h in log.hosts)),
        gpu_count=counts.pop() if len(counts) == 1 else None,
        measurements=tuple(m for log in logs for m in log.measurements),
        failures=tuple(f for log in logs for f in tagged(log, log.failures)),
        skipped=tuple(s for log in logs for s in tagged(log, log.skipped)),
    )


def _blockers(
    clause: ClauseSpec, log: ParsedLog, expected_hosts: int | None
) -> list[str]:
    found = []
    if log.tool != clause.tool:
        found.append(f"log is from {log.tool}, clause needs {clause.tool}")
    if clause.operation and log.operation and log.operation != clause.operation:
        found.append(f"log is {log.operation}, clause needs {clause.operation}")
    if clause.gpus and log.gpu_count is not None and log.gpu_count != clause.gpus:
        found.append(f"log shows {log.gpu_count} GPUs, clause needs {clause.gpus}")
    if expected_hosts and log.hosts and len(log.hosts) != expected_hosts:
        found.append(
            f"log shows {len(log.hosts)} host(s), clause needs {expected_hosts}"
        )
    found.extend(log.failures)
    found.extend(f"skipped: {s}" for s in log.skipped)
    return found


def _meets(clause: ClauseSpec, value: float) -> bool:
    if clause.required is None:
        return True
    if clause.comparison == "<=":
        return value <= clause.required
    return value >= clause.required


def _stragglers(figures: list[Measurement]) -> set[str]:
    named = [m for m in figures if m.node]
    if len({m.node for m in named}) < 2:
        return set()
    median = statistics.median(m.value for m in named)
    return {m.node for m in named if m.value < STRAGGLER_FRACTION * median}


def _verdict(
    clause: ClauseSpec, m: Measurement, blockers: list[str], slow: set[str]
) -> Verdict:
    if clause.comparison == "pass":
        passed = not blockers and m.value == 1.0
        reason = "; ".join(blockers) or ("pass" if passed else "not passed")
        return Verdict(clause.key, m.node, m.value, None, "", passed, reason)
    met = _meets(clause, m.value)
    reasons = list(blockers)
    if not met:
        reasons.append(
            f"{m.value:g} {clause.unit} {clause.comparison} {clause.required:g} not met"
        )
    if m.node in slow:
        reasons.append(f"straggler: below {STRAGGLER_FRACTION} x the fleet median")
    passed = met and not blockers and m.node not in slow
    reason = "; ".join(reasons) or (
        "no threshold set" if clause.required is None else "threshold met"
    )
    return Verdict(
        clause.key, m.node, m.value, clause.required, clause.unit, passed, reason
    )


def grade_clause(
    clause: ClauseSpec, log: ParsedLog, *, expected_hosts: int | None = None
) -> ClauseGrade:
    """Verdicts for one clause from one (possibly merged) log."""
    blockers = _blockers(clause, log, expected_hosts)
    figures = [m for m in log.measurements if m.metric == clause.metric]
    if clause.scope == "cluster" and len(figures) > 1:
        figures = [min(figures, key=lambda m: m.value)]
    if not figures:
        reason = "; ".join([*blockers, f"no {clause.metric} figure in the log"])
        verdict = Verdict(
            clause.key, None, None, clause.required, clause.unit, False, reason
        )
        return ClauseGrade(clause.key, False, (verdict,), ())
    ranked = clause.scope != "cluster" and clause.comparison == ">="
    slow = _stragglers(figures) if ranked else set()
    verdicts = tuple(_verdict(clause, m, blockers, slow) for m in figures)
    stragglers = tuple(sorted(slow))
    return ClauseGrade(
        clause.key, all(v.passed for v in verdicts), verdicts, stragglers
    )
