"""Results recorded against the acceptance plan: a tool's log graded by the engine
(`parse_log`, `grade_clause`, `merge_logs` for the fleet) or a figure typed in, each
one attempt with its raw bytes and SHA-256, saved with its verdicts all or nothing.
A log the engine cannot read (unreadable, truncated, foreign) raises before anything
is written."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clusterbuy.access import Capability
from clusterbuy.services import ServiceError

from ..engine.acceptance import (
    ClauseSpec,
    LogFormatError,
    Measurement,
    ParsedLog,
    clauses_for_log,
    grade_clause,
    merge_logs,
    parse_log,
)
from ..models import (
    AcceptanceAttempt,
    AcceptanceClause,
    AcceptancePlan,
    AcceptanceVerdict,
    AuditAction,
)
from ..models.acceptance import MAX_LOG_BYTES, NODE_NAME_MAX_CHARS
from .acceptance import CLAUSE_FIELDS, assert_open, require
from .audit import record_audit


def spec_of(clause: AcceptanceClause) -> ClauseSpec:
    values = {k: getattr(clause, k) for k in CLAUSE_FIELDS}
    values["operation"] = clause.operation or None
    return ClauseSpec(**values)


def read_upload(upload) -> bytes:
    """At most MAX_LOG_BYTES + 1 bytes of an uploaded file (`record_result` refuses
    more), so a huge upload is never read whole."""
    return upload.read(MAX_LOG_BYTES + 1)


def _node_name(node: str) -> str:
    node = (node or "").strip()
    if len(node) > NODE_NAME_MAX_CHARS or any(ord(ch) < 32 for ch in node):
        raise ServiceError(
            _("A node name is one line of at most %(n)s characters.")
            % {"n": NODE_NAME_MAX_CHARS},
            field="node",
        )
    return node


def _next_number(plan: AcceptancePlan) -> int:
    AcceptancePlan.objects.select_for_update().filter(pk=plan.pk).first()
    last = plan.attempts.aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


@dataclass(frozen=True)
class RecordedResult:
    attempt: AcceptanceAttempt
    verdicts: list[AcceptanceVerdict]
    stragglers: list[str]


def _matched_clauses(
    plan: AcceptancePlan, log: ParsedLog, clause_key: str
) -> list[AcceptanceClause]:
    """The clauses ``log`` grades (narrowed to ``clause_key`` when given); refused
    when none does, when it fits several collectives and none was named, or when a
    per-node clause gets a log that does not say its host."""
    stored = {c.key: c for c in plan.clauses.all()}
    keys = [c.key for c in clauses_for_log([spec_of(c) for c in stored.values()], log)]
    clauses = [stored[key] for key in keys]
    if clause_key:
        clauses = [c for c in clauses if c.key == clause_key]
    if not clauses:
        raise ServiceError(
            _(
                "No test of the acceptance plan takes a %(tool)s log of this kind "
                "(%(operation)s)."
            )
            % {"tool": log.tool, "operation": log.operation or "—"},
            field="clause" if clause_key else "file",
        )
    if len({c.operation for c in clauses if c.operation}) > 1:
        raise ServiceError(
            _("This log fits several tests (%(keys)s): say which one it is.")
            % {"keys": ", ".join(c.key for c in clauses)},
            field="clause",
        )
    if not log.hosts and any(c.scope != "cluster" for c in clauses):
        raise ServiceError(
            _("This log does not name its host: give the node it was run on."),
            field="node",
        )
    return clauses


def record_result(
    *,
    plan: AcceptancePlan,
    user,
    data: bytes,
    filename: str = "",
    node: str = "",
    note: str = "",
    clause_key: str = "",
) -> RecordedResult:
    """A tool's log graded against the plan and stored with its hash: the attempt,
    its verdicts and stragglers, all or nothing. ServiceError (field "file") for a
    log the engine cannot read, one no clause of the plan takes, or one that is too
    large."""
    require(
        user,
        Capability.RECORD_ACCEPTANCE,
        _("Only the IT lead or an administrator can record acceptance results."),
    )
    assert_open(plan)
    node = _node_name(node)
    if not data:
        raise ServiceError(_("The file is empty."), field="file")
    if len(data) > MAX_LOG_BYTES:
        raise ServiceError(
            _("A log may be at most %(mb)s MB.") % {"mb": MAX_LOG_BYTES // 2**20},
            field="file",
        )
    try:
        log = parse_log(data, node=node or None)
    except LogFormatError as exc:
        raise ServiceError(
            _("This log cannot be graded: %(why)s") % {"why": str(exc)}, field="file"
        ) from exc
    clauses = _matched_clauses(plan, log, clause_key)
    grades = [(c, _grade(plan, c, log)) for c in clauses]
    with transaction.atomic():
        attempt = AcceptanceAttempt.objects.create(
            plan=plan,
            number=_next_number(plan),
            tool=log.tool,
            tool_version=(log.tool_version or "")[:60],
            operation=(log.operation or "")[:40],
            node=node,
            hosts=list(log.hosts),
            filename=filename[:200],
            log=data,
            sha256=hashlib.sha256(data).hexdigest(),
            size_bytes=len(data),
            failures=list(log.failures),
            skipped=list(log.skipped),
            stragglers=sorted({s for _c, g in grades for s in g.stragglers}),
            passed=all(g.passed for _c, g in grades),
            note=note,
            uploaded_by=user,
        )
        verdicts = AcceptanceVerdict.objects.bulk_create(
            [
                AcceptanceVerdict(
                    attempt=attempt,
                    clause=clause,
                    node=(v.node or node or "")[:NODE_NAME_MAX_CHARS],
                    measured=v.measured,
                    required=v.required,
                    unit=v.unit,
                    passed=v.passed,
                    reason=(v.reason or "")[:300],
                )
                for clause, grade in grades
                for v in grade.verdicts
            ]
        )
        _audit_attempt(plan, user, attempt)
    return RecordedResult(attempt, verdicts, list(attempt.stragglers))


def _grade(plan: AcceptancePlan, clause: AcceptanceClause, log: ParsedLog):
    """The clause graded on ``log``; a per-node (or per-NIC) clause over the fleet:
    the log merged with the latest stored figure of every other node (`merge_logs`),
    so stragglers are named against the fleet's median."""
    nodes = int(plan.inputs.get("nodes") or 1)
    if clause.scope == "cluster":
        return grade_clause(spec_of(clause), log, expected_hosts=nodes)
    return grade_clause(spec_of(clause), _fleet_log(plan, clause, log))


