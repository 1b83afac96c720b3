"""Training and fine-tuning: FLOPs, time, GPU count and the chosen parallel layout.

T = C / (N x dense peak x HFU) / goodput, with C the hardware FLOPs (model FLOPs plus
recompute) and HFU from ``efficiency`` (sizing-formulas section 7). Given a target in
days the GPU count is the smallest node multiple that meets it and fits in memory; given
a GPU count, the days follow. When no layout fits, the plan says so and lists the
cheapest changes that would (``remedies``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

from clusterbuy.engine.limits import MAX_GPU_COUNT

from .catalog import Accelerator, ServerPlatform
from .efficiency import Efficiency, goodput, scale_factor, training_efficiency
from .errors import SizingInputError
from .memory import Recipe
from .model import training_flops_per_token
from .parallelism import (
    Fabric,
    LayoutChoice,
    TrainingJob,
    candidate_layouts,
    search,
)
from .workload import Workload

MAX_DOUBLINGS = 12
MAX_COUNT_STEPS = 256
OVERRUN_MARGIN = 1.1


@dataclass(frozen=True)
class TrainingPlan:
    gpus: int
    total_flops: float
    model_flops: float
    recompute_flops: float
    peak_tflops: float
    mfu: float
    hfu: float
    mfu_overridden: bool
    efficiency: Efficiency
    goodput: float
    days: float
    gpu_hours: float
    choice: LayoutChoice
    memory_limited: bool  # GPU count raised above the time target to fit in memory
    remedies: tuple = ()  # Remedy records when no layout fits
    exposed_share: float = 0.0  # the layout's exposed communication + bubble / compute


def _peak(acc: Accelerator, w: Workload) -> float:
    peak = acc.peak_tflops(w.precision)
    if not peak:
        raise SizingInputError(
            f"{acc.name} has no published dense {w.precision} peak",
            field="workload.precision",
            code="no_published_peak",
            params={"accelerator": acc.name, "precision": w.precision},
        )
    return peak


@dataclass(frozen=True)
class TrainingRates:
    """One workload on one accelerator: its efficiency and days at any GPU count. The
    GPU-count-independent part is computed once."""

    acc: Accelerator
    workload: Workload

    @cached_property
    def peak_tflops(self) -> float:
        return _peak(self.acc, self.workload)

    @cached_property
    def steady(self) -> Efficiency:
        """The calibrated efficiency at one GPU, or the buyer's MFU turned into HFU."""
        w = self.workload
        calibrated = training_efficiency(
            self.acc,
            w.model,
            gpus=1,
            seq_len=w.seq_len,
            precision=w.precision,
            recompute=w.recompute,
            lora_fraction=w.lora_trainable_fraction,
            micro_batch=w.micro_batch,
        )
        if w.mfu is None:
            return calibrated
        model, extra = training_flops_per_token(
            w.model, w.seq_len, w.recompute, w.lora_trainable_fraction
        )
        return replace(calibrated, mfu=w.mfu, hfu=w.mfu * (model + extra) / model)

    def efficiency(self, gpus: int) -> Efficiency:
        steady = self.steady
        if self.workload.mfu is not None:
            return steady
        scale = scale_factor(gpus)
        return replace(
            steady, hfu=steady.hfu * scale, mfu=steady.mfu * scale, scale=scale
        )

    def days(self, gpus: int, total_flops: float) -> float:
        rate = gpus * self.peak_tflops * 1e12 * self.efficiency(gpus).hfu
        good = goodput(
            gpus, self.workload.checkpoint_stall_share, self.workload.restart
        )
        return total_flops / rate / good / 86400.0


def flops(w: Workload) -> tuple[float, float]:
    per_token, extra = training_flops_per_token(
        w.model, w.seq_len, w.recompute, w.lora_trainable_fraction
    )
    tokens = (w.tokens_b or 0.0) * 1e9
    return per_token * tokens, extra * tokens


