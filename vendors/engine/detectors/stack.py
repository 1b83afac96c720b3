"""The open cluster software a bid offers: an open scheduler or orchestrator (Slurm,
Kubernetes, Volcano, Ray...) and open operations tooling (Prometheus, Grafana, DCGM,
OpenMPI/NCCL tests...), from its scheduler field, its framework list and what its
proposal text says is, or is not, supported.

Two detectors read it: ``gpu_only`` counts an open stack as the bid's software even
with no paid licence line, and ``closed_ecosystem`` calls a bid open only when it
offers an open scheduler; "does not support Slurm or Kubernetes" names Slurm and
offers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .text import (
    clause_after,
    clause_before,
    is_hedged,
    is_negated,
    is_preceded_by,
    snippet,
)

_SCHEDULER = (
    r"\bslurm\b|kubernetes|\bk8s\b|\bk3s\b|openpbs|htcondor|volcano|kubeflow|yunikorn"
    r"|\bkueue\b|openshift|rancher|(?<![\w-])ray\b(?!-)"
    r"|open[- ]source (?:scheduler|orchestrat\w*|cluster manage\w*|workload manager)"
    r"|开源(?:的)?(?:调度|编排|集群管理)"
)
_TOOLING = (
    r"prometheus|grafana|\bdcgm\b|open ?mpi|\bnccl(?:[- ]tests)?\b|\bucx\b|pyxis"
    r"|enroot|apptainer|singularity|\bhelm\b|\bloki\b|alertmanager"
)
_ITEM = rf"(?:{_SCHEDULER}|{_TOOLING})"
_SEPARATOR = r"\s*(?:,|，|、|/|&|\band\b|\bor\b|\bplus\b|和|与|及|或|以及|或者)\s*"
# A list is judged as one: "does not support Slurm, Kubernetes or Ray" refuses all
# three, "Slurm 和 Kubernetes 均支持" offers both.
_MENTION = re.compile(rf"{_ITEM}(?:{_SEPARATOR}{_ITEM})*", re.IGNORECASE)
_SCHEDULER_RE = re.compile(_SCHEDULER, re.IGNORECASE)
_TOOLING_RE = re.compile(_TOOLING, re.IGNORECASE)
# A tool named as what the offer replaces, is compared with or will support one day
# is not offered: "instead of Slurm", "比 Slurm 快", "将来支持 Kubernetes".
_NOT_AN_OFFER = re.compile(
    r"\b(?:instead of|rather than|replac\w*|than|compared (?:with|to)|unlike"
    r"|migrat\w*(?: \w+)? from|roadmap|in (?:the )?future|plan(?:s|ned)? to"
    r"|later release)\b|取代|替代|替换|而非|而不是|相比|相较|优于|比\s*$|无需|不再|迁移"
    r"|计划|后续|未来|将来|规划",
    re.IGNORECASE,
)
_NOT_YET = re.compile(
    r"\b(?:roadmap|in (?:the )?future|later release|planned|coming soon)\b"
    r"|计划|后续|未来|将来|规划|即将",
    re.IGNORECASE,
)
# "does not support Slurm" is a platform that cannot run it; "we do not provide
# Slurm" leaves the choice to the buyer, which locks nothing in.
_SUPPORT = re.compile(
    r"support|compatib|work with|run|integrat|支持|兼容|适配|对接|运行", re.IGNORECASE
)
# "兼容 Slurm 作业脚本", "compatible with Slurm job scripts": a platform that accepts
# the other tool's script format is that platform, not the tool (issue 24).
_COMPATIBLE = re.compile(r"兼容|compatib|类\s*$|like\s*$|-style\s*$|风格", re.I)
_EMULATED_OBJECT = re.compile(
    r"^\s*(?:的)?\s*(?:原生|标准)?\s*(?:作业)?(?:脚本|命令|指令|语法|格式|接口|API|习惯|风格"
    r"|提交方式|用法)|^\s*(?:job )?(?:scripts?|commands?|syntax|format|interface|api"
    r"|conventions?|style)\b|^\s*-?\s*(?:compatible|style|like)\b",
    re.I,
)


def _emulated(text: str, start: int, end: int) -> bool:
    """A mention that names the tool's scripts or commands as what the platform is
    compatible with: the tool is emulated, not offered."""
    return bool(_EMULATED_OBJECT.search(text[end : end + 16])) and bool(
        _COMPATIBLE.search(clause_before(text, start))
        or _COMPATIBLE.search(text[end : end + 16])
    )


_UNKNOWN_SCHEDULER = ("", "none", "n/a", "无", "-", "other", "unknown")


@dataclass(frozen=True)
class StackOffer:
    """``schedulers``/``tooling``: the open software offered, as named; ``refused``:
    each open scheduler the text says the offer does not support (or run, or work
    with), with the text around it."""

    schedulers: tuple[str, ...] = ()
    tooling: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    @property
    def open_scheduler(self) -> bool:
        return bool(self.schedulers)

    @property
    def any_open(self) -> bool:
        return bool(self.schedulers or self.tooling)


def offered_stack(
    scheduler: str, frameworks: Sequence[str], proposal_text: str
) -> StackOffer:
    """The open software the bid offers: its scheduler field and framework names as
    given; each open name in the text unless negated, hedged or not an offer."""
    schedulers: list[str] = []
    tooling: list[str] = []
    for name in (scheduler, *frameworks):
        schedulers += [m.group(0) for m in _SCHEDULER_RE.finditer(name)]
        tooling += [m.group(0) for m in _TOOLING_RE.finditer(name)]
    refused: list[str] = []
    for mention in _MENTION.finditer(proposal_text):
        start, end = mention.start(), mention.end()
        if is_negated(proposal_text, start, end):
            if _SCHEDULER_RE.search(mention.group(0)) and _SUPPORT.search(
                clause_before(proposal_text, start) + clause_after(proposal_text, end)
            ):
                refused.append(
                    f"“{mention.group(0)}”: {snippet(proposal_text, start, end)}"
                )
            continue
        if (
            is_hedged(proposal_text, start)
            or is_preceded_by(proposal_text, start, _NOT_AN_OFFER)
            or _NOT_YET.search(clause_after(proposal_text, end))
            or _emulated(proposal_text, start, end)
        ):
            continue
        schedulers += [m.group(0) for m in _SCHEDULER_RE.finditer(mention.group(0))]
        tooling += [m.group(0) for m in _TOOLING_RE.finditer(mention.group(0))]
    return StackOffer(tuple(schedulers), tuple(tooling), tuple(refused))


def names_a_scheduler(scheduler: str) -> bool:
    """Whether the scheduler field names one (not blank, "other" or "none")."""
    return scheduler.strip().lower() not in _UNKNOWN_SCHEDULER