def _fleet_log(
    plan: AcceptancePlan, clause: AcceptanceClause, log: ParsedLog
) -> ParsedLog:
    """``log`` joined with, for every node (or NIC) it does not measure, the figure
    of the latest earlier attempt that measured it (re-parsed from its stored
    bytes). Keyed by the figure's node, not the attempt's: one attempt holds every
    node it was merged with, and one node has one attempt per NIC."""
    latest: dict[str, tuple[int, ParsedLog, Measurement]] = {}
    earlier = (
        plan.attempts.filter(tool=log.tool, verdicts__clause=clause)
        .distinct()
        .order_by("number")
    )
    for attempt in earlier:
        try:
            parsed = parse_log(bytes(attempt.log), node=attempt.node or None)
        except LogFormatError:
            continue
        for m in parsed.measurements:
            if m.metric == clause.metric and m.node:
                latest[m.node] = (attempt.number, parsed, m)
    here = {m.node for m in log.measurements if m.node}
    kept: dict[int, tuple[ParsedLog, list[Measurement]]] = {}
    for node, (number, parsed, m) in latest.items():
        if node not in here:
            kept.setdefault(number, (parsed, []))[1].append(m)
    if not kept:
        return log
    others = [
        replace(
            parsed,
            measurements=tuple(figures),
            hosts=tuple(h for h in parsed.hosts if any(h in m.node for m in figures)),
        )
        for parsed, figures in kept.values()
    ]
    return merge_logs([*others, log])


def meets(comparison: str, measured: float, required: float | None) -> bool:
    """A hand-recorded figure against its clause: ">=" a floor, "<=" a ceiling,
    "pass" 1 (passed) or 0."""
    if comparison == "pass":
        return measured >= 1
    if required is None:
        return True
    return measured >= required if comparison == ">=" else measured <= required


def record_measurement(
    *,
    plan: AcceptancePlan,
    user,
    clause_key: str,
    measured: float,
    node: str = "",
    note: str = "",
    evidence: bytes = b"",
    filename: str = "",
) -> RecordedResult:
    """A figure read by hand for a clause no tool log grades (workload, burn-in,
    service, safety), as one attempt; ``evidence`` (a report, a screenshot's text)
    is stored and hashed like a log."""
    require(
        user,
        Capability.RECORD_ACCEPTANCE,
        _("Only the IT lead or an administrator can record acceptance results."),
    )
    assert_open(plan)
    node = _node_name(node)
    clause = plan.clauses.filter(key=clause_key).first()
    if clause is None:
        raise ServiceError(_("No such clause."), field="clause")
    if not clause.hand_recorded:
        raise ServiceError(
            _("This clause is graded from the %(tool)s log: upload it.")
            % {"tool": clause.tool},
            field="clause",
        )
    if not math.isfinite(measured) or measured < 0:
        raise ServiceError(_("Give a measured value of 0 or more."), field="measured")
    if len(evidence) > MAX_LOG_BYTES:
        raise ServiceError(
            _("A log may be at most %(mb)s MB.") % {"mb": MAX_LOG_BYTES // 2**20},
            field="file",
        )
    passed = meets(clause.comparison, measured, clause.required)
    with transaction.atomic():
        attempt = AcceptanceAttempt.objects.create(
            plan=plan,
            number=_next_number(plan),
            tool=clause.tool,
            operation=clause.key[:40],
            node=node,
            hosts=[node] if node else [],
            filename=filename[:200],
            log=evidence,
            sha256=hashlib.sha256(evidence).hexdigest(),
            size_bytes=len(evidence),
            passed=passed,
            note=note,
            uploaded_by=user,
        )
        verdict = AcceptanceVerdict.objects.create(
            attempt=attempt,
            clause=clause,
            node=node,
            measured=measured,
            required=clause.required,
            unit=clause.unit,
            passed=passed,
            reason="recorded by hand",
        )
        _audit_attempt(plan, user, attempt)
    return RecordedResult(attempt, [verdict], [])


def _audit_attempt(plan: AcceptancePlan, user, attempt: AcceptanceAttempt) -> None:
    record_audit(
        procurement=plan.procurement,
        actor=user,
        action=AuditAction.ACCEPTANCE,
        target=f"attempt {attempt.number}",
        old=None,
        new={
            "tool": attempt.tool,
            "sha256": attempt.sha256,
            "passed": attempt.passed,
            "node": attempt.node,
        },
    )
