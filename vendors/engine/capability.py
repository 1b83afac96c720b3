"""Compliance by what a bid delivers, not by how many GPUs it counts.

Pure engine: plain frozen dataclasses in, ``ComplianceItem`` out. No Django. The
figures come from the sizing engine (`sizing.services.delivered`, read through
`vendors/plan_facts.py`); this module only judges them.

``compute``: the share of the plan's need the bid delivers, per workload, the smallest
one counting —

* training: needed days / delivered days, where needed is the workload's target (or,
  without one, the plan's own days) and delivered is the engine's time for the bid's
  accelerator and GPU count at its default MFU;
* serving: delivered capacity at the latency targets / required load (concurrent
  requests and requests per second); a bid that misses the latency targets delivers 0;
* with no workload figure (no stored plan workloads), effective compute: GPUs x dense
  peak at the workload precision, offered / needed.

A share >= 1 passes, within ``tolerance`` below warns, further below fails, with both
figures in the item (PFLOPS needed and offered) and the days or capacity in the note.
So 256 x H20 (148 TFLOPS BF16 each) against 104 x H200 (989 each) offers 37.9 of 102.9
PFLOPS, and fails, although it has more GPUs.

``memory_fit``: fails when a workload does not fit in the bid's GPUs with any valid
layout; warns when it could not be sized.
"""

from __future__ import annotations

from dataclasses import dataclass

from .compliance import (
    BidOffer,
    ComplianceItem,
    ComplianceStatus,
    PlanNeeds,
    check_compliance,
    requirement_value,
)

__all__ = [
    "Capability",
    "WorkloadCapability",
    "check_capability_compliance",
    "compute_item",
    "memory_fit_item",
    "workload_share",
]


@dataclass(frozen=True)
class WorkloadCapability:
    """What the bid delivers for one planned workload; ``None`` = not computed."""

    name: str
    kind: str  # "training", "fine_tuning" or "inference"
    fits: bool | None = None
    training_days: float | None = None
    needed_days: float | None = None  # the target, else the plan's days
    plan_days: float | None = None
    tokens_per_second: float | None = None
    requests_per_second: float | None = None
    concurrent_requests: int | None = None
    required_requests_per_second: float | None = None
    required_concurrent_requests: int | None = None
    meets_latency: bool | None = None
    #: Why it could not be sized, in English and Chinese (the app words the sizing
    #: engine's code: `sizing.input_errors.delivered_error`).
    error: str = ""
    error_zh: str = ""

    @property
    def is_training(self) -> bool:
        return self.kind in ("training", "fine_tuning")


@dataclass(frozen=True)
class Capability:
    """The plan's need and the bid's offer in effective compute, and per workload."""

    plan_label: str  # "104 x NVIDIA H200 SXM 141GB"
    offer_label: str
    precision: str = "bf16"
    needed_pflops: float | None = None
    offered_pflops: float | None = None
    workloads: tuple[WorkloadCapability, ...] = ()


def workload_share(w: WorkloadCapability) -> float | None:
    """Delivered / needed for one workload (1 = exactly the need); None: unknown."""
    if w.is_training:
        if not w.training_days or not w.needed_days:
            return None
        # the days as the RFP states them ("at most", the one rounding rule)
        return requirement_value(w.needed_days, at_least=False) / w.training_days
    if w.meets_latency is None:
        return None
    if not w.meets_latency:
        return 0.0
    shares = [
        offered / needed
        for offered, needed in (
            (w.concurrent_requests, w.required_concurrent_requests),
            (w.requests_per_second, w.required_requests_per_second),
        )
        if needed and offered is not None
    ]
    return min(shares, default=1.0)


def _status(share: float, tolerance: float) -> ComplianceStatus:
    if share >= 1.0 - 1e-9:
        return ComplianceStatus.PASS
    if share >= 1.0 - tolerance - 1e-9:
        return ComplianceStatus.WARN
    return ComplianceStatus.FAIL


