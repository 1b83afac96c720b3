"""The 50-bid procurement the comparison benchmarks measure (no benchmark here).

`fill_demo_procurement` adds bids to the demo procurement (which has a sizing plan and
three scored bids, see `vendors.demo`) until it holds ``count`` bids: copies of the
demo's three kinds of bid (balanced, GPU-only, template) with their own vendor, prices
and proposal wording, each scored by demo-it on every technical criterion. Everything
goes through the services, as a user would enter it. Idempotent.
"""

from __future__ import annotations

import random
from decimal import Decimal

BIDS = 50

# Sentences a bid's proposal adds to its kind's demo text, six per bid chosen by its
# number, so no two proposals are copies (the copied-proposal detector's limit is 70%
# 4-gram similarity; two bids of one kind share about half their text).
EXTRA_SENTENCES = [
    "Racks are delivered pre-cabled and burned in for 72 hours before shipment.",
    "机柜出厂前完成整机预布线与 72 小时老化测试。",
    "A resident engineer stays on site for the first month of production.",
    "首月驻场工程师一名，负责作业调度与故障处理。",
    "Spare parts (two servers' worth of DIMMs, PSUs and fans) are kept in Shanghai.",
    "备件库设在上海，含两台服务器的内存、电源与风扇。",
    "The fabric is validated with NCCL all-reduce tests at every leaf switch.",
    "网络交付时在每台叶交换机上运行 NCCL all-reduce 测试并提交报告。",
    "Firmware and driver upgrades are scheduled quarterly in agreed windows.",
    "固件与驱动每季度在约定窗口内统一升级。",
    "Checkpoint traffic is isolated on its own storage VLAN.",
    "检查点流量走独立的存储网络，不与训练通信争用带宽。",
    "Power distribution uses dual 63 A feeds per rack with metered PDUs.",
    "每个机柜双路 63 安供电，配计量型 PDU。",
    "Operators receive five days of hands-on Slurm and Kubernetes training.",
    "为运维人员提供五天 Slurm 与 Kubernetes 实操培训。",
    "Monthly health reports list ECC errors, thermal events and job failures.",
    "每月提交健康报告，列出 ECC 错误、温度事件与作业失败。",
    "Acceptance runs a 48-hour Megatron-LM training job at agreed throughput.",
    "验收时以 Megatron-LM 连续训练 48 小时并达到约定吞吐。",
    "Software licences are perpetual; support renewals are priced separately.",
    "软件许可为永久授权，维保续费单独报价。",
    "A named account manager answers within one business day.",
    "指定客户经理，一个工作日内答复商务问题。",
]


def demo_procurement():
    from clusterbuy.models import Procurement

    return Procurement.objects.get(name__startswith="大模型训练")


def fill_demo_procurement(count: int = BIDS):
    from django.db import transaction

    from vendors import demo
    from vendors.models import Bid, ChecklistCriterion
    from vendors.services import bids, evaluation, suppliers

    procurement = demo_procurement()
    org = procurement.organisation
    buyer = org.memberships.get(user__username="demo-buyer").user
    scorer = org.memberships.get(user__username="demo-it").user
    # The demo's three bids, sized to its plan (vendors.demo builds them the same way).
    kinds = list(demo._bids(procurement, demo._plan_facts(procurement)).items())
    settings_row = evaluation.ensure_evaluation_settings(procurement=procurement)
    criteria = list(
        ChecklistCriterion.objects.filter(
            section__template_id=settings_row.template_id, section__auto_price=False
        ).order_by("id")
    )
    n = Bid.objects.filter(procurement=procurement).count()
    while n < count:
        key, values = kinds[n % len(kinds)]
        values = dict(values)
        values["line_items"] = [
            {**item, "unit_price": item["unit_price"] * (1 + Decimal(n) / 200)}
            for item in values["line_items"]
        ]
        extra = random.Random(n).sample(EXTRA_SENTENCES, 6)
        values["proposal_text"] = " ".join([values["proposal_text"], *extra])
        values["delivery_weeks"] = 6 + n % 9
        with transaction.atomic():
            vendor = suppliers.create_vendor(
                organisation=org, name=f"Bench {key} vendor {n:02d}", kind="integrator"
            )
            bid = bids.create_bid(
                procurement=procurement, vendor=vendor, user=buyer, **values
            )
            evaluation.record_scores(
                bid=bid,
                automatic={},  # bench marks: nothing to hold them against
                evaluator=scorer,
                scores=[
                    evaluation.ScoreMark(c.pk, (n + i) % 6)
                    for i, c in enumerate(criteria)
                ],
            )
        n += 1
    return procurement
