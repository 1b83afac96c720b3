"""Search of training layouts: tensor x context x pipeline x data parallel degrees, expert
parallelism for MoE, the ZeRO stage and the pipeline schedule.

Bounded: TP in powers of two up to min(GPUs per node, 8, heads) (Narayanan et al. 2021:
keep TP inside the NVLink domain); CP (context parallelism, ring attention; Llama 3 used
CP 16 at 128k) in powers of two while each GPU keeps >= 4,096 tokens of the sequence;
PP in powers of two up to the layer count (max 64), 1F1B or interleaved 1F1B with 2 or 4
chunks per GPU (needs m >= p micro-batches); EP in powers of two over the data x
context ranks; ZeRO 0-3 with or without pipelining (Llama 3 shards optimizer states and
gradients under its PP: ZeRO-2). A few hundred shapes, each O(1).

Among layouts that leave 10 % of memory free, the one with the least communication +
pipeline-bubble time per step wins; if none does, the best that fits at all (flagged
``memory_headroom_low``); if nothing fits, the least-memory one (``fits`` false).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .activations import (
    Stage,
    activation_bytes_per_layer,
    busiest_stages,
    logits_bytes,
)
from .catalog import ModelArch
from .comm import (  # re-exported: the serving code reads it from here
    COLLECTIVE_EFFICIENCY as COLLECTIVE_EFFICIENCY,
)
from .comm import (
    ModelTraffic,
    StepTraffic,
    data_bytes,
    model_traffic,
)
from .memory import (
    FRAGMENTATION_SHARE,
    GB,
    MEMORY_HEADROOM,
    RUNTIME_CONTEXT_BYTES,
    Layout,
    Recipe,
    TrainingMemory,
)
from .model_states import (
    Sharding,
    StageParams,
    StateTerms,
    stage_params,
    state_terms,
)
from .training_job import Fabric as Fabric  # re-exported: callers read it here
from .training_job import TrainingJob

MAX_PIPELINE = 64
MAX_EXPERT_PARALLEL = 256
MIN_TOKENS_PER_CONTEXT_RANK = 4096
INTERLEAVE_CHUNKS = (2, 4)


@dataclass(frozen=True)
class LayoutChoice:
    layout: Layout
    memory: TrainingMemory
    fits: bool  # within the GPU's memory
    comfortable: bool  # and leaves >= 10 % free
    micro_batches: int
    step_compute_s: float
    traffic: StepTraffic
    bubble_s: float

    @property
    def comm_s(self) -> float:
        return self.traffic.seconds

    @property
    def score_s(self) -> float:
        return self.comm_s + self.bubble_s

    @property
    def exposed_s(self) -> float:
        """Communication the step waits for and the pipeline bubble."""
        return self.traffic.exposed_s(self.step_compute_s) + self.bubble_s

    @property
    def exposed_share(self) -> float:
        return self.exposed_s / self.step_compute_s if self.step_compute_s else 0.0

    @property
    def step_s(self) -> float:
        """Compute + communication + bubble, no overlap: a ranking figure."""
        return self.step_compute_s + self.score_s


def _powers_of_two(limit: int) -> list[int]:
    out, v = [], 1
    while v <= limit:
        out.append(v)
        v *= 2
    return out


def tensor_degrees(m: ModelArch, gpus: int, gpus_per_node: int) -> list[int]:
    out = []
    for t in _powers_of_two(min(gpus_per_node, 8, gpus)):
        if m.attention_heads % t:
            continue
        if m.kv_heads % t and t % m.kv_heads:
            continue
        out.append(t)
    return out or [1]


def context_degrees(seq_len: int, gpus: int) -> list[int]:
    return _powers_of_two(min(max(seq_len // MIN_TOKENS_PER_CONTEXT_RANK, 1), gpus))


def expert_degrees(m: ModelArch, data_ranks: int) -> list[int]:
    if not m.is_moe:
        return [1]
    limit = min(m.moe_experts or 1, data_ranks, MAX_EXPERT_PARALLEL)
    return [e for e in _powers_of_two(limit) if not (m.moe_experts or 1) % e]


def candidate_layouts(job: TrainingJob) -> Iterator[Layout]:
    """Every (t, c, p, d, e) shape that divides the GPUs under the global batch, with
    ZeRO 0 and the plain schedule (the stage and schedule are chosen per shape)."""
    m, gpus = job.model, job.gpus
    for t in tensor_degrees(m, gpus, job.fabric.gpus_per_node):
        for c in context_degrees(job.recipe.seq_len, gpus // t):
            for p in _powers_of_two(min(m.layers, MAX_PIPELINE)):
                if gpus % (t * c * p):
                    continue
                d = gpus // (t * c * p)
                if d * job.recipe.micro_batch > job.sequences:
                    continue  # every data rank needs a micro-batch
                for e in expert_degrees(m, d * c):
                    yield Layout(t, p, d, 0, c, e)


def micro_batches_of(job: TrainingJob, layout: Layout) -> int:
    return max(job.sequences // (layout.data * job.recipe.micro_batch), 1)


def _schedules(layout: Layout, micro_batches: int, layers: int) -> list[int]:
    """Chunks per GPU: 1 (1F1B), or 2/4 (interleaved) when m is a multiple of p (as
    Megatron-LM requires) and the layers allow."""
    p = layout.pipeline
    if p == 1:
        return [1]
    extra = [v for v in INTERLEAVE_CHUNKS if not micro_batches % p and layers >= p * v]
    return [1, *extra]


@dataclass(frozen=True)
class _StageLoad:
    """One busy stage's parameters and activations (everything but the ZeRO stage)."""

    stage: Stage
    params: StageParams
    activations: float


