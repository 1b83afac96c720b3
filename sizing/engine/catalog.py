"""Frozen catalogue records the engine computes over.

The rows come from ``sizing/data`` (via ``sizing.reference_data``) or from the database;
the engine never reads them itself. Units are in the field names; memory is in GB
(10^9 bytes, vendor convention), bandwidth in TB/s or GB/s, compute in dense TFLOPS.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# FP32 training runs on TF32 tensor cores at half the BF16 rate on NVIDIA parts
# (A100 156 vs 312, H100 494.5 vs 989 dense: NVIDIA datasheets); applied to all.
TF32_SHARE_OF_BF16 = 0.5
# 4-bit float weight formats: OCP MXFP4 (E2M1 + one E8M0 scale per 32) and NVIDIA NVFP4
# (E2M1 + one E4M3 scale per 16).
FP4_PRECISIONS = ("mxfp4", "nvfp4")
MIB = 1024.0 * 1024.0


@dataclass(frozen=True)
class Accelerator:
    """One accelerator's datasheet: the one type the sizing engine computes with and
    the vendors' spec-claim checks read (``vendors.engine.spec_claims``), so a figure
    has one name everywhere (``fp8_tflops`` is the catalogue's ``fp8_dense_tflops``).
    Only ``key`` is required: a claim check may hold a partial row; the sizing
    catalogue always gives every figure (``sizing.reference_data``)."""

    key: str
    vendor: str = ""
    name: str = ""
    family: str = ""
    ecosystem: str = ""
    memory_gb: float | None = None
    mem_bw_tbs: float | None = None
    bf16_tflops: float | None = None
    fp8_tflops: float | None = None
    int8_tops: float | None = None
    tdp_w: float | None = None
    form_factor: str = ""
    memory_type: str = ""  # HBM3, HBM3e, GDDR6, ...
    scaleup_link: str = ""  # NVLink 4, Infinity Fabric, HCCS, ...
    scaleup_gbs: float | None = None  # bidirectional per GPU, vendor convention
    scaleup_domain_gpus: int = 1
    pcie_gen: int | None = None
    server_8gpu_max_kw: float | None = None
    launch_year: int | None = None
    cn_status: str = "restricted"  # available | conditional | restricted
    global_status: str = "available"
    china_availability: str = ""
    china_availability_date: str = ""
    framework_notes: str = ""
    price: float | None = None
    price_currency: str = "USD"
    price_basis: str = ""  # gpu | server_share
    price_date: str = ""
    price_source: str = ""
    is_estimate: bool = False
    source: str = ""
    fp4_tflops: float | None = None  # dense FP4 (NVFP4/MXFP4) where the part has it
    # Total memory the driver reports (nvidia-smi "MiB" column): the figure serving
    # engines take their memory fraction of (vLLM gpu_memory_utilization x total).
    reported_memory_mib: float | None = None

    @property
    def memory_capacity_bytes(self) -> float:
        """Device memory as the driver reports it (81,559 MiB on an H100 80GB =
        85.5 x 10^9 B); the datasheet figure read as 10^9 B where none is recorded."""
        if self.reported_memory_mib:
            return self.reported_memory_mib * MIB
        return self.memory_gb * 1e9

    def peak_tflops(self, precision: str) -> float | None:
        """Dense peak for a compute precision (never the 2:4 sparse figure).

        FP4 weights run on FP4 tensor cores where the part has them (Blackwell, MI355X);
        elsewhere they are dequantised and multiplied in 16-bit (weight-only, as vLLM
        serves MXFP4 gpt-oss on Hopper), so the 16-bit peak applies.
        """
        if precision in ("bf16", "fp16"):
            return self.bf16_tflops
        if precision == "fp8":
            return self.fp8_tflops
        if precision in FP4_PRECISIONS:
            return self.fp4_tflops or self.bf16_tflops
        if precision == "int8":
            return self.int8_tops or self.bf16_tflops
        if precision == "int4":  # weight-only int4: matmuls run in 16-bit
            return self.bf16_tflops
        if precision == "fp32":
            return (
                None
                if self.bf16_tflops is None
                else self.bf16_tflops * TF32_SHARE_OF_BF16
            )
        return None

    def dense(self, precision: str) -> float | None:
        """The datasheet's own dense figure for a precision as a bid names it (BF16,
        FP16, FP8, INT8, FP4), without `peak_tflops`'s fallbacks: what a claim is
        checked against."""
        return {
            "BF16": self.bf16_tflops,
            "FP16": self.bf16_tflops,
            "FP8": self.fp8_tflops,
            "INT8": self.int8_tops,
            "FP4": self.fp4_tflops,
        }.get(precision)

    @property
    def pcie_gbs_each_way(self) -> float:
        """PCIe x16 per direction: Gen4 ~31.5, Gen5 ~63, Gen6 ~121 GB/s (ml-engineering)."""
        return {4: 31.5, 5: 63.0, 6: 121.0}.get(self.pcie_gen or 4, 31.5)

    def status_in(self, region: str) -> str:
        return self.cn_status if region == "cn" else self.global_status


@dataclass(frozen=True)
class ServerPlatform:
    key: str
    name: str
    accelerator_key: str
    gpus_per_node: int
    node_max_kw: float | None
    nic_count: int
    nic_gbps: float
    rack_units: int | None = None
    psu_redundancy: str = ""
    liquid_cooled: bool = False
    source: str = ""
    nic_source: str = ""  # where the compute NIC count and speed come from


@dataclass(frozen=True)
class NetworkOption:
    key: str
    name: str
    kind: str  # infiniband | roce | ethernet
    generation: str
    port_gbps: float
    switch_radix: int
    switch_price: float | None = None
    switch_price_currency: str = "USD"
    nic_price: float | None = None
    cable_price: float | None = None
    source: str = ""
    ecosystem: str = ""  # only for accelerators of this ecosystem; "" = any


@dataclass(frozen=True)
class StorageTier:
    key: str
    name: str
    kind: str  # local_nvme | parallel_fs | object
    capacity_tb_per_node: float | None
    read_gbs_per_node: float | None
    write_gbs_per_node: float | None
    price_per_tb: float | None = None
    currency: str = "USD"
    source: str = ""


@dataclass(frozen=True)
class ModelArch:
    """Transformer hyperparameters as published (config.json or paper).

    ``arch_style`` "llama": RMSNorm, no biases, rotary positions; "gpt": LayerNorm with
    biases and learned positions (GPT-3, BERT). ``params_override_b`` replaces the
    count derived from the architecture (published MoE/MLA models, or the user's figure).
    """

    key: str
    name: str
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    ffn_hidden_size: int
    vocab_size: int
    gated_ffn: bool = True
    tied_embeddings: bool = False
    moe_experts: int | None = None
    moe_active_experts: int | None = None
    max_context_tokens: int | None = None
    arch_style: str = "llama"
    qkv_bias: bool = False
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    q_lora_rank: int | None = None  # MLA query compression (DeepSeek-V2/V3)
    qk_nope_head_dim: int | None = None  # MLA per-head query/key width without RoPE
    v_head_dim: int | None = None  # MLA per-head value width
    moe_ffn_hidden_size: int | None = None  # one expert's FFN width (default: ffn)
    moe_shared_experts: int = 0  # always-active experts per MoE layer
    moe_dense_layers: int = 0  # layers with a dense FFN in an MoE model
    sliding_window_tokens: int | None = None  # local attention window (or chunk)
    sliding_window_layers: int = 0  # how many layers attend only within the window
    # "sliding" (the last N tokens, gpt-oss) or "chunked" (tokens of the current
    # N-token chunk, Llama 4 attention_chunk_size)
    local_attention: str = "sliding"
    # Linear-attention / state-space layers (Gated DeltaNet, lightning attention,
    # Mamba): a fixed state per sequence instead of a growing KV cache.
    linear_attention_layers: int = 0
    linear_state_bytes: int = 0  # one such layer's state of one sequence, bytes
    native_precision: str = "bf16"  # the precision the weights are published in
    # RoPE scaling the model card validates beyond max_position_embeddings (config.json
    # rope_scaling: YaRN factor over original_max_position_embeddings; Qwen3 4.0 x 32,768)
    rope_scaling_type: str | None = None
    rope_scaling_factor: float | None = None
    rope_original_context_tokens: int | None = None
    params_b: float | None = None  # published headline figure
    active_params_b: float | None = None
    params_override_b: float | None = None
    active_params_override_b: float | None = None
    source: str = ""

    @property
    def is_moe(self) -> bool:
        return bool(self.moe_experts and self.moe_experts > 1)

    @property
    def is_mla(self) -> bool:
        """Multi-head latent attention: one compressed KV latent per token and layer."""
        return bool(self.kv_lora_rank)

    @property
    def context_limit_tokens(self) -> int | None:
        """The longest context the model allows: max_position_embeddings, or the
        original window x the RoPE scaling factor when the card validates one (Qwen3:
        "32,768 tokens ... extended to 131,072 tokens with YaRN", QwenLM/Qwen3 docs,
        inference/transformers.md, "Enabling Long Context")."""
        extended = 0
        if self.rope_scaling_factor and self.rope_original_context_tokens:
            extended = int(self.rope_scaling_factor * self.rope_original_context_tokens)
        limit = max(self.max_context_tokens or 0, extended)
        return limit or None

    @property
    def full_attention_layers(self) -> int:
        """Layers whose KV cache grows with every token."""
        local = min(self.sliding_window_layers, self.layers)
        return max(0, self.layers - local - self.linear_attention_layers)

    @property
    def expert_ffn_size(self) -> int:
        return self.moe_ffn_hidden_size or self.ffn_hidden_size

    @property
    def moe_layers(self) -> int:
        return self.layers - self.moe_dense_layers if self.is_moe else 0


@dataclass(frozen=True)
class Catalog:
    accelerators: dict[str, Accelerator] = field(default_factory=dict)
    servers: dict[str, ServerPlatform] = field(default_factory=dict)
    networks: dict[str, NetworkOption] = field(default_factory=dict)
    storage_tiers: dict[str, StorageTier] = field(default_factory=dict)
    presets: dict[str, ModelArch] = field(default_factory=dict)

    def __hash__(self) -> int:  # dicts are not hashable; identity is enough for caches
        return id(self)

    def server_for(self, accelerator_key: str) -> ServerPlatform | None:
        for server in self.servers.values():
            if server.accelerator_key == accelerator_key:
                return server
        return None
