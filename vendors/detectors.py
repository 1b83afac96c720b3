"""Pitfall detectors for vendor bids: four common ways a GPU-cluster bid misleads a buyer.

Pure engine, no Django. Each detector is a function over plain values returning a list
of ``Pitfall`` (empty = nothing found); one Pitfall per finding, each with a sentence in
English and Chinese and the evidence (matched phrases, numbers) behind it.

* ``gpu_only``          - the bid prices GPU servers and skimps on what makes them a
  cluster (network, storage, software), or offers less than the sizing plan needs.
* ``over_promising``    - absolute promises without evidence, a training time shorter
  than physics allows, or a PUE below what the cooling type achieves.
* ``template_proposal`` - boilerplate that ignores this procurement, or a near-copy of
  another bid's text.
* ``closed_ecosystem``  - only proprietary cluster software, no Slurm/Kubernetes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from vendors.compliance import PlanNeeds

__all__ = [
    "BidFacts",
    "EVIDENCE_KINDS",
    "LineItemFacts",
    "Pitfall",
    "PitfallCode",
    "ProcurementFacts",
    "detect_all",
    "detect_closed_ecosystem",
    "detect_gpu_only",
    "detect_over_promising",
    "detect_template_proposal",
    "text_similarity",
]

EVIDENCE_KINDS = ("measured_case_study", "site_visit", "demo")
WORKLOAD_KINDS = ("training", "inference", "fine_tuning")


class PitfallCode(StrEnum):
    GPU_ONLY = "gpu_only"
    OVER_PROMISING = "over_promising"
    TEMPLATE_PROPOSAL = "template_proposal"
    CLOSED_ECOSYSTEM = "closed_ecosystem"


@dataclass(frozen=True)
class Pitfall:
    code: PitfallCode
    reason_en: str
    reason_zh: str
    evidence: tuple[str, ...] = ()

    def reason(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("zh", "zh-hans", ... give Chinese; else English)."""
        return self.reason_zh if lang.lower().startswith("zh") else self.reason_en


@dataclass(frozen=True)
class LineItemFacts:
    category: str  # gpu_servers, network, storage, software, installation, ...
    amount_cny: Decimal
    recurring: bool = False


@dataclass(frozen=True)
class BidFacts:
    line_items: tuple[LineItemFacts, ...] = ()
    network_gbps_per_gpu: float | None = None
    storage_tb: float | None = None
    storage_read_gbs: float | None = None
    proposal_text: str = ""
    evidence_kinds: frozenset[str] = frozenset()  # subset of EVIDENCE_KINDS
    promised_training_days: float | None = None
    scheduler: str = ""
    frameworks: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProcurementFacts:
    workload_kind: str = ""  # one of WORKLOAD_KINDS, or "" if unknown
    model_names: tuple[str, ...] = ()
    model_params_b: float | None = None  # billions of parameters
    data_tb: float | None = None
    location: str = ""  # city or site name
    needs: PlanNeeds | None = None
    training_days_lower_bound: float | None = None  # from the sizing engine


def _pitfall(code: PitfallCode, en: str, zh: str, *evidence: str) -> Pitfall:
    return Pitfall(code, en, zh, tuple(evidence))


def _snippet(text: str, start: int, end: int, width: int = 25) -> str:
    left = max(0, start - width)
    right = min(len(text), end + width)
    return " ".join(text[left:right].split())


