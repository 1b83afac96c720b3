"""When no layout fits in memory: the cheapest changes that make one fit, each with what
it costs in time.

Each change is sized like the plan itself (layout search, HFU, goodput) so its figures
are comparable: full activation recompute keeps only each layer's input and recomputes
the rest, 2N + attention/3 more FLOPs per token (Korthikanti et al. 2022); a micro-batch
of one sequence keeps the fewest activations per micro-batch; 8-bit Adam states take
6 B instead of 12 B per parameter (fp32 master kept; Dettmers et al. 2022); more GPUs
split the model further. Sorted by GPU-hours, the cost of the run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .catalog import Accelerator
from .memory import GB, Layout
from .parallelism import Fabric, LayoutChoice
from .training import LayoutSearch, TrainingPlan, days_for, flops, grow_until_fits
from .workload import Workload

CHANGES = {
    "full_recompute": "recompute every layer in the backward pass (recompute=full)",
    "micro_batch_1": "one sequence per micro-batch (micro_batch=1)",
    "optimizer_8bit": "8-bit Adam optimizer states (optimizer=adam_8bit)",
    "more_gpus": "more GPUs, same recipe",
}


@dataclass(frozen=True)
class Remedy:
    change: str  # a key of CHANGES
    gpus: int
    layout: Layout
    per_gpu_gb: float
    days: float
    gpu_hours: float
    days_change_share: float  # against the plan as asked (negative: faster)
    gpu_hours_change_share: float
    step_time_change_share: float  # the layout model's step (compute + comm + bubble)

    def to_dict(self) -> dict:
        layout = self.layout
        return {
            "change": self.change,
            "description": CHANGES[self.change],
            "gpus": self.gpus,
            "tensor": layout.tensor,
            "context": layout.context,
            "pipeline": layout.pipeline,
            "data": layout.data,
            "expert": layout.expert,
            "zero_stage": layout.zero_stage,
            "schedule": layout.schedule,
            "per_gpu_gb": self.per_gpu_gb,
            "days": self.days,
            "gpu_hours": self.gpu_hours,
            "days_change_share": self.days_change_share,
            "gpu_hours_change_share": self.gpu_hours_change_share,
            "step_time_change_share": self.step_time_change_share,
        }


def _variants(w: Workload) -> list[tuple[str, Workload]]:
    out = []
    if w.recompute != "full":
        out.append(("full_recompute", replace(w, recompute="full")))
    if w.micro_batch > 1:
        out.append(("micro_batch_1", replace(w, micro_batch=1)))
    if w.optimizer in ("adam", "adamw"):
        out.append(("optimizer_8bit", replace(w, optimizer="adam_8bit")))
    return out


def fit_remedies(
    acc: Accelerator, fabric: Fabric, plan: TrainingPlan, w: Workload, per_node: int
) -> tuple[Remedy, ...]:
    """Nothing when a layout fits; else every single change that makes one fit."""
    if plan.choice.fits:
        return ()
    remedies = []
    for change, changed in _variants(w):
        choice = LayoutSearch(acc, fabric, changed).best(plan.gpus)
        if choice is not None and choice.fits:
            remedies.append(_remedy(change, acc, changed, plan, plan.gpus, choice))
    gpus, choice, _ = grow_until_fits(
        LayoutSearch(acc, fabric, w), plan.gpus, plan.choice, per_node
    )
    if choice is not None and choice.fits:
        remedies.append(_remedy("more_gpus", acc, w, plan, gpus, choice))
    return tuple(sorted(remedies, key=lambda r: (r.gpu_hours, r.days)))


def _remedy(
    change: str,
    acc: Accelerator,
    w: Workload,
    plan: TrainingPlan,
    gpus: int,
    choice: LayoutChoice,
) -> Remedy:
    model_flops, recompute_flops = flops(w)
    exposed = 0.0 if w.mfu is not None else choice.exposed_share
    days = days_for(acc, w, gpus, model_flops + recompute_flops) * (1.0 + exposed)
    gpu_hours = days * 24.0 * gpus
    return Remedy(
        change,
        gpus,
        choice.layout,
        choice.memory.total / GB,
        days,
        gpu_hours,
        days / plan.days - 1.0 if plan.days else 0.0,
        gpu_hours / plan.gpu_hours - 1.0 if plan.gpu_hours else 0.0,
        choice.step_s / plan.choice.step_s - 1.0 if plan.choice.step_s else 0.0,
    )
