"""Bottleneck rules: one small function per code, each returning its finding or None.

``RULES`` is the order findings are reported in. The codes are the API contract and each
has a title and sentence in ``sizing/messages.py``; a new rule adds a function here, a
line in ``RULES`` and its message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .memory import MEMORY_HEADROOM
from .result import Bottleneck
from .serving_latency import INTERACTIVE_TPOT_MS, INTERACTIVE_TTFT_MS
from .sized_workload import SizedWorkload
from .workload import Constraints


@dataclass(frozen=True)
class RuleInputs:
    """What the rules read: the sized workload, its sections, the site and the cost."""

    sized: SizedWorkload
    sections: dict  # memory, interconnect, storage, power
    constraints: Constraints
    cost: dict

    @property
    def region_status(self) -> str:
        return self.sized.accelerator.status_in(self.constraints.region)

    @property
    def per_gpu_gb(self) -> float:
        return self.sections["memory"]["per_gpu_gb"]


def not_available_in_region(facts: RuleInputs) -> Bottleneck | None:
    acc = facts.sized.accelerator
    if facts.region_status != "restricted":
        return None
    return Bottleneck(
        "accelerator_not_available_in_region",
        "error",
        f"{acc.name} is not available in region {facts.constraints.region!r}: "
        f"{acc.china_availability}",
        facts.region_status,
        "available",
    )


def availability_conditional(facts: RuleInputs) -> Bottleneck | None:
    acc = facts.sized.accelerator
    if facts.region_status != "conditional":
        return None
    return Bottleneck(
        "accelerator_availability_conditional",
        "warning",
        f"{acc.name}: {acc.china_availability} (as of {acc.china_availability_date})",
        facts.region_status,
        "available",
    )


def _capacity_gb(facts: RuleInputs) -> float:
    """The device's memory as its driver reports it (``Accelerator.memory_capacity_bytes``:
    81,559 MiB = 85.5 GB on an H100 80GB), not the datasheet's rounded figure."""
    return facts.sized.accelerator.memory_capacity_bytes / 1e9


def memory_exceeds_capacity(facts: RuleInputs) -> Bottleneck | None:
    capacity_gb = _capacity_gb(facts)
    if not facts.per_gpu_gb > capacity_gb:
        return None
    return Bottleneck(
        "memory_exceeds_capacity",
        "error",
        "the job does not fit in GPU memory with any layout searched",
        facts.per_gpu_gb,
        capacity_gb,
        "GB",
    )


def memory_headroom_low(facts: RuleInputs) -> Bottleneck | None:
    """Fits, but with less than the headroom layouts are searched with."""
    capacity_gb = _capacity_gb(facts)
    usable_gb = (1.0 - MEMORY_HEADROOM) * capacity_gb
    if facts.per_gpu_gb > capacity_gb or not facts.per_gpu_gb > usable_gb:
        return None
    return Bottleneck(
        "memory_headroom_low",
        "warning",
        "less than 10 % of GPU memory left free",
        facts.per_gpu_gb,
        usable_gb,
        "GB",
    )


def network_below_need(facts: RuleInputs) -> Bottleneck | None:
    server = facts.sized.server
    have_gbps = server.nic_count * server.nic_gbps / server.gpus_per_node
    need_gbps = facts.sections["interconnect"]["scale_out_gbps_per_gpu"]
    if not (need_gbps > have_gbps and facts.sized.nodes > 1):
        return None
    return Bottleneck(
        "network_below_need",
        "warning",
        "the platform's NICs per GPU are below the gradient traffic "
        "need; communication will not hide behind compute",
        need_gbps,
        have_gbps,
        "Gbit/s",
    )


def tensor_parallel_over_pcie(facts: RuleInputs) -> Bottleneck | None:
    training, acc = facts.sized.training, facts.sized.accelerator
    if not training:
        return None
    tensor = training.choice.layout.tensor
    if not tensor > acc.scaleup_domain_gpus:
        return None
    return Bottleneck(
        "tensor_parallel_over_pcie",
        "warning",
        f"tensor parallel degree {tensor} exceeds the {acc.name} "
        "scale-up domain: TP traffic crosses PCIe",
        tensor,
        acc.scaleup_domain_gpus,
        "GPUs",
    )


