"""Spec claims in bid texts against the catalog's datasheet figures.

The catalog rows are read from sizing/data/accelerators.csv (the figures the app
compares with; each row's source is there). The published figures asserted below are
from shared/reference/hardware-facts.md: H100 SXM 80 GB HBM3, 989 BF16 / 1,979 FP8
dense, NVLink 4 900 GB/s, DGX H100 10.2 kW max (NVIDIA H100 datasheet, DGX H100 user
guide); H100 NVL 94 GB HBM3; H200 141 GB HBM3e; H20 96 GB HBM3, 296 FP8 dense; B200
180 GB usable / 192 GB physical; H800 NVLink cut to 400 GB/s; NDR = 400 Gb/s.
"""

import pytest

from sizing.engine.catalog import Accelerator
from sizing.reference_data import read_accelerator_rows
from vendors.engine.spec_claims import (
    BidSpec,
    ClaimKind,
    ClaimStatus,
    check_spec_claims,
    datasheet_from_row,
)

SHEETS = {row["key"]: datasheet_from_row(row) for row in read_accelerator_rows()}
H100 = "h100-sxm-80gb"


def claims(text: str, key: str | None = H100, **fields):
    sheet = SHEETS[key] if key else None
    return check_spec_claims(BidSpec(proposal_text=text, **fields), sheet)


def only(text: str, kind: ClaimKind, key: str | None = H100, **fields):
    found = [c for c in claims(text, key, **fields) if c.kind == kind]
    assert len(found) == 1, found
    return found[0]


# --- the wrong seed claims are flagged, with the datasheet figure ---------------------


@pytest.mark.parametrize(
    "text",
    [
        "本方案提供 64 张 H100 96GB HBM3e GPU。",
        "We offer 64 NVIDIA H100 96 GB HBM3e GPUs.",
    ],
)
def test_h100_96gb_hbm3e_is_flagged_on_memory_and_type(text):
    memory = only(text, ClaimKind.MEMORY_GB)
    assert memory.status == ClaimStatus.MISMATCH
    assert memory.claimed[0] == "96 GB"
    assert memory.datasheet[0].startswith("80 GB")
    assert "H100" in memory.source
    kind = only(text, ClaimKind.MEMORY_TYPE)
    assert kind.status == ClaimStatus.MISMATCH
    assert kind.claimed[0] == "HBM3e"
    assert kind.datasheet[0].startswith("HBM3 ")


@pytest.mark.parametrize(
    "text",
    [
        "Each 8xH100 server draws only 4.8 kW.",
        "8卡 H100 服务器整机功耗仅 4.8 kW，节能环保。",
    ],
)
def test_8x_h100_server_at_4_8_kw_is_flagged(text):
    power = only(text, ClaimKind.SERVER_POWER_KW)
    assert power.status == ClaimStatus.MISMATCH
    assert power.claimed[0].startswith("4.8 kW")
    # DGX H100 ~10.2 kW max (DGX H100 user guide); 4.8 / 10.2 = 47%
    assert power.datasheet[0].startswith("10.2 kW max")
    assert power.note[0] == "47% of the platform maximum"


@pytest.mark.parametrize(
    ("text", "precision", "dense"),
    [
        ("H100 BF16 算力 1979 TFLOPS。", "BF16", "989 dense"),
        ("H100 delivers 3,958 TFLOPS of FP8 compute.", "FP8", "1,979 dense"),
        ("H100 FP8 稠密算力 3958 TFLOPS。", "FP8", "1,979 dense"),
    ],
)
def test_sparse_tflops_sold_as_dense_are_flagged(text, precision, dense):
    claim = only(text, ClaimKind.TFLOPS)
    assert claim.status == ClaimStatus.MISMATCH
    assert precision in claim.claimed[0]
    assert claim.datasheet[0].startswith(dense)
    assert claim.note[0] == "the sparse (2:4) figure, sold as dense"
    assert claim.note[1] == "把稀疏（2:4）算力当作稠密算力"


@pytest.mark.parametrize(
    "text",
    [
        "The H100 nodes use NVLink 5.0 for GPU-to-GPU traffic.",
        "H100 采用第五代 NVLink 互联。",
    ],
)
def test_nvlink_of_the_wrong_generation_is_flagged(text):
    claim = only(text, ClaimKind.SCALEUP_GENERATION)
    assert claim.status == ClaimStatus.MISMATCH
    assert claim.claimed[0] == "NVLink 5"
    assert claim.datasheet[0].startswith("NVLink 4")


