"""Read the reference data shipped in ``sizing/data`` into typed rows and engine records.

Plain Python, no Django: the engine tests use ``load_catalog()`` and the database loader
command uses the ``read_*_rows()`` functions, so both see the same typed values. Empty
cells become None ("not found" in the sources, never a guess).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from sizing.engine.catalog import (
    Accelerator,
    Catalog,
    ModelArch,
    NetworkOption,
    ServerPlatform,
    StorageTier,
)

DATA_DIR = Path(__file__).resolve().parent / "data"


def _bool(value: str) -> bool:
    if value.strip().lower() in ("true", "1", "yes"):
        return True
    if value.strip().lower() in ("false", "0", "no", ""):
        return False
    raise ValueError(f"not a boolean: {value!r}")


def _int(value: str) -> int:
    return int(float(value))


ACCELERATOR_TYPES: dict[str, Callable[[str], Any]] = {
    "memory_gb": float,
    "reported_memory_mib": float,
    "mem_bw_tbs": float,
    "bf16_dense_tflops": float,
    "fp8_dense_tflops": float,
    "int8_dense_tops": float,
    "fp4_dense_tflops": float,
    "fp64_tflops": float,
    "tdp_w": float,
    "scaleup_gbs_per_gpu": float,
    "scaleup_domain_gpus": _int,
    "pcie_gen": _int,
    "server_8gpu_max_kw": float,
    "launch_year": _int,
    "price": float,
    "is_estimate": _bool,
}
SERVER_TYPES: dict[str, Callable[[str], Any]] = {
    "gpus_per_node": _int,
    "node_max_kw": float,
    "nic_count": _int,
    "nic_gbps": float,
    "rack_units": _int,
    "liquid_cooled": _bool,
}
NETWORK_TYPES: dict[str, Callable[[str], Any]] = {
    "port_gbps": float,
    "switch_radix": _int,
    "switch_price": float,
    "nic_price": float,
    "cable_price": float,
}
STORAGE_TYPES: dict[str, Callable[[str], Any]] = {
    "capacity_tb_per_node": float,
    "read_gbs_per_node": float,
    "write_gbs_per_node": float,
    "price_per_tb": float,
}


def _data_dir(data_dir: str | Path | None) -> Path:
    return Path(data_dir) if data_dir is not None else DATA_DIR


def _read_csv(
    path: Path, types: dict[str, Callable[[str], Any]]
) -> list[dict[str, Any]]:
    rows = []
    with path.open(newline="", encoding="utf-8") as handle:
        for raw in csv.DictReader(handle):
            row: dict[str, Any] = {}
            for key, value in raw.items():
                value = (value or "").strip()
                if key in types:
                    if types[key] is _bool:
                        row[key] = _bool(value)
                    else:
                        row[key] = types[key](value) if value else None
                else:
                    row[key] = value
            if not row.get("source"):
                raise ValueError(f"{path.name}: row {row.get('key')!r} has no source")
            rows.append(row)
    return rows


def read_accelerator_rows(data_dir: str | Path | None = None) -> list[dict[str, Any]]:
    return _read_csv(_data_dir(data_dir) / "accelerators.csv", ACCELERATOR_TYPES)


def read_server_rows(data_dir: str | Path | None = None) -> list[dict[str, Any]]:
    return _read_csv(_data_dir(data_dir) / "servers.csv", SERVER_TYPES)


def read_network_rows(data_dir: str | Path | None = None) -> list[dict[str, Any]]:
    return _read_csv(_data_dir(data_dir) / "network.csv", NETWORK_TYPES)


def read_storage_rows(data_dir: str | Path | None = None) -> list[dict[str, Any]]:
    return _read_csv(_data_dir(data_dir) / "storage.csv", STORAGE_TYPES)


def read_preset_rows(data_dir: str | Path | None = None) -> list[dict[str, Any]]:
    with (_data_dir(data_dir) / "model_presets.json").open(encoding="utf-8") as handle:
        rows = json.load(handle)
    for row in rows:
        if not row.get("source"):
            raise ValueError(f"model_presets.json: {row.get('key')!r} has no source")
    return rows


def accelerator_from_row(row: dict[str, Any]) -> Accelerator:
    return Accelerator(
        key=row["key"],
        vendor=row["vendor"],
        name=row["model"],
        family=row["family"],
        ecosystem=row["ecosystem"],
        memory_gb=row["memory_gb"],
        mem_bw_tbs=row["mem_bw_tbs"],
        bf16_tflops=row["bf16_dense_tflops"],
        fp8_tflops=row["fp8_dense_tflops"],
        int8_tops=row["int8_dense_tops"],
        fp4_tflops=row.get("fp4_dense_tflops"),
        reported_memory_mib=row.get("reported_memory_mib"),
        tdp_w=row["tdp_w"],
        form_factor=row["form_factor"],
        memory_type=row.get("memory_type") or "",
        scaleup_link=row.get("scaleup_link") or "",
        scaleup_gbs=row["scaleup_gbs_per_gpu"],
        scaleup_domain_gpus=row["scaleup_domain_gpus"] or 1,
        pcie_gen=row["pcie_gen"],
        server_8gpu_max_kw=row["server_8gpu_max_kw"],
        launch_year=row["launch_year"],
        cn_status=row["cn_status"],
        global_status=row["global_status"],
        china_availability=row["china_availability"],
        china_availability_date=row["china_availability_date"],
        framework_notes=row["framework_notes"],
        price=row["price"],
        price_currency=row["price_currency"] or "USD",
        price_basis=row["price_basis"],
        price_date=row["price_date"],
        price_source=row["price_source"],
        is_estimate=row["is_estimate"],
        source=row["source"],
    )


def model_from_row(row: dict[str, Any]) -> ModelArch:
    published = bool(row.get("use_published_params"))
    return ModelArch(
        key=row["key"],
        name=row["name"],
        layers=row["layers"],
        hidden_size=row["hidden_size"],
        attention_heads=row["attention_heads"],
        kv_heads=row["kv_heads"],
        head_dim=row["head_dim"],
        ffn_hidden_size=row["ffn_hidden_size"],
        vocab_size=row["vocab_size"],
        gated_ffn=row["gated_ffn"],
        tied_embeddings=row["tied_embeddings"],
        moe_experts=row.get("moe_experts"),
        moe_active_experts=row.get("moe_active_experts"),
        max_context_tokens=row.get("max_context_tokens"),
        arch_style=row.get("arch_style", "llama"),
        qkv_bias=bool(row.get("qkv_bias")),
        kv_lora_rank=row.get("kv_lora_rank"),
        qk_rope_head_dim=row.get("qk_rope_head_dim"),
        q_lora_rank=row.get("q_lora_rank"),
        qk_nope_head_dim=row.get("qk_nope_head_dim"),
        v_head_dim=row.get("v_head_dim"),
        moe_ffn_hidden_size=row.get("moe_ffn_hidden_size"),
        moe_shared_experts=row.get("moe_shared_experts") or 0,
        moe_dense_layers=row.get("moe_dense_layers") or 0,
        sliding_window_tokens=row.get("sliding_window_tokens"),
        sliding_window_layers=row.get("sliding_window_layers") or 0,
        local_attention=row.get("local_attention") or "sliding",
        linear_attention_layers=row.get("linear_attention_layers") or 0,
        linear_state_bytes=row.get("linear_state_bytes") or 0,
        native_precision=row.get("native_precision") or "bf16",
        rope_scaling_type=row.get("rope_scaling_type") or None,
        rope_scaling_factor=row.get("rope_scaling_factor"),
        rope_original_context_tokens=row.get("rope_original_context_tokens"),
        params_b=row.get("params_b"),
        active_params_b=row.get("active_params_b"),
        params_override_b=row.get("params_b") if published else None,
        active_params_override_b=row.get("active_params_b") if published else None,
        source=row["source"],
    )


def load_presets(data_dir: str | Path | None = None) -> dict[str, ModelArch]:
    return {row["key"]: model_from_row(row) for row in read_preset_rows(data_dir)}


def load_catalog(data_dir: str | Path | None = None) -> Catalog:
    """The whole catalogue; cached per directory (the records are immutable)."""
    return _load_catalog(str(_data_dir(data_dir).resolve()))


@lru_cache(maxsize=8)
def _load_catalog(data_dir: str) -> Catalog:
    return Catalog(
        accelerators={
            r["key"]: accelerator_from_row(r) for r in read_accelerator_rows(data_dir)
        },
        servers={r["key"]: ServerPlatform(**r) for r in read_server_rows(data_dir)},
        networks={r["key"]: NetworkOption(**r) for r in read_network_rows(data_dir)},
        storage_tiers={r["key"]: StorageTier(**r) for r in read_storage_rows(data_dir)},
        presets=load_presets(data_dir),
    )
