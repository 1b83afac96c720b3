"""Demo vendors and bids for the demo procurement, showing the detectors at work.

Three bids: a GPU-only quote, an over-promising template proposal with a proprietary
scheduler, and a balanced bid (Slurm + Kubernetes, full service, a case study with a
site visit). demo-it and demo-buyer score all three. Idempotent: run twice, nothing
doubles (vendors and bids are looked up by name, scores are updated in place).
"""

from __future__ import annotations

import copy
from decimal import Decimal

from sizing.services import PlanSummary

from .models import Bid, CaseStudy, Vendor
from .services import bids, evaluation, plan_facts, suppliers

BALANCED_TEXT = (
    "针对贵司在上海本地机房部署的 70B 大模型继续预训练与推理服务，我们与贵司 IT 团队确认了训练数据量"
    "（约 2 TB，年增长 30%）和医疗影像数据必须本地化部署的要求，设计了计算、网络、存储均衡的集群："
    "每 GPU 配一块 400 Gb/s InfiniBand 网卡的非阻塞胖树网络，并行文件系统满足检查点写入带宽。"
    "集群调度采用 Slurm 负责训练作业，Kubernetes 承载推理服务；支持 PyTorch、Megatron-LM、"
    "DeepSpeed 与 vLLM。运维提供 7x24 电话/微信/工单支持，监控覆盖 GPU 温度、功耗、利用率、"
    "ECC/Xid 错误、InfiniBand 链路错误、存储和作业状态，告警规则可按需配置。"
    "We visited the Shanghai site and sized the design for continued pre-training of the "
    "70B model plus the inference service."
)
GPU_ONLY_TEXT = (
    "提供 8 卡 GPU 服务器整机，原厂三年质保，六周交付，价格优惠。"
    "8-GPU servers with a 3-year warranty, delivered in six weeks."
)
TEMPLATE_TEXT = (
    "我们是行业领先的人工智能基础设施解决方案提供商，拥有丰富的项目经验和一流的技术团队。"
    "保证100%没问题，包在我们身上！采用自研调度平台，性能卓越，稳定可靠，"
    "全面满足客户的各种需求，助力企业数字化转型。"
)

VENDORS = {
    "balanced": {
        "name": "智算集成 Balanced Compute Co.",
        "kind": "integrator",
        "region": "上海 Shanghai",
        "contacts": "王工 wang@example.com",
        "slurm_experience": True,
        "kubernetes_experience": True,
        "other_ecosystem_experience": "Ray, Volcano",
        "certifications": "ISO 27001; NVIDIA Elite Partner",
    },
    "gpu_only": {
        "name": "卡多多服务器 GPU Box Ltd",
        "kind": "oem",
        "region": "深圳 Shenzhen",
        "contacts": "sales@example.com",
    },
    "template": {
        "name": "承诺科技 Promise Tech",
        "kind": "integrator",
        "region": "北京 Beijing",
        "contacts": "bd@example.com",
        "notes": "Proposal reads like a brochure.",
    },
}


def _line(category, description, quantity, unit_price, recurring=False) -> dict:
    return {
        "category": category,
        "description": description,
        "quantity": Decimal(str(quantity)),
        "unit_price": Decimal(str(unit_price)),
        "recurring": recurring,
    }


def _plan_facts(procurement) -> dict:
    plan = plan_facts.plan_summary(procurement=procurement) or PlanSummary()
    return {
        "accelerator": plan.accelerator or "h100-sxm-80gb",
        "gpu_count": int(plan.gpu_count or 64),
        "network_gbps_per_gpu": plan.network_gbps_per_gpu or 400,
        "storage_tb": plan.storage_tb or 500,
        "storage_read_gbs": plan.storage_read_gbs or 64,
        "storage_write_gbs": plan.storage_write_gbs or 20,
        "peak_power_kw": plan.it_power_kw or 81.6,
        "cooling": plan.cooling if plan.cooling in ("air", "liquid") else "air",
        "scaleup_domain_gpus": plan.scaleup_domain_gpus or 8,
    }