def _workload_notes(w: WorkloadCapability) -> tuple[str, str]:
    if w.error:
        return (
            f"{w.name}: not sized ({w.error}).",
            f"{w.name}：无法测算（{w.error_zh or w.error}）。",
        )
    if w.is_training and w.training_days is not None:
        plan = f" (plan {w.plan_days:.1f})" if w.plan_days else ""
        plan_zh = f"（方案 {w.plan_days:.1f} 天）" if w.plan_days else ""
        needed = f"{w.needed_days:.1f}" if w.needed_days else "?"
        return (
            f"{w.name}: training {w.training_days:.1f} days vs {needed} needed{plan}.",
            f"{w.name}：训练 {w.training_days:.1f} 天，需求 {needed} 天{plan_zh}。",
        )
    if not w.is_training and w.meets_latency is False:
        return (
            f"{w.name}: misses the latency targets even one request at a time.",
            f"{w.name}：即使单个请求也达不到时延目标。",
        )
    if not w.is_training and w.tokens_per_second is not None:
        need = w.required_concurrent_requests
        need_en = f" (need {need})" if need else ""
        need_zh = f"（需求 {need}）" if need else ""
        return (
            f"{w.name}: {w.tokens_per_second:,.0f} tokens/s, "
            f"{w.concurrent_requests} concurrent requests at the latency "
            f"targets{need_en}.",
            f"{w.name}：在时延目标内 {w.tokens_per_second:,.0f} tokens/s，"
            f"{w.concurrent_requests} 个并发请求{need_zh}。",
        )
    return "", ""


def _compute_notes(cap: Capability, share: float | None) -> tuple[str, str]:
    precision = cap.precision.upper()
    # needed as the RFP states it (the one rounding rule)
    needed = requirement_value(cap.needed_pflops or 0.0, at_least=True)
    en = [f"{cap.plan_label} = {needed:.1f} PFLOPS {precision} needed"]
    zh = [f"{cap.plan_label} = 需要 {needed:.1f} PFLOPS（{precision}）"]
    if cap.offered_pflops is not None:
        ratio = (
            f" ({cap.offered_pflops / cap.needed_pflops:.0%} of the plan)"
            if cap.needed_pflops
            else ""
        )
        ratio_zh = (
            f"（为方案的 {cap.offered_pflops / cap.needed_pflops:.0%}）"
            if cap.needed_pflops
            else ""
        )
        en.append(
            f"; {cap.offer_label} = {cap.offered_pflops:.1f} PFLOPS offered{ratio}."
        )
        zh.append(
            f"；{cap.offer_label} = 提供 {cap.offered_pflops:.1f} PFLOPS{ratio_zh}。"
        )
    else:
        en.append("; the offer's compute is unknown.")
        zh.append("；无法得知投标的算力。")
    for w in cap.workloads:
        note_en, note_zh = _workload_notes(w)
        if note_en:
            en.append(" " + note_en)
            zh.append(note_zh)
    if share is not None and share < 1.0:
        en.append(f" Delivers {share:.0%} of the need.")
        zh.append(f"交付能力为需求的 {share:.0%}。")
    return "".join(en), "".join(zh)


def compute_item(cap: Capability | None, *, tolerance: float = 0.10) -> ComplianceItem:
    """The ``compute`` item (see the module docstring)."""
    if cap is None or (cap.needed_pflops is None and not cap.workloads):
        return ComplianceItem(
            "compute",
            ComplianceStatus.WARN,
            None,
            None,
            "PFLOPS",
            "Compute not computed: the accelerator has no catalog figures.",
            "无法计算算力：该加速卡没有目录数据。",
        )
    shares = [s for s in (workload_share(w) for w in cap.workloads) if s is not None]
    share = min(shares) if shares else None
    if share is None and cap.needed_pflops and cap.offered_pflops is not None:
        needed = (
            requirement_value(cap.needed_pflops, at_least=True) or cap.needed_pflops
        )
        share = cap.offered_pflops / needed
    note, note_zh = _compute_notes(cap, share)
    status = ComplianceStatus.WARN if share is None else _status(share, tolerance)
    stated = cap.needed_pflops
    if stated is not None:
        stated = requirement_value(stated, at_least=True)  # as the RFP states it
    return ComplianceItem(
        "compute",
        status,
        stated,
        cap.offered_pflops,
        "PFLOPS",
        note,
        note_zh,
    )


