"""Shared builders for the vendor tests (no tests here)."""

from __future__ import annotations

from decimal import Decimal

from vendors.services import bids, suppliers

BALANCED_TEXT = (
    "针对贵司在上海本地机房的 70B 大模型继续预训练与推理服务，我们设计了计算、网络、存储均衡的方案："
    "每 GPU 400 Gb/s InfiniBand 网络，并行文件系统提供 500 TB 容量。调度采用 Slurm 与 Kubernetes，"
    "支持 PyTorch、Megatron-LM 与 vLLM。"
)
GPU_ONLY_TEXT = "为上海本地机房的 70B 模型训练提供 8 台 8 卡 H100 服务器，交付周期 6 周，调度使用 Slurm。"
TEMPLATE_TEXT = "我们是行业领先的解决方案提供商，保证100%没问题，包在我们身上。采用自研调度平台，性能卓越。"


def line(category, quantity, unit_price, recurring=False, description=""):
    return {
        "category": category,
        "description": description or category,
        "quantity": Decimal(str(quantity)),
        "unit_price": Decimal(str(unit_price)),
        "recurring": recurring,
    }


BALANCED_LINES = [
    line("gpu_servers", 8, 2_000_000),
    line("network", 1, 1_200_000),
    line("storage", 1, 800_000),
    line("software", 1, 100_000, recurring=True),
    line("installation", 1, 150_000),
    line("support", 1, 300_000, recurring=True),
    line("power_cooling", 1, 400_000),
    line("training", 1, 50_000),
]


def make_vendor(org, name="Balanced Systems", **values):
    return suppliers.create_vendor(organisation=org, name=name, **values)


def make_bid(procurement, vendor, *, lines=None, **values):
    defaults = {
        "accelerator": "h100-sxm-80gb",
        "gpu_count": 64,
        "scheduler": "slurm",
        "proposal_text": BALANCED_TEXT,
        "network_gbps_per_gpu": 400,
        "storage_tb": 500,
        "storage_read_gbs": 80,
        "storage_write_gbs": 40,
        "cooling": "air",
        "peak_power_kw": 81.6,
        "warranty_years": Decimal(3),
    }
    defaults.update(values)
    return bids.create_bid(
        procurement=procurement,
        vendor=vendor,
        line_items=BALANCED_LINES if lines is None else lines,
        **defaults,
    )


def three_bids(procurement, org):
    """A GPU-only quote, an over-promising template proposal and a balanced bid."""
    gpu_only = make_bid(
        procurement,
        make_vendor(org, "GPU Box Ltd"),
        lines=[line("gpu_servers", 8, 1_900_000)],
        proposal_text=GPU_ONLY_TEXT,
    )
    template = make_bid(
        procurement,
        make_vendor(org, "Promise Corp"),
        lines=[
            line("gpu_servers", 8, 1_800_000),
            line("network", 1, 1_000_000),
            line("storage", 1, 700_000),
            line("software", 1, 50_000),
        ],
        scheduler="proprietary",
        frameworks=["PromiseAI Suite"],
        proposal_text=TEMPLATE_TEXT,
        promised_training_days=3,
    )
    balanced = make_bid(procurement, make_vendor(org, "Balanced Systems"))
    return gpu_only, template, balanced


def at_decision_stage(procurement):
    """The procurement moved to stage 5, where a decision may be recorded
    (`vendors.services.stages.decision_refusal`)."""
    from clusterbuy.models import Procurement, Stage

    Procurement.objects.filter(pk=procurement.pk).update(stage=Stage.DECISION)
    procurement.stage = Stage.DECISION
    return procurement
