"""How one serving replica is split: pipeline stages, GPUs per stage, and within a stage
the attention split (tensor x data parallel) and expert parallelism.

Dense models shard a stage by tensor parallelism inside the node (Narayanan et al. 2021:
keep TP inside NVLink). MoE models spread the experts of a stage over all its GPUs, also
across nodes (DeepSeek-V3 report, section 3.4: EP32 prefill, EP320 decode), while
attention runs tensor-parallel on groups of ``attention_tensor`` GPUs, each group a
data-parallel attention rank with its own requests (SGLang ``--enable-dp-attention``;
TensorRT-LLM ``enable_attention_dp``). An MLA latent cannot be split by heads, so a
tensor-parallel attention group holds it on every rank; a data-parallel rank holds only
its own requests' latents, and decode context parallelism stripes the latents of a
tensor-parallel group by token position over its ranks (vLLM
``--decode-context-parallel-size``, SGLang ``--dcp-size``: "DCP eliminates KV cache
redundancy" within the TP domain).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .catalog import ModelArch
from .parallelism import tensor_degrees

PIPELINE_DEGREES = (1, 2, 4, 8, 16, 32, 64)
MAX_STAGE_GPUS = 64  # largest expert-parallel group searched


@dataclass(frozen=True)
class ServingLayout:
    pipeline: int
    stage_gpus: int
    attention_tensor: int
    expert_parallel: int  # 1 when the model is dense or experts are tensor-sliced
    decode_context: int = 1  # ranks of a TP group the MLA latents are striped over

    @property
    def gpus(self) -> int:
        return self.pipeline * self.stage_gpus

    @property
    def attention_data(self) -> int:
        return self.stage_gpus // self.attention_tensor


def _stage_widths(m: ModelArch, gpus_per_node: int) -> list[int]:
    """Tensor degrees inside a node; for MoE also powers of two across nodes that divide
    the experts evenly."""
    widths = set(tensor_degrees(m, gpus_per_node, gpus_per_node))
    if m.is_moe:
        width = 1
        while width <= min(m.moe_experts or 1, MAX_STAGE_GPUS):
            if (m.moe_experts or 1) % width == 0:
                widths.add(width)
            width *= 2
    return sorted(widths)


def _attention_splits(m: ModelArch, width: int, gpus_per_node: int) -> list[int]:
    """Attention tensor degrees for a stage of ``width`` GPUs: the whole stage for dense
    models; any in-node tensor degree dividing it for MoE (the rest is data parallel)."""
    in_node = tensor_degrees(m, gpus_per_node, gpus_per_node)
    if not m.is_moe:
        return [width] if width in in_node else []
    return [t for t in in_node if t <= width and width % t == 0]


@lru_cache(maxsize=256)
def candidate_layouts(m: ModelArch, gpus_per_node: int) -> tuple[ServingLayout, ...]:
    """Every layout searched, fewest GPUs first."""
    layouts = []
    experts = m.moe_experts or 1
    for width in _stage_widths(m, gpus_per_node):
        expert_parallel = width if m.is_moe and experts % width == 0 else 1
        for attention_tensor in _attention_splits(m, width, gpus_per_node):
            striping = (
                (1, attention_tensor) if m.is_mla and attention_tensor > 1 else (1,)
            )
            for pipeline in PIPELINE_DEGREES:
                if pipeline > m.layers:
                    break
                layouts.extend(
                    ServingLayout(
                        pipeline, width, attention_tensor, expert_parallel, context
                    )
                    for context in striping
                )
    layouts.sort(key=lambda layout: (layout.gpus, layout.pipeline))
    return tuple(layouts)
