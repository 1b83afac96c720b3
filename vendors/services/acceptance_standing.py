"""Where each clause of the acceptance plan stands: its latest verdict per node (a
rerun after a repair replaces the failed one; the history stays), and the nodes named
as stragglers."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import AcceptanceClause, AcceptancePlan, AcceptanceVerdict


@dataclass
class ClauseStanding:
    """Where a clause stands: its latest verdict per node (a rerun replaces the
    failed one), the status that follows, and every verdict it ever had."""

    clause: AcceptanceClause
    current: list[AcceptanceVerdict]
    history: list[AcceptanceVerdict]
    status: str  # "pending" | "passed" | "failed" | "incomplete"
    expected: int  # verdicts needed (nodes for a per-node clause)

    @property
    def measured(self) -> float | None:
        """The worst current figure (lowest of a floor, highest of a ceiling)."""
        values = [v.measured for v in self.current if v.measured is not None]
        if not values:
            return None
        return max(values) if self.clause.comparison == "<=" else min(values)


def _expected(clause: AcceptanceClause, inputs: dict) -> int:
    nodes = int(inputs.get("nodes") or 1)
    if clause.scope == "node":
        return nodes
    if clause.scope == "nic":
        return nodes * int(inputs.get("nics_per_node") or 1)
    return 1


def standings(plan: AcceptancePlan) -> list[ClauseStanding]:
    verdicts = list(
        AcceptanceVerdict.objects.filter(clause__plan=plan)
        .select_related("attempt")
        .order_by("attempt__number", "id")
    )
    by_clause: dict[int, list[AcceptanceVerdict]] = {}
    for verdict in verdicts:
        by_clause.setdefault(verdict.clause_id, []).append(verdict)
    out = []
    for clause in plan.clauses.all():
        history = by_clause.get(clause.pk, [])
        latest: dict[str, AcceptanceVerdict] = {}
        for verdict in history:
            latest[verdict.node] = verdict
        current = list(latest.values())
        expected = _expected(clause, plan.inputs)
        if not current:
            status = "pending"
        elif any(not v.passed for v in current):
            status = "failed"
        elif clause.scope in ("node", "nic") and len(current) < expected:
            status = "incomplete"
        else:
            status = "passed"
        out.append(ClauseStanding(clause, current, history, status, expected))
    return out


#: The 验收书's conclusion: 合格 (every clause passed), 不合格 (a clause failed),
#: 未完成 (none failed, some not tested or not on every node).
PASSED, FAILED, INCOMPLETE = "passed", "failed", "incomplete"


@dataclass(frozen=True)
class Conclusion:
    code: str  # PASSED | FAILED | INCOMPLETE
    failed: tuple[str, ...]  # clause keys, in the plan's order
    untested: tuple[str, ...]  # not tested, or not on every node yet

    @property
    def accepted(self) -> bool:
        return self.code == PASSED


def conclusion_of(rows: list[ClauseStanding]) -> Conclusion:
    """合格 only when every clause passed; any failed clause makes it 不合格, whatever
    else stands; otherwise clauses still untested leave it 未完成."""
    failed = tuple(r.clause.key for r in rows if r.status == "failed")
    untested = tuple(
        r.clause.key for r in rows if r.status in ("pending", "incomplete")
    )
    if failed:
        code = FAILED
    elif untested or not rows:
        code = INCOMPLETE
    else:
        code = PASSED
    return Conclusion(code, failed, untested)


def outstanding(plan: AcceptancePlan) -> list[ClauseStanding]:
    return [s for s in standings(plan) if s.status != "passed"]


def stragglers(plan: AcceptancePlan) -> list[str]:
    """Nodes the latest run of any clause named well below the fleet's median."""
    latest: dict[str, list[str]] = {}
    for attempt in plan.attempts.order_by("number"):
        key = f"{attempt.tool}:{attempt.operation}"
        latest[key] = list(attempt.stragglers)
    return sorted({node for nodes in latest.values() for node in nodes})