def _stage_loads(
    job: TrainingJob, layout: Layout, micro_batches: int
) -> tuple[_StageLoad, ...]:
    m, recipe = job.model, job.recipe
    t, c = layout.tensor, layout.context
    per_layer, remat = _per_layer_activations(m, recipe, t, c)
    loads = []
    for stage in busiest_stages(
        m.layers, layout.pipeline, micro_batches, layout.virtual_stages
    ):
        acts = per_layer * stage.layers * stage.in_flight + remat
        if stage.has_head:
            acts += logits_bytes(m, recipe.seq_len, recipe.micro_batch, t * c)
        loads.append(_StageLoad(stage, stage_params(m, stage, t, layout.expert), acts))
    return tuple(loads)


def _memory_at(
    loads: tuple[_StageLoad, ...], terms: tuple[StateTerms, ...], zero_stage: int
) -> TrainingMemory:
    """The fullest of the busy stages under one ZeRO stage."""
    fullest_total, fullest = -1.0, None
    for load, stage_terms in zip(loads, terms, strict=True):
        states = stage_terms.at(zero_stage)
        live = states[0] + states[1] + states[2] + load.activations
        total = live + RUNTIME_CONTEXT_BYTES + FRAGMENTATION_SHARE * live
        if total > fullest_total:
            fullest_total, fullest = total, (load, states, live)
    assert fullest is not None
    load, (weights, grads, optimizer), live = fullest
    return TrainingMemory(
        weights,
        grads,
        optimizer,
        load.activations,
        RUNTIME_CONTEXT_BYTES + FRAGMENTATION_SHARE * live,
        load.stage.index,
        load.stage.layers,
        load.stage.in_flight,
    )


def _terms(
    loads: tuple[_StageLoad, ...], sharding: Sharding, recipe: Recipe
) -> tuple[StateTerms, ...]:
    return tuple(
        state_terms(
            load.params,
            sharding.dense_replicas,
            sharding.expert_replicas,
            recipe.states,
        )
        for load in loads
    )


@lru_cache(maxsize=1024)
def _per_layer_activations(
    m: ModelArch, recipe: Recipe, tensor: int, context: int
) -> tuple[float, float]:
    """(bytes per layer per micro-batch, the one rematerialised layer of full
    recompute)."""
    args = (m, recipe.seq_len, recipe.micro_batch, tensor)
    precision = recipe.precision
    per_layer = activation_bytes_per_layer(*args, recipe.recompute, context, precision)
    remat = (
        activation_bytes_per_layer(*args, "selective", context, precision)
        if recipe.recompute == "full"
        else 0.0
    )
    return per_layer, remat


def _sharding(layout: Layout) -> Sharding:
    return Sharding(
        layout.tensor, layout.expert, layout.data * layout.context, layout.zero_stage
    )


def evaluate(job: TrainingJob, layout: Layout) -> LayoutChoice:
    """Memory per GPU, fit, and the communication and bubble time of one step."""
    micro_batches = micro_batches_of(job, layout)
    loads = _stage_loads(job, layout, micro_batches)
    sharding = _sharding(layout)
    data = data_bytes(loads[0].params, sharding, job.recipe.states, micro_batches)
    traffic = model_traffic(job, layout, micro_batches).with_data(data)
    memory = _memory_at(loads, _terms(loads, sharding, job.recipe), layout.zero_stage)
    return _choice(job, layout, memory, traffic)