def test_nvlink_bandwidth_of_the_next_generation_is_flagged():
    claim = only("H100 卡间 NVLink 带宽 1.8 TB/s。", ClaimKind.SCALEUP_GBS)
    assert claim.status == ClaimStatus.MISMATCH
    assert claim.claimed[0] == "1,800 GB/s"
    assert claim.datasheet[0].startswith("900 GB/s per GPU, both directions")


def test_h800_sold_with_the_full_h100_nvlink_is_flagged():
    claim = only("H800 NVLink 900GB/s 全互联。", ClaimKind.SCALEUP_GBS, "h800-sxm-80gb")
    assert claim.status == ClaimStatus.MISMATCH
    assert claim.datasheet[0].startswith("400 GB/s")  # cut NVLink (DeepSeek ISCA)


def test_nic_faster_than_its_infiniband_generation_is_flagged():
    claim = only("每台服务器配 8 块 NDR 800G 网卡。", ClaimKind.NIC_GBPS)
    assert claim.status == ClaimStatus.MISMATCH
    assert claim.datasheet[0] == "InfiniBand NDR: at most 400 Gb/s per port"


def test_peak_power_field_below_the_platform_is_flagged():
    # 38.4 kW over 64 / 8 = 8 servers = 4.8 kW each, 47% of 10.2 kW
    claim = only("", ClaimKind.SERVER_POWER_KW, gpu_count=64, peak_power_kw=38.4)
    assert claim.status == ClaimStatus.MISMATCH
    assert claim.claimed[0].startswith("4.8 kW per 8-GPU server")


# --- correct claims pass ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "text", "memory_gb", "memory_type"),
    [
        ("h100-nvl-94gb", "H100 NVL 94GB HBM3，双卡 NVLink 桥接。", "94 GB", "HBM3"),
        (H100, "Each H100 SXM5 GPU has 80 GB of HBM3 memory.", "80 GB", "HBM3"),
        ("h200-sxm-141gb", "H200 单卡显存 141GB HBM3e。", "141 GB", "HBM3e"),
        ("h20-sxm-96gb", "H20 显存 96GB HBM3，适合推理。", "96 GB", "HBM3"),
        # 192 GB physical vs 180 GB usable (+6.7%, within the 7% tolerance)
        ("b200-sxm-180gb", "B200 with 192GB HBM3e per GPU.", "192 GB", "HBM3e"),
    ],
)
def test_honest_memory_claims_pass(key, text, memory_gb, memory_type):
    memory = only(text, ClaimKind.MEMORY_GB, key)
    assert (memory.status, memory.claimed[0]) == (ClaimStatus.OK, memory_gb)
    kind = only(text, ClaimKind.MEMORY_TYPE, key)
    assert (kind.status, kind.claimed[0]) == (ClaimStatus.OK, memory_type)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        (H100, "H100 BF16 1,979 TFLOPS with sparsity (989 TFLOPS dense)."),
        (H100, "H100 FP8 算力 3958 TFLOPS（稀疏），稠密 1979 TFLOPS。"),
        ("h100-nvl-94gb", "H100 NVL BF16 1,671 TFLOPS（稀疏）, 835 TFLOPS 稠密。"),
        ("h20-sxm-96gb", "H20 FP8 稠密算力 296 TFLOPS。"),
        (H100, "DGX H100 delivers 32 PFLOPS of FP8 with sparsity per server."),
        (H100, "集群总算力 63 PFLOPS BF16（稠密）。"),  # 64 x 989 = 63.3 PF
    ],
)
def test_honest_tflops_claims_pass(key, text):
    found = claims(text, key, gpu_count=64)
    tflops = [c for c in found if c.kind == ClaimKind.TFLOPS]
    assert tflops
    assert all(c.status == ClaimStatus.OK for c in tflops), tflops


@pytest.mark.parametrize(
    "text",
    [
        "DGX H100 server: 10.2 kW max.",
        "每台 H100 服务器最大功耗 10.2 kW。",
        "8卡 H100 服务器典型功耗 7 kW。",  # typical 6.5-8.5 kW (hardware-facts 4)
    ],
)
def test_honest_server_power_claims_pass(text):
    assert only(text, ClaimKind.SERVER_POWER_KW).status == ClaimStatus.OK