def days_for(acc: Accelerator, w: Workload, gpus: int, total_flops: float) -> float:
    return TrainingRates(acc, w).days(gpus, total_flops)


def round_gpus(n: int, per_node: int) -> int:
    if n <= per_node:
        return 1 << max(0, math.ceil(math.log2(max(n, 1))))
    return math.ceil(n / per_node) * per_node


def next_gpus(n: int, per_node: int) -> int:
    return n * 2 if n < per_node else round_gpus(n * 2, per_node)


def gpus_for_days(rates: TrainingRates, total_flops: float, per_node: int) -> int:
    """Smallest node-rounded GPU count whose predicted days meet the target (monotone)."""
    target = rates.workload.target_days or 0.0
    lo, hi = 1, 1
    while rates.days(hi, total_flops) > target:
        hi *= 2
        if hi > MAX_GPU_COUNT:
            raise SizingInputError(
                "target cannot be met with up to a million GPUs",
                field="workload.target_days",
                code="target_unreachable",
                params={"max_gpus": MAX_GPU_COUNT, "target_days": target},
            )
    while lo < hi:
        mid = (lo + hi) // 2
        if rates.days(mid, total_flops) <= target:
            hi = mid
        else:
            lo = mid + 1
    gpus = round_gpus(lo, per_node)
    while rates.days(gpus, total_flops) > target:  # HFU at the rounded count
        gpus += per_node
    return gpus


@dataclass(frozen=True)
class LayoutSearch:
    """The parallel-layout search of one workload on one accelerator, at any GPU count."""

    acc: Accelerator
    fabric: Fabric
    workload: Workload

    @cached_property
    def rates(self) -> TrainingRates:
        return TrainingRates(self.acc, self.workload)

    @cached_property
    def recipe(self) -> Recipe:
        return recipe_of(self.workload)

    @cached_property
    def step_flops(self) -> float:
        w = self.workload
        model_flops, recompute_flops = flops(w)
        tokens = (w.tokens_b or 1.0) * 1e9
        return (model_flops + recompute_flops) / tokens * w.global_batch_tokens

    def best(self, gpus: int) -> LayoutChoice | None:
        return search(self.job(gpus))

    def divisible(self, gpus: int) -> bool:
        """Some layout divides this many GPUs under the global batch."""
        return next(candidate_layouts(self.job(gpus)), None) is not None

    def next_divisible(self, gpus: int, per_node: int) -> int:
        """The first node multiple from ``gpus`` that a layout divides (a count with
        too few factors of two leaves too many data ranks for the batch)."""
        for _ in range(MAX_COUNT_STEPS):
            if self.divisible(gpus):
                return gpus
            gpus += per_node
        return gpus

    def job(self, gpus: int) -> TrainingJob:
        rates = self.rates
        return TrainingJob(
            model=self.workload.model,
            gpus=gpus,
            fabric=self.fabric,
            memory_gb=self.acc.memory_gb,
            recipe=self.recipe,
            global_batch_tokens=self.workload.global_batch_tokens,
            step_flops=self.step_flops,
            gpu_flops=rates.peak_tflops * 1e12 * rates.efficiency(gpus).hfu,
        )


def recipe_of(w: Workload) -> Recipe:
    return Recipe(
        seq_len=w.seq_len,
        micro_batch=w.micro_batch,
        precision=w.precision,
        optimizer=w.optimizer,
        recompute=w.recompute,
        lora_fraction=w.lora_trainable_fraction,
        grad_accum_fp32=w.grad_accum_fp32,
        base_precision=w.base_precision,
        quant_scope=w.quant_scope_for(w.base_precision) if w.base_precision else "all",
    )


