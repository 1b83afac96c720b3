"""``closed_ecosystem``: only proprietary cluster software, no Slurm/Kubernetes."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .findings import Fact, FactCode, Pitfall, PitfallCode, fact, pitfall
from .stack import names_a_scheduler, offered_stack
from .text import is_negated, snippet

_PROPRIETARY = re.compile(
    r"proprietary|in-house (?:scheduler|platform)|our own (?:scheduler|platform)"
    r"|only (?:supports?|runs? on|works? with) (?:our|its|the vendor's)"
    r"|exclusively on (?:our|its)"
    r"|自研(?:调度|平台|集群管理|管理平台)|专有|私有(?:调度|平台)|闭源"
    r"|(?:仅|只)(?:支持|能使用|能运行于|可使用|适配)(?:我方|我司|本公司|自有|自研)",
    re.IGNORECASE,
)
_OPEN_FRAMEWORKS = re.compile(
    r"pytorch|tensorflow|jax|deepspeed|megatron|vllm|sglang|tensorrt|nccl|colossal"
    r"|paddle|mindspore|huggingface|transformers",
    re.IGNORECASE,
)


def detect_closed_ecosystem(
    scheduler: str, frameworks: Sequence[str], proposal_text: str
) -> list[Pitfall]:
    """Flag a cluster run only by proprietary software.

    A proprietary scheduler with no Slurm/Kubernetes path locks the buyer into the
    vendor for operations, upgrades and every future expansion. Judged by the
    scheduler and by what the text says is (not) supported (``stack.offered_stack``):
    an open scheduler offered anywhere makes the bid open; "does not support Slurm or
    Kubernetes" and "仅支持我方平台" are proprietary signals, as are a named non-open
    scheduler and a framework list with no open framework.
    """
    offer = offered_stack(scheduler, frameworks, proposal_text)
    if offer.open_scheduler:
        return []
    signals: list[str] = []
    facts: list[Fact] = []
    if names_a_scheduler(scheduler):
        facts.append(fact(FactCode.SCHEDULER, name=scheduler.strip()))
    for match in _PROPRIETARY.finditer(proposal_text):
        if is_negated(proposal_text, match.start(), match.end()):
            continue  # "no proprietary lock-in", "并非闭源"
        signals.append(
            f"“{match.group(0)}”: {snippet(proposal_text, match.start(), match.end())}"
        )
    signals.extend(offer.refused)  # “Slurm or Kubernetes”: … does not support …
    offers_open_framework = any(_OPEN_FRAMEWORKS.search(name) for name in frameworks)
    if frameworks and not offers_open_framework:
        facts.append(fact(FactCode.FRAMEWORKS, names=tuple(frameworks)))
    if not signals and not facts:
        return []
    return [
        pitfall(
            PitfallCode.CLOSED_ECOSYSTEM,
            "Only proprietary cluster software is offered; no Slurm, Kubernetes or "
            "other open tooling.",
            "仅提供专有集群软件，未提供 Slurm、Kubernetes 或其他开源工具。",
            *signals,
            facts=tuple(facts),
        )
    ]