def _choice(
    job: TrainingJob, layout: Layout, memory: TrainingMemory, traffic: StepTraffic
) -> LayoutChoice:
    micro_batches = micro_batches_of(job, layout)
    step_compute_s = job.step_flops / (job.gpus * job.gpu_flops)
    bubble = (layout.pipeline - 1) / (layout.virtual_stages * micro_batches)
    capacity = job.memory_gb * GB
    return LayoutChoice(
        layout,
        memory,
        memory.total <= capacity,
        memory.total <= (1.0 - MEMORY_HEADROOM) * capacity,
        micro_batches,
        step_compute_s,
        traffic,
        bubble * step_compute_s,
    )


@dataclass(frozen=True)
class _Shape:
    """A candidate shape with what its score floor already computed."""

    layout: Layout
    micro_batches: int
    plain_traffic: ModelTraffic  # the model-parallel traffic on plain 1F1B
    floor_s: float


def _best_variant(job: TrainingJob, shape: _Shape) -> LayoutChoice:
    """The shape's best ZeRO stage and schedule. ZeRO-1 moves the same bytes as ZeRO-0
    with less memory, so ZeRO-0 is only tried without data parallelism; higher stages
    cost more traffic, so they are tried only until one leaves 10 % free. If nothing
    fits, the least-memory variant (ZeRO-3, plain 1F1B) is the answer."""
    base, micro_batches = shape.layout, shape.micro_batches
    t, p, d, c, e = base.tensor, base.pipeline, base.data, base.context, base.expert
    zero_stages = (0,) if d * c == 1 else (1, 2, 3)
    capacity = job.memory_gb * GB
    step_compute_s = job.step_flops / (job.gpus * job.gpu_flops)
    best: tuple | None = None
    for chunks in _schedules(base, micro_batches, job.model.layers):
        layout = Layout(t, p, d, 0, c, e, chunks)
        loads = _stage_loads(job, layout, micro_batches)
        terms = _terms(loads, Sharding(t, e, d * c, 0), job.recipe)
        least = _memory_at(loads, terms, zero_stages[-1])
        if least.total > capacity:
            if best is None:  # not even ZeRO-3 on plain 1F1B fits: least memory
                least_layout = Layout(t, p, d, zero_stages[-1], c, e, 1)
                traffic = shape.plain_traffic.with_data(0.0)
                return _choice(job, least_layout, least, traffic)
            break  # more chunks only hold more activations
        traffic = (
            shape.plain_traffic
            if chunks == 1
            else model_traffic(job, layout, micro_batches)
        )
        bubble_s = (p - 1) / (chunks * micro_batches) * step_compute_s
        for zero in zero_stages:
            memory = (
                least if zero == zero_stages[-1] else _memory_at(loads, terms, zero)
            )
            if memory.total > capacity:
                continue
            sharding = Sharding(t, e, d * c, zero)
            data = data_bytes(
                loads[0].params, sharding, job.recipe.states, micro_batches
            )
            full = traffic.with_data(data)
            comfortable = memory.total <= (1.0 - MEMORY_HEADROOM) * capacity
            key = (not comfortable, full.seconds + bubble_s, memory.total)
            if best is None or key < best[0]:
                best = (key, Layout(t, p, d, zero, c, e, chunks), memory, full)
            if comfortable:
                break
    assert best is not None
    return _choice(job, best[1], best[2], best[3])


def _rank(choice: LayoutChoice) -> tuple[bool, float, float]:
    return (not choice.comfortable, choice.score_s, choice.memory.total)


def _shape(job: TrainingJob, layout: Layout) -> _Shape:
    """The shape and a lower bound of its score: its model-parallel traffic on plain
    1F1B and the bubble of its most interleaved schedule, no data-parallel traffic."""
    micro_batches = micro_batches_of(job, layout)
    chunks = _schedules(layout, micro_batches, job.model.layers)[-1]
    step_compute_s = job.step_flops / (job.gpus * job.gpu_flops)
    bubble_s = (layout.pipeline - 1) / (chunks * micro_batches) * step_compute_s
    traffic = model_traffic(job, layout, micro_batches)
    return _Shape(layout, micro_batches, traffic, traffic.seconds + bubble_s)


def search(job: TrainingJob) -> LayoutChoice | None:
    """Best layout (see the module doc); None if no layout divides the GPU count under
    the global batch. Shapes are tried in order of their score floor, so once one
    fits with headroom, shapes whose floor is no better are skipped."""
    shapes = sorted(
        (_shape(job, layout) for layout in candidate_layouts(job)),
        key=lambda shape: shape.floor_s,
    )
    best: LayoutChoice | None = None
    for shape in shapes:
        if best is not None and best.comfortable and shape.floor_s >= best.score_s:
            break
        choice = _best_variant(job, shape)
        if choice.fits and (best is None or _rank(choice) < _rank(best)):
            best = choice
    if best is not None or not shapes:
        return best
    return min(
        (_best_variant(job, shape) for shape in shapes),
        key=lambda choice: choice.memory.total,
    )