def _round2(value: float) -> str:
    """A figure for a reason text: at most two decimals, no trailing zeros."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


# --- gpu_only ------------------------------------------------------------------------

_SUPPORTING = {"network": "网络", "storage": "存储", "software": "软件"}


def detect_gpu_only(
    line_items: Sequence[LineItemFacts],
    *,
    network_gbps_per_gpu: float | None = None,
    storage_tb: float | None = None,
    storage_read_gbs: float | None = None,
    needs: PlanNeeds | None = None,
    gpu_share_limit: float = 0.90,
) -> list[Pitfall]:
    """Flag a bid that is a pile of GPU servers rather than a working cluster.

    Findings: a network, storage or software category with no priced line; otherwise
    GPU servers above ``gpu_share_limit`` of the one-off hardware cost (token network
    and storage lines; a heuristic, tune per market); and offered network/storage
    below the plan's needs. A training cluster needs one 400 Gb/s NIC per GPU and
    >= 1 GB/s per GPU storage read (hardware-facts.md section 6, items 8 and 10),
    which is why these lines matter.
    """
    code = PitfallCode.GPU_ONLY
    totals: dict[str, Decimal] = {}
    for li in line_items:
        totals[li.category] = totals.get(li.category, Decimal(0)) + li.amount_cny
    has_gpu = totals.get("gpu_servers", Decimal(0)) > 0
    found: list[Pitfall] = []
    for cat, zh in _SUPPORTING.items():
        if has_gpu and totals.get(cat, Decimal(0)) <= 0:
            found.append(
                _pitfall(
                    code,
                    f"GPU servers are priced but there is no {cat} line item.",
                    f"报价包含 GPU 服务器，但没有{zh}分项。",
                    f"{cat}: 0 CNY",
                )
            )
    hardware = sum(
        (
            li.amount_cny
            for li in line_items
            if li.category in ("gpu_servers", "network", "storage") and not li.recurring
        ),
        Decimal(0),
    )
    one_off_gpu = sum(
        (
            li.amount_cny
            for li in line_items
            if li.category == "gpu_servers" and not li.recurring
        ),
        Decimal(0),
    )
    share = float(one_off_gpu / hardware) if hardware > 0 else 0.0
    if not found and share > gpu_share_limit:
        found.append(
            _pitfall(
                code,
                f"GPU servers are {share:.0%} of the hardware cost; network and storage "
                "look under-provisioned for a cluster.",
                f"GPU 服务器占硬件成本的 {share:.0%}，网络和存储配置可能不足。",
                f"gpu_servers share of hardware: {share:.3f}",
            )
        )
    if needs is None:
        return found
    shortfalls = (
        ("network_gbps_per_gpu", "Gb/s per GPU network", "每 GPU 网络带宽 (Gb/s)",
         network_gbps_per_gpu, needs.network_gbps_per_gpu),
        ("storage_tb", "TB storage capacity", "存储容量 (TB)",
         storage_tb, needs.storage_tb),
        ("storage_read_gbs", "GB/s storage read throughput", "存储读带宽 (GB/s)",
         storage_read_gbs, needs.storage_read_gbs),
    )  # fmt: skip
    for name, label_en, label_zh, offered, needed in shortfalls:
        if needed > 0 and (offered is None or offered < needed):
            shown = "not stated" if offered is None else _round2(offered)
            shown_zh = "未说明" if offered is None else _round2(offered)
            needed_text = _round2(needed)
            found.append(
                _pitfall(
                    code,
                    f"Offers {shown} {label_en}; the sizing plan needs {needed_text}.",
                    f"{label_zh}：报价 {shown_zh}，方案需要 {needed_text}。",
                    f"{name}: offered {shown}, needed {needed_text}",
                )
            )
    return found


# --- over_promising ------------------------------------------------------------------

_ABSOLUTE_EN = re.compile(
    r"(?<!bank )(?<!bid )(?<!performance )(?<!tender )"
    r"\b(?:guarantee[sd]?|guaranteeing|zero[- ]downtime|no downtime|never fails?"
    r"|zero (?:failures?|faults?|risk)|risk[- ]free|no problem)\b"
    r"|(?<![\d.])100\s?%",
    re.IGNORECASE,
)
_ABSOLUTE_ZH = re.compile(
    r"没问题|包在我们身上|(?<!质量)保证(?![金期])|绝对(?!值)|零故障|零宕机|零停机|零风险"
    r"|百分之百|万无一失"
)
_NEGATION_EN = re.compile(
    r"\b(?:not|no|never|cannot|can't|don't|doesn't|won't|unable to)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_NEGATION_ZH = re.compile(r"(?:不|无法|不能|未|难以)$")
_PUE = re.compile(
    r"PUE\s*值?\s*(<|≤|<=|低于|小于|不高于|不超过|below|under|of|=|:|：|为|约)?\s*"
    r"(\d(?:\.\d+)?)",
    re.IGNORECASE,
)
_BELOW = ("<", "≤", "<=", "低于", "小于", "不高于", "不超过", "below", "under")
_PUE_FLOOR = 1.10


def _absolute_promises(text: str) -> list[str]:
    phrases: list[str] = []
    for pattern, negation in (
        (_ABSOLUTE_EN, _NEGATION_EN),
        (_ABSOLUTE_ZH, _NEGATION_ZH),
    ):
        for m in pattern.finditer(text):
            if negation.search(text[max(0, m.start() - 30) : m.start()]):
                continue
            phrases.append(f"“{m.group(0)}”: {_snippet(text, m.start(), m.end())}")
    return phrases


def detect_over_promising(
    proposal_text: str,
    *,
    evidence_kinds: frozenset[str] = frozenset(),
    promised_training_days: float | None = None,
    training_days_lower_bound: float | None = None,
) -> list[Pitfall]:
    """Flag promises a vendor cannot back.

    Absolute wording ("guarantee", "100%", 保证, 零故障...) is only flagged when the bid
    offers no evidence (a case study with a measured outcome, a site visit or a demo).
    A promised training time below the sizing engine's physical lower bound is flagged
    regardless: evidence cannot beat arithmetic. A PUE below 1.10 is flagged without
    evidence: cold-plate liquid cooling typically reaches 1.15-1.25 and only fully
    liquid/immersion sites approach 1.04 (hardware-facts.md section 5; Uptime Institute).
    """
    code = PitfallCode.OVER_PROMISING
    found: list[Pitfall] = []
    has_evidence = bool(set(evidence_kinds) & set(EVIDENCE_KINDS))
    if not has_evidence:
        phrases = _absolute_promises(proposal_text)
        if phrases:
            found.append(
                _pitfall(
                    code,
                    "Absolute promises without evidence (no measured case study, "
                    "site visit or demo).",
                    "使用了绝对化承诺，但没有提供实测案例、现场考察或演示等证据。",
                    *phrases,
                )
            )
        for m in _PUE.finditer(proposal_text):
            pue = float(m.group(2))
            below = (m.group(1) or "").lower() in _BELOW
            if 1.0 <= pue < _PUE_FLOOR or (below and 1.0 <= pue <= _PUE_FLOOR):
                claim = f"below {pue:g}" if below else f"{pue:g}"
                claim_zh = f"低于 {pue:g}" if below else f"{pue:g}"
                found.append(
                    _pitfall(
                        code,
                        f"Claims PUE {claim}; cold-plate liquid cooling typically "
                        "achieves 1.15-1.25, and no measured evidence is given.",
                        f"声称 PUE {claim_zh}；冷板液冷通常为 1.15-1.25，且未提供实测证据。",
                        _snippet(proposal_text, m.start(), m.end()),
                    )
                )
    if (
        promised_training_days is not None
        and training_days_lower_bound is not None
        and promised_training_days < training_days_lower_bound
    ):
        found.append(
            _pitfall(
                code,
                f"Promises training in {promised_training_days:g} days; the physical "
                f"lower bound for this configuration is {training_days_lower_bound:.1f} "
                "days.",
                f"承诺 {promised_training_days:g} 天完成训练；该配置的物理下限为 "
                f"{training_days_lower_bound:.1f} 天。",
                f"promised_training_days: {promised_training_days:g}",
                f"training_days_lower_bound: {training_days_lower_bound:.2f}",
            )
        )
    return found


# --- template_proposal ---------------------------------------------------------------

_KIND_WORDS = {
    "training": re.compile(r"\b(?:pre-?)?train|训练", re.IGNORECASE),
    "inference": re.compile(r"inferenc|serving|推理", re.IGNORECASE),
    "fine_tuning": re.compile(r"fine[- ]?tun|\bSFT\b|LoRA|微调", re.IGNORECASE),
}
_PARAMS = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*"
    r"(?:(b|billion)(?![A-Za-z/])|(t|trillion)(?![A-Za-z])|(万亿)|(亿)(?!元|人民币))",
    re.IGNORECASE,
)
_DATA = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*(TB|PB|TiB|PiB)(?![A-Za-z])", re.IGNORECASE
)
_ON_PREM = re.compile(r"on[- ]prem|本地|机房|本地化部署|私有化部署", re.IGNORECASE)
_NON_TEXT = re.compile(r"[\W_]+", re.UNICODE)


def _close(a: float, b: float, rel: float = 0.05) -> bool:
    return math.isclose(a, b, rel_tol=rel)


def _param_counts_b(text: str) -> list[float]:
    counts = []
    for m in _PARAMS.finditer(text):
        value = float(m.group(1))
        if m.group(3):
            value *= 1000
        elif m.group(4):
            value *= 10000
        elif m.group(5):
            value /= 10
        counts.append(value)
    return counts


def _data_tbs(text: str) -> list[float]:
    per_unit = {"tb": 1.0, "tib": 1.0995, "pb": 1000.0, "pib": 1125.9}
    return [
        float(m.group(1)) * per_unit[m.group(2).lower()] for m in _DATA.finditer(text)
    ]


def _shingles(text: str, n: int) -> set[str]:
    compact = _NON_TEXT.sub("", text.lower())
    return {compact[i : i + n] for i in range(len(compact) - n + 1)}


def text_similarity(a: str, b: str, *, n: int = 4) -> float:
    """Jaccard similarity of character n-gram shingles of two texts (0-1).

    Characters, not words, so it works on Chinese without word segmentation; case,
    whitespace and punctuation are ignored so reflowing a copied text does not hide it.
    """
    sa, sb = _shingles(a, n), _shingles(b, n)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def detect_template_proposal(
    proposal_text: str,
    *,
    workload_kind: str = "",
    model_names: Sequence[str] = (),
    model_params_b: float | None = None,
    data_tb: float | None = None,
    location: str = "",
    other_texts: Sequence[str] = (),
    min_addressed_share: float = 0.5,
    similarity_limit: float = 0.7,
    min_shingles: int = 30,
) -> list[Pitfall]:
    """Flag boilerplate: fewer than ``min_addressed_share`` of this procurement's
    specifics mentioned (workload kind, model, data volume, location), or character
    4-gram Jaccard similarity above ``similarity_limit`` with another bid's text.

    A specific the procurement does not state is not held against the bid. Model scale
    counts as addressed when a model name or the parameter count (70B, 700亿, 0.4T)
    appears within 5 %; data volume when a TB/PB figure within 5 % appears.
    """
    code = PitfallCode.TEMPLATE_PROPOSAL
    text = proposal_text
    lowered = text.lower()
    checks: list[tuple[str, str, bool]] = []
    if workload_kind in _KIND_WORDS:
        checks.append(
            ("workload", "工作负载类型", bool(_KIND_WORDS[workload_kind].search(text)))
        )
    if model_names or model_params_b:
        named = any(n.lower() in lowered for n in model_names if n)
        scaled = model_params_b is not None and any(
            _close(v, model_params_b) for v in _param_counts_b(text)
        )
        checks.append(("model scale", "模型规模", named or scaled))
    if data_tb:
        checks.append(
            ("data volume", "数据量", any(_close(v, data_tb) for v in _data_tbs(text)))
        )
    if location:
        here = location.lower() in lowered or bool(_ON_PREM.search(text))
        checks.append(("location", "部署地点", here))
    found: list[Pitfall] = []
    missing = [(en, zh) for en, zh, ok in checks if not ok]
    if checks and (len(checks) - len(missing)) / len(checks) < min_addressed_share:
        en_list = ", ".join(en for en, _ in missing)
        zh_list = "、".join(zh for _, zh in missing)
        found.append(
            _pitfall(
                code,
                f"The proposal does not address this procurement's {en_list}.",
                f"方案未涉及本次采购的{zh_list}。",
                *(f"missing: {en}" for en, _ in missing),
            )
        )
    if len(_shingles(text, 4)) >= min_shingles:
        for index, other in enumerate(other_texts, start=1):
            if len(_shingles(other, 4)) < min_shingles:
                continue
            similarity = text_similarity(text, other)
            if similarity > similarity_limit:
                found.append(
                    _pitfall(
                        code,
                        f"The proposal text is {similarity:.0%} identical to another "
                        f"bid's (other bid {index}).",
                        f"方案文本与另一份投标（第 {index} 份）的相似度为 {similarity:.0%}。",
                        f"other bid {index}: jaccard {similarity:.3f}",
                    )
                )
    return found


# --- closed_ecosystem ----------------------------------------------------------------

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
    for m in _PROPRIETARY.finditer(proposal_text):
        signals.append(f"“{m.group(0)}”: {_snippet(proposal_text, m.start(), m.end())}")
    if frameworks and not any(_OPEN_FRAMEWORKS.search(f) for f in frameworks):
        signals.append(f"frameworks: {', '.join(frameworks)}")
    if not signals:
        return []
    return [
        _pitfall(
            PitfallCode.CLOSED_ECOSYSTEM,
            "Only proprietary cluster software is offered; no Slurm, Kubernetes or "
            "other open tooling.",
            "仅提供专有集群软件，未提供 Slurm、Kubernetes 或其他开源工具。",
            *signals,
        )
    ]


def detect_all(
    bid: BidFacts, context: ProcurementFacts, others: Sequence[str]
) -> list[Pitfall]:
    """Run the four detectors; results in detector order."""
    return [
        *detect_gpu_only(
            bid.line_items,
            network_gbps_per_gpu=bid.network_gbps_per_gpu,
            storage_tb=bid.storage_tb,
            storage_read_gbs=bid.storage_read_gbs,
            needs=context.needs,
        ),
        *detect_over_promising(
            bid.proposal_text,
            evidence_kinds=bid.evidence_kinds,
            promised_training_days=bid.promised_training_days,
            training_days_lower_bound=context.training_days_lower_bound,
        ),
        *detect_template_proposal(
            bid.proposal_text,
            workload_kind=context.workload_kind,
            model_names=context.model_names,
            model_params_b=context.model_params_b,
            data_tb=context.data_tb,
            location=context.location,
            other_texts=others,
        ),
        *detect_closed_ecosystem(bid.scheduler, bid.frameworks, bid.proposal_text),
    ]