def grow_until_fits(
    layouts: LayoutSearch, gpus: int, choice: LayoutChoice | None, per_node: int
) -> tuple[int, LayoutChoice | None, bool]:
    """Raise the GPU count (at most 12 doublings) until some layout fits in memory.

    Returns the count, its best layout and whether the count was raised for memory.
    """
    memory_limited = False
    for _ in range(MAX_DOUBLINGS):
        if choice is not None and choice.fits:
            break
        larger = next_gpus(gpus, per_node)
        if larger > MAX_GPU_COUNT:
            break
        trial = layouts.best(larger)
        if trial is None:
            break
        gpus, choice, memory_limited = larger, trial, True
    return gpus, choice, memory_limited


def no_layout_error(w: Workload, gpus: int) -> SizingInputError:
    return SizingInputError(
        f"no tensor x pipeline x data layout divides {gpus} GPUs with a global batch of "
        f"{w.global_batch_tokens} tokens",
        field="workload.gpu_count" if w.gpu_count else "workload.global_batch_tokens",
        code="no_layout",
        params={"gpus": gpus, "global_batch_tokens": w.global_batch_tokens},
    )


def plan_training(
    acc: Accelerator, server: ServerPlatform, fabric: Fabric, w: Workload
) -> TrainingPlan:
    """GPUs, days and layout: the target days set the count unless the buyer gave one,
    and a count too small to fit in memory is raised."""
    model_flops, recompute_flops = flops(w)
    total_flops = model_flops + recompute_flops
    per_node = server.gpus_per_node
    layouts = LayoutSearch(acc, fabric, w)
    rates = layouts.rates
    if w.gpu_count is not None:
        gpus = w.gpu_count
    else:
        gpus = gpus_for_days(rates, total_flops, per_node)
    if w.gpu_count is None:
        gpus = layouts.next_divisible(gpus, per_node)
    choice = layouts.best(gpus)
    memory_limited = False
    if w.gpu_count is None:
        gpus, choice, memory_limited = grow_until_fits(layouts, gpus, choice, per_node)
    if choice is None:
        raise no_layout_error(w, gpus)
    if w.gpu_count is None:
        gpus, choice = meet_target_with_layout(layouts, gpus, choice, total_flops)
    # a buyer's MFU is end to end: the layout's exposed time is inside it
    exposed = 0.0 if w.mfu is not None else choice.exposed_share
    days = rates.days(gpus, total_flops) * (1.0 + exposed)
    efficiency = rates.efficiency(gpus)
    return TrainingPlan(
        gpus=gpus,
        total_flops=total_flops,
        model_flops=model_flops,
        recompute_flops=recompute_flops,
        peak_tflops=rates.peak_tflops,
        mfu=efficiency.mfu,
        hfu=efficiency.hfu,
        mfu_overridden=w.mfu is not None,
        efficiency=efficiency,
        goodput=goodput(gpus, w.checkpoint_stall_share, w.restart),
        days=days,
        gpu_hours=days * 24.0 * gpus,
        choice=choice,
        memory_limited=memory_limited,
        exposed_share=exposed,
    )


def meet_target_with_layout(
    layouts: LayoutSearch, gpus: int, choice: LayoutChoice, total_flops: float
) -> tuple[int, LayoutChoice]:
    """The count met the target on compute alone; the chosen layout's exposed
    communication and bubble lengthen the step, so add nodes -- the count x the
    overrun x 1.1 (a wider layout exposes a little more), at most 8 rounds -- until the
    target holds with them."""
    target = layouts.workload.target_days or 0.0
    per_node = layouts.fabric.gpus_per_node
    rates = layouts.rates
    for _ in range(8):
        days = rates.days(gpus, total_flops) * (1.0 + choice.exposed_share)
        if days <= target or gpus >= MAX_GPU_COUNT:
            break
        growth = min(days / target * OVERRUN_MARGIN, 2.0)
        larger = round_gpus(math.ceil(gpus * growth), per_node)
        larger = layouts.next_divisible(max(larger, gpus + per_node), per_node)
        trial = layouts.best(larger)
        if trial is None or not trial.fits:
            break
        gpus, choice = larger, trial
    return gpus, choice