def memory_fit_item(cap: Capability | None) -> ComplianceItem:
    """The ``memory_fit`` item: workloads that fit / workloads planned."""
    workloads = cap.workloads if cap else ()
    if not workloads:
        return ComplianceItem(
            "memory_fit",
            ComplianceStatus.WARN,
            None,
            None,
            "",
            "Memory fit not computed: no sized workloads.",
            "未计算显存容纳：没有可测算的工作负载。",
        )
    fitting = sum(1 for w in workloads if w.fits)
    failing = [w.name for w in workloads if w.fits is False]
    unknown = [w.name for w in workloads if w.fits is None]
    if failing:
        names = ", ".join(failing)
        status = ComplianceStatus.FAIL
        note = f"Does not fit in the offered GPUs with any valid layout: {names}."
        note_zh = f"在投标的 GPU 中找不到可容纳的并行布局：{names}。"
    elif unknown:
        names = ", ".join(unknown)
        status = ComplianceStatus.WARN
        note = f"Could not be sized on the offered GPUs: {names}."
        note_zh = f"无法在投标的 GPU 上测算：{names}。"
    else:
        status, note, note_zh = ComplianceStatus.PASS, "", ""
    return ComplianceItem(
        "memory_fit", status, len(workloads), fitting, "", note, note_zh
    )


def check_capability_compliance(
    needs: PlanNeeds,
    offer: BidOffer,
    capability: Capability | None,
    *,
    tolerance: float = 0.10,
) -> list[ComplianceItem]:
    """``compute`` and ``memory_fit`` first, then `check_compliance`'s items.

    Raises ``ComplianceInputError`` like `check_compliance`.
    """
    rest = check_compliance(needs, offer, tolerance=tolerance)
    fit = memory_fit_item(capability)
    return [
        compute_item(capability, tolerance=tolerance),
        fit,
        *[_memory_per_gpu_judged_by_fit(item, fit) for item in rest],
    ]


def _memory_per_gpu_judged_by_fit(
    item: ComplianceItem, fit: ComplianceItem
) -> ComplianceItem:
    """Memory per GPU is a means, not a need: the plan's figure is its own
    accelerator's capacity (141 GB for H200), so a 96 GB H20 "fails" it although every
    workload fits. When ``memory_fit`` passes, the item passes with that reason; the
    figure alone still judges when no workload could be sized (issue 24)."""
    if item.item != "vram_gb_per_gpu" or fit.status != ComplianceStatus.PASS:
        return item
    if item.status == ComplianceStatus.PASS:
        return item
    return ComplianceItem(
        item.item,
        ComplianceStatus.PASS,
        item.required,
        item.offered,
        item.unit,
        "Less memory per GPU than the plan's accelerator, but every planned "
        "workload fits in the offered GPUs.",
        "单卡显存低于方案所选加速卡，但所有规划的工作负载都能在投标的 GPU 中容纳。",
    )


def catalog_pflops(gpu_count: int | None, bf16_tflops: float | None) -> float | None:
    """Effective compute when no workload can be sized: GPUs x the catalogue's dense
    BF16 peak, in PFLOPS (None without a GPU count or a peak). 256 x H20 at 148
    TFLOPS = 37.888 PFLOPS."""
    if not gpu_count or not bf16_tflops:
        return None
    return gpu_count * bf16_tflops / 1000.0
