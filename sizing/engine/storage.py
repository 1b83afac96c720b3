"""Storage: dataset capacity with growth, checkpoint size and write rate, read rate, tiers.

Checkpoint = 14 B/param for a restartable mixed-precision Adam state (bf16 weights + fp32
master + 2 moments; BLOOM 2.3 TB / 176 B = 13.1, Megatron-1T 13.7 B/param); weights-only
2 B/param. The write rate is set so one checkpoint stalls training no more than the
chosen share of the checkpoint interval.
"""

from __future__ import annotations

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
    out: dict = {}
    s = "storage"
    if dataset_tb is None:
        dataset_tb = (tokens_b or 0.0) * 1e9 * TOKEN_BYTES / 1e12 if training else 0.0
        formula = "tokens x 4 B (uint32 token ids) when not given"
    else:
        formula = "as given"
    ex.put(
        out,
        s,
        "dataset_tb_now",
        dataset_tb,
        "TB",
        formula,
        {"tokens_b": tokens_b},
        "engine default",
    )
    grown = dataset_tb * (1.0 + growth_per_year) ** planning_years
    ex.put(
        out,
        s,
        "dataset_tb",
        grown,
        "TB",
        "dataset x (1 + growth)^years",
        {"growth_per_year": growth_per_year, "years": planning_years},
        "buyer input",
    )
    if training:
        ckpt_bytes = CHECKPOINT_BYTES_PER_PARAM * trainable_params
        ckpt_formula = "14 B x trainable params (frozen base weights are not re-saved)"
    else:
        ckpt_bytes = 2.0 * params_total
        ckpt_formula = "2 B x params (bf16 weights to load)"
    ckpt_gb = ckpt_bytes / 1e9
    ex.put(
        out,
        s,
        "checkpoint_gb",
        ckpt_gb,
        "GB",
        ckpt_formula,
        {"params": params_total, "trainable": trainable_params},
        SRC_CKPT,
    )
    if training:
        write = ckpt_gb / (stall_share * interval_min * 60.0)
        wformula = "checkpoint_gb / (stall_share x interval_s)"
    else:
        write = 0.0
        wformula = "inference writes no checkpoints"
    ex.put(
        out,
        s,
        "checkpoint_write_gbs",
        write,
        "GB/s",
        wformula,
        {"stall_share": stall_share, "interval_min": interval_min},
        "sizing-formulas section 10 (1T run: 13.8 TB at ~273 GB/s)",
    )
    data_rate = tokens_per_s_per_gpu * TOKEN_BYTES / 1e9
    read_per_gpu = max(data_rate, READ_FLOOR_GBS_PER_GPU)
    ex.put(
        out,
        s,
        "read_gbs_per_gpu",
        read_per_gpu,
        "GB/s",
        "max(tokens/s per GPU x 4 B, 0.5 GB/s floor)",
        {"data_rate_gbs": data_rate},
        "NVIDIA SuperPOD 'Good' single-node read 4 GB/s / 8 GPUs (RA-11333-001)",
    )
    ex.put(
        out,
        s,
        "read_gbs_total",
        read_per_gpu * gpus,
        "GB/s",
        "read_gbs_per_gpu x GPUs",
        {"gpus": gpus},
        "",
    )
    capacity = grown + checkpoints_kept * ckpt_gb / 1000.0
    ex.put(
        out,
        s,
        "capacity_tb",
        capacity,
        "TB",
        "dataset_tb + checkpoints_kept x checkpoint_gb / 1000",
        {"checkpoints_kept": checkpoints_kept},
        "",
    )
    tiers = list(catalog.storage_tiers.values())
    pfs = _pick_tier(tiers, write, nodes)
    chosen = [
        {
            "tier": "local_nvme",
            "key": "local-nvme-cache",
            "capacity_tb": min(grown, grown / max(nodes, 1) * 2.0) if grown else 0.0,
            "role": "per-node read cache of the dataset shard (x2 for reshuffles)",
        }
    ]
    if pfs is not None:
        chosen.append(
            {
                "tier": "parallel_fs",
                "key": pfs.key,
                "capacity_tb": capacity,
                "write_gbs": (pfs.write_gbs_per_node or 0.0) * nodes,
                "read_gbs": (pfs.read_gbs_per_node or 0.0) * nodes,
                "role": "checkpoints and the shared dataset",
            }
        )
    ex.put(
        out,
        s,
        "tiers",
        chosen,
        "",
        "local NVMe cache + smallest parallel-FS tier whose "
        "per-node write x nodes >= checkpoint_write_gbs",
        {"nodes": nodes},
        pfs.source if pfs else "",
    )
    ex.put(
        out,
        s,
        "parallel_fs_write_gbs",
        chosen[-1].get("write_gbs", 0.0),
        "GB/s",
        "tier write GB/s per compute node x nodes",
        {},
        pfs.source if pfs else "",
    )
    return out