def gpu_count_set_by_memory(facts: RuleInputs) -> Bottleneck | None:
    training = facts.sized.training
    if not (training and training.memory_limited):
        return None
    return Bottleneck(
        "gpu_count_set_by_memory",
        "info",
        "more GPUs than the time target needs, to fit in memory",
        facts.sized.gpus,
        None,
        "GPUs",
    )


def target_days_missed(facts: RuleInputs) -> Bottleneck | None:
    training, target_days = facts.sized.training, facts.sized.workload.target_days
    if not (training and target_days and training.days > target_days * 1.0001):
        return None
    return Bottleneck(
        "target_days_missed",
        "warning",
        "the GPU count given does not meet the target days",
        training.days,
        target_days,
        "days",
    )


def fp8_peak_rarely_reached(facts: RuleInputs) -> Bottleneck | None:
    training = facts.sized.training
    if not (training and facts.sized.workload.precision == "fp8"):
        return None
    return Bottleneck(
        "fp8_peak_rarely_reached",
        "info",
        "FP8 speeds the linear layers up ~1.42x, not 2x: MFU against the FP8 peak "
        "stays well below the BF16 MFU",
        training.mfu,
        None,
        "share",
    )


def storage_below_checkpoint_need(facts: RuleInputs) -> Bottleneck | None:
    if not facts.sized.training:
        return None
    storage = facts.sections["storage"]
    write_gbs, need_gbs = (
        storage["parallel_fs_write_gbs"],
        storage["checkpoint_write_gbs"],
    )
    if not write_gbs < need_gbs:
        return None
    return Bottleneck(
        "storage_below_checkpoint_need",
        "warning",
        "the fastest parallel-FS tier cannot write a checkpoint "
        "within the stall budget",
        write_gbs,
        need_gbs,
        "GB/s",
    )


def latency_target_unmet(facts: RuleInputs) -> Bottleneck | None:
    plan = facts.sized.inference
    if not plan or plan.single_request_meets:
        return None
    return Bottleneck(
        "latency_target_unmet",
        "error",
        "even one request per replica misses the TTFT/TPOT target",
        plan.tpot_s * 1e3,
        facts.sized.workload.tpot_ms,
        "ms",
    )


def throughput_below_target(facts: RuleInputs) -> Bottleneck | None:
    plan, workload = facts.sized.inference, facts.sized.workload
    if not (
        plan
        and workload.gpu_count
        and plan.required_rps
        and plan.requests_per_second < plan.required_rps
    ):
        return None
    return Bottleneck(
        "throughput_below_target",
        "warning",
        "the GPU count given serves less than the target load",
        plan.requests_per_second,
        plan.required_rps,
        "requests/s",
    )


def latency_above_interactive_default(facts: RuleInputs) -> Bottleneck | None:
    """A serving workload without latency targets, planned slower than interactive
    chat (serving_latency.INTERACTIVE_*): the plan is shown with this warning rather
    than recommended silently at, say, 200 ms per token."""
    plan, workload = facts.sized.inference, facts.sized.workload
    if not plan or workload.ttft_ms is not None or workload.tpot_ms is not None:
        return None
    tpot_ms, ttft_ms = plan.tpot_s * 1e3, plan.ttft_s * 1e3
    if tpot_ms <= INTERACTIVE_TPOT_MS and ttft_ms <= INTERACTIVE_TTFT_MS:
        return None
    return Bottleneck(
        "latency_above_interactive_default",
        "warning",
        "no latency target given; the plan is slower than interactive chat",
        tpot_ms,
        INTERACTIVE_TPOT_MS,
        "ms",
    )