def test_honest_nvlink_and_nic_claims_pass():
    text = (
        "H100 第四代 NVLink 900GB/s 双向，单向 450 GB/s。"
        "每 GPU 配一块 ConnectX-7 400G NDR 网卡。"
    )
    found = claims(text)
    kinds = sorted(str(c.kind) for c in found)
    assert kinds == [
        "nic_gbps",
        "nic_gbps",
        "scaleup_gbs",
        "scaleup_gbs",
        "scaleup_generation",
    ]
    assert all(c.status == ClaimStatus.OK for c in found), found


def test_peak_power_field_at_the_platform_passes():
    claim = only("", ClaimKind.SERVER_POWER_KW, gpu_count=64, peak_power_kw=81.6)
    assert claim.status == ClaimStatus.OK


# --- what is not the bid's claim, or cannot be checked ---------------------------------


def test_figures_of_another_part_or_sku_are_not_the_bids_claims():
    text = (
        "Unlike the A100 40GB HBM2, our H100 80GB HBM3 runs 989 TFLOPS BF16. "
        "8卡 H100 PCIe 服务器整机功耗约 5 kW。DGX H100 640 GB GPU memory in all."
    )
    found = claims(text)
    assert [(str(c.kind), c.claimed[0]) for c in found] == [
        ("memory_gb", "80 GB"),
        ("memory_type", "HBM3"),
        ("tflops", "989 TFLOPS BF16 (not labelled)"),
    ]
    assert all(c.status == ClaimStatus.OK for c in found)


def test_the_8_gpu_server_memory_is_not_a_per_gpu_claim():
    assert claims("DGX H200 1,128 GB HBM3e 总显存。", "h200-sxm-141gb")[0].kind == (
        ClaimKind.MEMORY_TYPE
    )
    assert not [
        c
        for c in claims("DGX H200 1,128 GB HBM3e 总显存。", "h200-sxm-141gb")
        if c.kind == ClaimKind.MEMORY_GB
    ]


def test_a_figure_the_catalog_lacks_is_unverifiable():
    # no published HGX H20 server power (hardware-facts.md section 7)
    claim = only(
        "8卡 H20 服务器整机功耗 6.5 kW。", ClaimKind.SERVER_POWER_KW, "h20-sxm-96gb"
    )
    assert claim.status == ClaimStatus.UNVERIFIABLE
    assert claim.datasheet[0].startswith("not in the catalog")


def test_tflops_without_a_precision_are_unverifiable():
    claim = only("H100 单卡算力高达 1979 TFLOPS。", ClaimKind.TFLOPS)
    assert claim.status == ClaimStatus.UNVERIFIABLE
    assert claim.datasheet == ("precision not stated", "未注明精度")


def test_without_a_catalog_row_every_claim_is_unverifiable():
    found = claims("96GB HBM3e, 8-GPU server 4.8 kW", key=None)
    assert found
    assert {c.status for c in found} == {ClaimStatus.UNVERIFIABLE}


def test_an_honest_proposal_without_figures_has_no_claims():
    text = (
        "针对贵司 70B 模型训练，每 GPU 配一块 400 Gb/s InfiniBand 网卡，调度采用 Slurm。"
        "We sized storage for 2 TB of data and 500 TB of checkpoints."
    )
    assert claims(text) == []


def test_claims_read_the_bid_fields_too():
    bid = BidSpec(server_model="HGX H100 8-GPU", scaleup_link="NVLink 5 / NVSwitch")
    (claim,) = check_spec_claims(bid, SHEETS[H100])
    assert (claim.kind, claim.status) == (
        ClaimKind.SCALEUP_GENERATION,
        ClaimStatus.MISMATCH,
    )


def test_as_dict_speaks_the_language_asked():
    claim = only("H100 96GB", ClaimKind.MEMORY_GB)
    assert claim.as_dict("zh-hans") == {
        "kind": "memory_gb",
        "claim": "H100 96GB",
        "claimed": "96 GB",
        "datasheet": "80 GB (H100 SXM5 80GB)",
        "status": "mismatch",
        "source": SHEETS[H100].source,
        "note": "",
    }
    power = only("8xH100 server 4.8 kW", ClaimKind.SERVER_POWER_KW)
    assert power.as_dict("zh-hans")["datasheet"].startswith(
        "每台 8 卡服务器最大 10.2 kW"
    )


def test_datasheet_from_row_reads_model_and_csv_names():
    sheet = datasheet_from_row(
        {"key": "x", "model": "X 1", "memory_gb": "80", "bf16_dense_tflops": None}
    )
    assert sheet == Accelerator(key="x", name="X 1", memory_gb=80.0)