# Terms that do not depend on the sizing plan, per bid.
BID_TERMS = {
    "balanced": {
        "server_model": "8-GPU HGX server",
        "scaleup_link": "NVLink + NVSwitch",
        "network_fabric": "InfiniBand NDR",
        "delivery_weeks": 10,
        "warranty_years": Decimal(3),
        "support_channels": ["phone", "wechat", "ticket", "email", "on_site"],
        "response_hours": {"sev1": 0.5, "sev2": 4, "sev3": 24},
        "onsite_hours": 4,
        "availability_pct": 99.9,
        "monitoring": [
            "gpu_temperature",
            "power",
            "utilisation",
            "ecc_xid",
            "interconnect_errors",
            "storage",
            "job_status",
        ],
        "configurable_alerts": True,
        "scheduler": "slurm",
        "frameworks": ["Kubernetes", "PyTorch", "Megatron-LM", "DeepSpeed", "vLLM"],
        "team_engineers": 6,
        "team_dl_experience": True,
        "team_scheduler_experience": True,
        "proposal_text": BALANCED_TEXT,
    },
    "gpu_only": {
        "server_model": "8-GPU server",
        "delivery_weeks": 6,
        "warranty_years": Decimal(3),
        "support_channels": ["phone"],
        "response_hours": {"sev1": 24},
        "scheduler": "slurm",
        "frameworks": [],
        "proposal_text": GPU_ONLY_TEXT,
    },
    "template": {
        "server_model": "8-GPU server",
        "network_fabric": "RoCE",
        "network_gbps_per_gpu": 200,
        "delivery_weeks": 4,
        "warranty_years": Decimal(3),
        "support_channels": ["phone", "email"],
        "response_hours": {"sev1": 8, "sev2": 24},
        "availability_pct": 100,
        "monitoring": ["gpu_temperature"],
        "scheduler": "proprietary",
        "frameworks": ["PromiseAI Studio"],
        "proposal_text": TEMPLATE_TEXT,
    },
}

# The GPU server line per bid: (description, unit price in CNY per 8-GPU server).
SERVER_LINES = {
    "balanced": ("8-GPU HGX server", 2_100_000),
    "gpu_only": ("8-GPU server", 1_950_000),
    "template": ("8-GPU server", 1_850_000),
}

# The lines after the servers, per bid: (category, description, quantity, unit price
# in CNY, recurring per year).
OTHER_LINES = {
    "balanced": (
        ("network", "InfiniBand NDR switches, NICs, optics", 1, 2_600_000, False),
        ("storage", "Parallel file system", 1, 1_500_000, False),
        ("software", "Cluster management and monitoring", 1, 120_000, True),
        ("installation", "Racking, cabling, burn-in, acceptance", 1, 260_000, False),
        ("support", "7x24 support after warranty", 1, 450_000, True),
        ("power_cooling", "PDUs, UPS extension, in-row cooling", 1, 900_000, False),
        ("training", "Slurm/Kubernetes operations training", 1, 60_000, False),
    ),
    "gpu_only": (),
    "template": (
        ("network", "RoCE switches", 1, 1_600_000, False),
        ("storage", "Storage array", 1, 900_000, False),
        ("software", "PromiseAI Studio licence", 1, 400_000, False),
    ),
}


