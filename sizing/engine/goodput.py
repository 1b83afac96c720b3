"""Goodput: the share of a training run's wall-clock time spent on steps that count.

Each interruption costs the restart (detect, reschedule, re-initialise the collectives,
load the checkpoint) and the work since the last checkpoint, on average half the
checkpoint interval (Huawei MindCluster, "Resumable training: performance
description": T = T0 + T1 + T2 + T3 + T4 with the rollback T0 = checkpoint period / 2).
With failures at a rate lambda per GPU-hour on N GPUs, a restart of R hours and a
checkpoint every tau hours, and the checkpoint writes stalling a share s of the steps:

    goodput = (1 - s) / (1 + lambda N (R + tau / 2))

lambda: 419 unexpected interruptions in 54 days on 16,384 H100 = 1.97e-5 per GPU-hour
(Grattafiori et al. 2024, "The Llama 3 Herd of Models", section 3.3.4, which reports
466 interruptions in all, 47 of them planned, and "higher than 90 % effective training
time"). BLOOM saw 1-2 GPU failures a week on 384 A100 (BigScience, "The Technology
Behind BLOOM Training", 2022): 1.5 / (384 x 168) = 2.3e-5 per GPU-hour, the same
order, so one rate serves both eras.

What differs by era is the restart practice:
- ``automated`` (2024 practice: failures detected and the job relaunched by the
  scheduler from the latest checkpoint, Llama 3 section 3.3.4; Huawei MindCluster's
  resumable training): R = 10 minutes (assumption within Huawei's published recovery
  phases; with a 20-minute checkpoint interval this gives 0.89 at 16,384 GPUs, against
  Llama 3's "higher than 90 %");
- ``manual`` (2021-2022 practice: OPT-175B logbook, "at least 35 manual restarts and
  the cycling of over 100 hosts" in 2 months, Zhang et al. 2022 section 2.5; BLOOM's
  chronicles of hung jobs found by people): R = 2 hours (assumption: a person notices,
  drains the node and relaunches).
The buyer can override lambda, R and the checkpoint interval (the same interval the
storage is sized for).

Checkpoint interval by scale: a job of N GPUs fails every M = 1 / (lambda N) hours on
average. Young's optimum interval (Young 1974, "A first order approximation to the
optimum checkpoint interval"; Daly 2006) is where the time spent writing checkpoints
(delta / tau) equals the expected rollback (tau / (2 M)). The storage is sized so one
write stalls the steps for the share s of the interval (delta = s tau), so the balance
is tau / (2 M) = s, tau = 2 s / (lambda N). Without a buyer's interval the engine uses
it, at most DEFAULT_CHECKPOINT_INTERVAL_MIN (60 min, reached below about 2,000 GPUs at
s = 2 %) and at least MIN_CHECKPOINT_INTERVAL_MIN; the storage's write rate follows
from the same interval. At 16,384 GPUs and s = 2 %: tau = 2 x 0.02 / 0.3233 h = 7.4
minutes, goodput 0.98 / (1 + 0.3233 x (10 + 3.7) / 60) = 0.9126 (Llama 3: "higher than
90 %"), and 5.7 TB of 405B checkpoint in 8.9 s needs about 640 GB/s of writes, within
the 2 TB/s sustained of Llama 3's storage (section 3.3.1).
"""

from __future__ import annotations

from dataclasses import dataclass

LLAMA3_FAILURES_PER_GPU_HOUR = 419 / (16384 * 54 * 24)
RESTART_PRACTICES = ("automated", "manual")
RESTART_MIN = {"automated": 10.0, "manual": 120.0}
DEFAULT_CHECKPOINT_INTERVAL_MIN = 60.0
MIN_CHECKPOINT_INTERVAL_MIN = 1.0  # a bound, not a practice: writes in seconds


def balanced_interval_min(
    failures_per_gpu_hour: float, gpus: int, stall_share: float
) -> float:
    """The interval at which the checkpoint stall equals the expected rollback:
    2 s / (lambda N) hours, within [MIN, DEFAULT] minutes."""
    rate = failures_per_gpu_hour * max(gpus, 1)
    if rate <= 0 or stall_share <= 0:
        return DEFAULT_CHECKPOINT_INTERVAL_MIN
    tau_min = 2.0 * stall_share / rate * 60.0
    return min(
        DEFAULT_CHECKPOINT_INTERVAL_MIN, max(MIN_CHECKPOINT_INTERVAL_MIN, tau_min)
    )


@dataclass(frozen=True)
class RestartPractice:
    """Failure rate, restart time and checkpoint interval of one run (None: the
    interval balanced for the run's scale, ``balanced_interval_min``)."""

    failures_per_gpu_hour: float = LLAMA3_FAILURES_PER_GPU_HOUR
    restart_min: float = RESTART_MIN["automated"]
    checkpoint_interval_min: float | None = None

    def interval_min(self, gpus: int, stall_share: float) -> float:
        if self.checkpoint_interval_min is not None:
            return self.checkpoint_interval_min
        return balanced_interval_min(self.failures_per_gpu_hour, gpus, stall_share)

    def lost_hours_per_failure(self, gpus: int, stall_share: float) -> float:
        """Restart plus, on average, half a checkpoint interval of lost work."""
        interval = self.interval_min(gpus, stall_share)
        return (self.restart_min + interval / 2.0) / 60.0

    def failure_loss(self, gpus: int, stall_share: float) -> float:
        """lambda N (R + tau / 2): lost hours per useful hour."""
        lost = self.lost_hours_per_failure(gpus, stall_share)
        return gpus * self.failures_per_gpu_hour * lost

    def goodput(self, gpus: int, stall_share: float) -> float:
        return (1.0 - stall_share) / (1.0 + self.failure_loss(gpus, stall_share))


AUTOMATED = RestartPractice()


def practice_of(
    name: str,
    failures_per_gpu_hour: float | None,
    restart_min: float | None,
    checkpoint_interval_min: float | None,
) -> RestartPractice:
    return RestartPractice(
        failures_per_gpu_hour
        if failures_per_gpu_hour is not None
        else LLAMA3_FAILURES_PER_GPU_HOUR,
        restart_min if restart_min is not None else RESTART_MIN[name],
        checkpoint_interval_min,
    )
