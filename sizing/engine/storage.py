"""Storage: dataset capacity with growth, checkpoint size and write rate, read rate, tiers.

Checkpoint = 14 B/param for a restartable mixed-precision Adam state (bf16 weights + fp32
master + 2 moments; BLOOM 2.3 TB / 176 B = 13.1, Megatron-1T 13.7 B/param); weights-only
2 B/param. The write rate is set so one checkpoint stalls training no more than the
chosen share of the checkpoint interval.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Catalog, StorageTier
from .explain import Explainer

CHECKPOINT_BYTES_PER_PARAM = 14.0
TOKEN_BYTES = 4.0  # uint32 token ids on disk (assumption for the default dataset size)
# SuperPOD "Good" single-node read 4 GB/s over 8 GPUs (RA-11333-001) as the floor.
READ_FLOOR_GBS_PER_GPU = 0.5
SRC_CKPT = (
    "ZeRO (Rajbhandari et al. 2020) 2+2+12 B/param; hardware-facts.md section 3: "
    "full checkpoint ~14 B/param"
)
SECTION = "storage"


def _pick_tier(
    tiers: list[StorageTier], need_write_gbs: float, nodes: int
) -> StorageTier | None:
    usable = [t for t in tiers if t.kind == "parallel_fs" and t.write_gbs_per_node]
    usable.sort(key=lambda t: t.write_gbs_per_node or 0.0)
    for tier in usable:
        if (tier.write_gbs_per_node or 0.0) * nodes >= need_write_gbs:
            return tier
    return usable[-1] if usable else None


def size_storage(
    *,
    params_total: float,
    trainable_params: float,
    training: bool,
    tokens_b: float | None,
    dataset_tb: float | None,
    growth_per_year: float,
    planning_years: float,
    interval_min: float,
    stall_share: float,
    checkpoints_kept: int,
    gpus: int,
    nodes: int,
    tokens_per_s_per_gpu: float,
    catalog: Catalog,
    ex: Explainer,
) -> dict:
    """The storage section; every quantity is also explained in ``ex``."""
    out: dict = {}
    dataset_grown_tb = _explain_dataset(
        out,
        ex,
        dataset_tb=dataset_tb,
        tokens_b=tokens_b,
        training=training,
        growth_per_year=growth_per_year,
        planning_years=planning_years,
    )
    checkpoint = _explain_checkpoint(
        out,
        ex,
        training=training,
        params_total=params_total,
        trainable_params=trainable_params,
        stall_share=stall_share,
        interval_min=interval_min,
    )
    _explain_read_rate(out, ex, tokens_per_s_per_gpu=tokens_per_s_per_gpu, gpus=gpus)
    capacity_tb = ex.put(
        out,
        SECTION,
        "capacity_tb",
        dataset_grown_tb + checkpoints_kept * checkpoint.size_gb / 1000.0,
        unit="TB",
        formula="dataset_tb + checkpoints_kept x checkpoint_gb / 1000",
        inputs={"checkpoints_kept": checkpoints_kept},
    )
    _explain_tiers(
        out,
        ex,
        tiers=list(catalog.storage_tiers.values()),
        dataset_tb=dataset_grown_tb,
        capacity_tb=capacity_tb,
        write_gbs=checkpoint.write_gbs,
        nodes=nodes,
    )
    return out


def _explain_dataset(
    out: dict,
    ex: Explainer,
    *,
    dataset_tb: float | None,
    tokens_b: float | None,
    training: bool,
    growth_per_year: float,
    planning_years: float,
) -> float:
    """The dataset at the end of the planning horizon.

    Today's size is as given, else the training tokens stored as uint32 ids.
    """
    if dataset_tb is None:
        dataset_tb = (tokens_b or 0.0) * 1e9 * TOKEN_BYTES / 1e12 if training else 0.0
        formula = "tokens x 4 B (uint32 token ids) when not given"
    else:
        formula = "as given"
    ex.put(
        out,
        SECTION,
        "dataset_tb_now",
        dataset_tb,
        unit="TB",
        formula=formula,
        inputs={"tokens_b": tokens_b},
        source="engine default",
    )
    return ex.put(
        out,
        SECTION,
        "dataset_tb",
        dataset_tb * (1.0 + growth_per_year) ** planning_years,
        unit="TB",
        formula="dataset x (1 + growth)^years",
        inputs={"growth_per_year": growth_per_year, "years": planning_years},
        source="buyer input",
    )


@dataclass(frozen=True)
class _Checkpoint:
    size_gb: float
    write_gbs: float


def _explain_checkpoint(
    out: dict,
    ex: Explainer,
    *,
    training: bool,
    params_total: float,
    trainable_params: float,
    stall_share: float,
    interval_min: float,
) -> _Checkpoint:
    """Checkpoint size, and the write rate at which saving one stalls training for only
    ``stall_share`` of the interval. Serving writes none; its size is the bf16 weights
    to load."""
    if training:
        checkpoint_bytes = CHECKPOINT_BYTES_PER_PARAM * trainable_params
        size_formula = "14 B x trainable params (frozen base weights are not re-saved)"
    else:
        checkpoint_bytes = 2.0 * params_total
        size_formula = "2 B x params (bf16 weights to load)"
    size_gb = ex.put(
        out,
        SECTION,
        "checkpoint_gb",
        checkpoint_bytes / 1e9,
        unit="GB",
        formula=size_formula,
        inputs={"params": params_total, "trainable": trainable_params},
        source=SRC_CKPT,
    )
    if training:
        write_gbs = size_gb / (stall_share * interval_min * 60.0)
        write_formula = "checkpoint_gb / (stall_share x interval_s)"
    else:
        write_gbs = 0.0
        write_formula = "inference writes no checkpoints"
    ex.put(
        out,
        SECTION,
        "checkpoint_write_gbs",
        write_gbs,
        unit="GB/s",
        formula=write_formula,
        inputs={"stall_share": stall_share, "interval_min": interval_min},
        source="sizing-formulas section 10 (1T run: 13.8 TB at ~273 GB/s)",
    )
    return _Checkpoint(size_gb, write_gbs)


def _explain_read_rate(
    out: dict, ex: Explainer, *, tokens_per_s_per_gpu: float, gpus: int
) -> None:
    """Read rate: the token stream each GPU consumes, never below the SuperPOD floor."""
    data_rate_gbs = tokens_per_s_per_gpu * TOKEN_BYTES / 1e9
    read_per_gpu_gbs = max(data_rate_gbs, READ_FLOOR_GBS_PER_GPU)
    ex.put(
        out,
        SECTION,
        "read_gbs_per_gpu",
        read_per_gpu_gbs,
        unit="GB/s",
        formula="max(tokens/s per GPU x 4 B, 0.5 GB/s floor)",
        inputs={"data_rate_gbs": data_rate_gbs},
        source="NVIDIA SuperPOD 'Good' single-node read 4 GB/s / 8 GPUs (RA-11333-001)",
    )
    ex.put(
        out,
        SECTION,
        "read_gbs_total",
        read_per_gpu_gbs * gpus,
        unit="GB/s",
        formula="read_gbs_per_gpu x GPUs",
        inputs={"gpus": gpus},
    )


def _explain_tiers(
    out: dict,
    ex: Explainer,
    *,
    tiers: list[StorageTier],
    dataset_tb: float,
    capacity_tb: float,
    write_gbs: float,
    nodes: int,
) -> None:
    """A local NVMe read cache plus the smallest parallel file system fast enough."""
    parallel_fs = _pick_tier(tiers, write_gbs, nodes)
    chosen = [_local_cache_tier(dataset_tb, nodes)]
    if parallel_fs is not None:
        chosen.append(_parallel_fs_tier(parallel_fs, capacity_tb, nodes))
    source = parallel_fs.source if parallel_fs else ""
    ex.put(
        out,
        SECTION,
        "tiers",
        chosen,
        unit="",
        formula="local NVMe cache + smallest parallel-FS tier whose "
        "per-node write x nodes >= checkpoint_write_gbs",
        inputs={"nodes": nodes},
        source=source,
    )
    ex.put(
        out,
        SECTION,
        "parallel_fs_write_gbs",
        chosen[-1].get("write_gbs", 0.0),
        unit="GB/s",
        formula="tier write GB/s per compute node x nodes",
        source=source,
    )


def _local_cache_tier(dataset_tb: float, nodes: int) -> dict:
    return {
        "tier": "local_nvme",
        "key": "local-nvme-cache",
        "capacity_tb": min(dataset_tb, dataset_tb / max(nodes, 1) * 2.0)
        if dataset_tb
        else 0.0,
        "role": "per-node read cache of the dataset shard (x2 for reshuffles)",
    }


def _parallel_fs_tier(tier: StorageTier, capacity_tb: float, nodes: int) -> dict:
    return {
        "tier": "parallel_fs",
        "key": tier.key,
        "capacity_tb": capacity_tb,
        "write_gbs": (tier.write_gbs_per_node or 0.0) * nodes,
        "read_gbs": (tier.read_gbs_per_node or 0.0) * nodes,
        "role": "checkpoints and the shared dataset",
    }