def _bids(procurement, facts: dict) -> dict[str, dict]:
    """The three bids' fields, sized to the demo plan: the balanced bid matches its
    network and storage, the template bid promises a third of the physical training
    time (the over-promising detector's cue)."""
    servers = max(1, -(-facts["gpu_count"] // 8))
    bound = plan_facts.training_lower_bound_days(
        procurement=procurement,
        accelerator_key=facts["accelerator"],
        gpu_count=facts["gpu_count"],
    )
    promised = round(bound / 3, 1) if bound else 1.0
    common = {
        "accelerator": facts["accelerator"],
        "gpu_count": facts["gpu_count"],
        "nodes": servers,
        "scaleup_domain_gpus": facts["scaleup_domain_gpus"],
        "cooling": facts["cooling"],
        "peak_power_kw": facts["peak_power_kw"],
    }
    sized = {
        "balanced": {
            key: facts[key]
            for key in (
                "network_gbps_per_gpu",
                "storage_tb",
                "storage_read_gbs",
                "storage_write_gbs",
            )
        },
        "gpu_only": {},
        "template": {
            "storage_tb": facts["storage_tb"],
            "promised_training_days": promised,
        },
    }
    return {
        key: {
            **common,
            **copy.deepcopy(terms),
            **sized[key],
            "line_items": _line_items(key, servers),
        }
        for key, terms in BID_TERMS.items()
    }


def _line_items(key: str, servers: int) -> list[dict]:
    description, unit_price = SERVER_LINES[key]
    return [
        _line("gpu_servers", description, servers, unit_price),
        *(_line(*values) for values in OTHER_LINES[key]),
    ]


# criterion code prefix -> points, per bid (the rest get the "default")
SCORES = {
    "balanced": {"default": 4, "arch_": 5, "svc_": 5, "case_": 4, "pit_": 5},
    "gpu_only": {"default": 2, "arch_": 1, "svc_": 1, "case_": 1, "pit_gpu": 0},
    "template": {"default": 2, "arch_": 1, "pit_": 0, "case_": 1, "svc_": 2},
}


def _points(table: dict, code: str) -> int:
    best = table["default"]
    match = ""
    for prefix, points in table.items():
        if prefix != "default" and code.startswith(prefix) and len(prefix) > len(match):
            best, match = points, prefix
    return best


def load(context: dict) -> None:
    organisation = context["organisation"]
    procurement = context["procurement"]
    users = context["users"]
    vendors: dict[str, Vendor] = {}
    for key, values in VENDORS.items():
        vendor = Vendor.objects.filter(
            organisation=organisation, name=values["name"]
        ).first()
        vendors[key] = vendor or suppliers.create_vendor(
            organisation=organisation, **values
        )
    facts = _plan_facts(procurement)
    bid_by_key: dict[str, Bid] = {}
    for key, values in _bids(procurement, facts).items():
        bid = Bid.objects.filter(procurement=procurement, vendor=vendors[key]).first()
        bid_by_key[key] = bid or bids.create_bid(
            procurement=procurement,
            vendor=vendors[key],
            user=users["demo-buyer"],
            **values,
        )
    study = CaseStudy.objects.filter(
        vendor=vendors["balanced"], client_industry="自动驾驶 Autonomous driving"
    ).first()
    if study is None:
        study = suppliers.create_case_study(
            vendor=vendors["balanced"],
            client_industry="自动驾驶 Autonomous driving",
            scenario="感知大模型训练 Perception foundation-model training, 256 GPUs",
            challenge="Checkpoint writes stalled training for 20 minutes each hour.",
            network_architecture="Two-tier InfiniBand NDR fat tree, one NIC per GPU.",
            storage_choice="Parallel file system with an NVMe tier for checkpoints.",
            solution_details="Rebalanced storage; Slurm with topology-aware placement.",
            outcome_before="训练吞吐 41% MFU，检查点停顿 20 分钟/小时",
            outcome_after="训练吞吐 52% MFU，检查点停顿 3 分钟/小时",
            site_visit_done=True,
            reference_contacted=True,
        )
    study.bids.add(bid_by_key["balanced"])
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    criteria = [
        c
        for s in settings_row.template.sections.prefetch_related("criteria")
        if not s.auto_price
        for c in s.criteria.all()
    ]
    for username, offset in (("demo-it", 0), ("demo-buyer", -1)):
        for key, bid in bid_by_key.items():
            for criterion in criteria:
                points = max(0, min(5, _points(SCORES[key], criterion.code) + offset))
                evaluation.record_score(
                    bid=bid,
                    criterion=criterion,
                    evaluator=users[username],
                    points=points,
                    note="demo",
                )