def gpu_count_below_load(facts: RuleInputs) -> Bottleneck | None:
    """A GPU count given that cannot carry the concurrent requests within the
    targets: the count is kept (never changed silently) and the count needed said
    (0 when no count of this accelerator meets the targets)."""
    plan, workload = facts.sized.inference, facts.sized.workload
    if not (plan and workload.gpu_count and not plan.meets_load):
        return None
    return Bottleneck(
        "gpu_count_below_load",
        "error",
        "the GPU count given does not carry the load within the targets",
        plan.gpus,
        plan.gpus_needed or 0,
        "GPUs",
    )


def expert_parallel_over_network(facts: RuleInputs) -> Bottleneck | None:
    """Experts spread beyond the scale-up domain: MoE all-to-all runs on the NICs."""
    plan, fabric = facts.sized.inference, facts.sized.fabric
    domain = min(fabric.scaleup_domain, fabric.gpus_per_node)
    if not (plan and plan.expert_parallel > domain):
        return None
    return Bottleneck(
        "expert_parallel_over_network",
        "info",
        "experts are spread beyond one scale-up domain: MoE dispatch and combine "
        "cross the scale-out network",
        plan.expert_parallel,
        domain,
        "GPUs",
    )


def rack_power_above_site_limit(facts: RuleInputs) -> Bottleneck | None:
    limit_kw, node_kw = facts.constraints.rack_power_limit_kw, facts.sized.node_kw
    if not (limit_kw and node_kw > limit_kw):
        return None
    return Bottleneck(
        "rack_power_above_site_limit",
        "error",
        "one node draws more than the site's rack power limit",
        node_kw,
        limit_kw,
        "kW",
    )


def liquid_cooling_required(facts: RuleInputs) -> Bottleneck | None:
    """A liquid-cooled platform on a site without liquid cooling (an air-cooled
    chassis is never relabelled liquid: its racks stop at the air ceiling)."""
    power = facts.sections["power"]
    if not (power["cooling"] == "liquid" and not facts.constraints.liquid_cooling_ok):
        return None
    return Bottleneck(
        "liquid_cooling_required",
        "error",
        "the platform is liquid-cooled and the site has no liquid cooling",
        power["rack_kw"],
        None,
        "kW",
    )


def software_stack_risk(facts: RuleInputs) -> Bottleneck | None:
    acc = facts.sized.accelerator
    if acc.ecosystem == "cuda":
        return None
    return Bottleneck(
        "software_stack_risk",
        "warning",
        f"{acc.ecosystem.upper()}: {acc.framework_notes}",
        acc.ecosystem,
        "cuda",
    )


def estimated_specifications(facts: RuleInputs) -> Bottleneck | None:
    acc = facts.sized.accelerator
    if not acc.is_estimate:
        return None
    return Bottleneck(
        "estimated_specifications",
        "warning",
        f"{acc.name}: no vendor datasheet; figures are estimates",
        None,
        None,
    )


def over_budget(facts: RuleInputs) -> Bottleneck | None:
    budget_usd, total_usd = facts.constraints.budget_usd, facts.cost.get("total_usd")
    if not (budget_usd and total_usd and total_usd > budget_usd):
        return None
    return Bottleneck(
        "over_budget",
        "warning",
        "GPU capex plus energy exceeds the budget",
        total_usd,
        budget_usd,
        "USD",
    )


RULES: tuple[Callable[[RuleInputs], Bottleneck | None], ...] = (
    not_available_in_region,
    availability_conditional,
    memory_exceeds_capacity,
    memory_headroom_low,
    network_below_need,
    tensor_parallel_over_pcie,
    gpu_count_set_by_memory,
    target_days_missed,
    fp8_peak_rarely_reached,
    storage_below_checkpoint_need,
    latency_target_unmet,
    latency_above_interactive_default,
    throughput_below_target,
    gpu_count_below_load,
    expert_parallel_over_network,
    rack_power_above_site_limit,
    liquid_cooling_required,
    software_stack_risk,
    estimated_specifications,
    over_budget,
)


def find_bottlenecks(
    *, sized: SizedWorkload, sections: dict, constraints: Constraints, cost: dict
) -> list[Bottleneck]:
    facts = RuleInputs(sized, sections, constraints, cost)
    findings = (rule(facts) for rule in RULES)
    return [finding for finding in findings if finding is not None]
