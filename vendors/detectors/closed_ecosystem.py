"""``closed_ecosystem``: only proprietary cluster software, no Slurm/Kubernetes."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .findings import Pitfall, PitfallCode, pitfall
from .text import snippet

_OPEN = re.compile(
    r"slurm|kubernetes|\bk8s\b|\bk3s\b|openpbs|volcano|kubeflow|\bray\b|open[- ]source"
    r"|开源",
    re.IGNORECASE,
)
_PROPRIETARY = re.compile(
    r"proprietary|in-house (?:scheduler|platform)|our own (?:scheduler|platform)"
    r"|自研(?:调度|平台|集群管理|管理平台)|专有|私有(?:调度|平台)|闭源",
    re.IGNORECASE,
)
_NO_SCHEDULER = ("", "none", "n/a", "无", "-")
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
    vendor for operations, upgrades and every future expansion. Flagged when there is a
    proprietary signal (a non-open scheduler name, proprietary/自研 wording, or a
    framework list with no open framework) and nothing open is offered.
    """
    combined = " ".join((scheduler, " ".join(frameworks), proposal_text))
    if _OPEN.search(combined):
        return []
    signals: list[str] = []
    if scheduler.strip().lower() not in _NO_SCHEDULER:
        signals.append(f"scheduler: {scheduler.strip()}")
    for match in _PROPRIETARY.finditer(proposal_text):
        signals.append(
            f"“{match.group(0)}”: {snippet(proposal_text, match.start(), match.end())}"
        )
    offers_open_framework = any(_OPEN_FRAMEWORKS.search(name) for name in frameworks)
    if frameworks and not offers_open_framework:
        signals.append(f"frameworks: {', '.join(frameworks)}")
    if not signals:
        return []
    return [
        pitfall(
            PitfallCode.CLOSED_ECOSYSTEM,
            "Only proprietary cluster software is offered; no Slurm, Kubernetes or "
            "other open tooling.",
            "仅提供专有集群软件，未提供 Slurm、Kubernetes 或其他开源工具。",
            *signals,
        )
    ]
