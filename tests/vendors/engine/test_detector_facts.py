"""Issue 24: the detectors judge facts - figures against their physical floor or
ceiling, access and licence answers, the plan's bill of materials, the RFP's own text
- and quote the bid's sentence as the evidence."""

import json
from decimal import Decimal

import pytest

from tco.engine.bill_of_materials import ClusterScale
from tco.price_book import price_book
from vendors.engine.compliance import PlanNeeds
from vendors.engine.detectors import (
    Fact,
    FactCode,
    LineItemFacts,
    PitfallCode,
    below_floor,
    delivery_floor,
    detect_closed_ecosystem,
    detect_gpu_only,
    detect_over_promising,
    detect_template_proposal,
    network_need_for,
)
from vendors.engine.detectors.gpu_only import scale_of
from vendors.engine.detectors.originality import design_topics, shared_own_text
from vendors.engine.detectors.plan_bom import plan_bom

# 12 x 8 x H200, 8 x 400G a node, 1.1 PB (the blind corpus's procurement)
NEEDS = PlanNeeds(
    gpu_count=96,
    vram_gb_per_gpu=141,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1100,
    storage_read_gbs=40,
    storage_write_gbs=20,
    it_power_kw=125,
)


def test_the_delivery_floor_for_twelve_nodes_is_26_days():
    # supply 14 + installation 2 + 12 x 0.25 + bring-up 2 + burn-in 72 h + acceptance 2
    floor = delivery_floor(96, nodes=12)
    assert floor.installation_days == 5
    assert floor.burn_in_days == 3
    assert floor.total_days == 26
    assert floor.arrival_days == 14
    assert delivery_floor(96).nodes == 12  # 8 GPUs a server when not stated
    assert delivery_floor(256, nodes=32).total_days == 31  # 14 + 2 + 8 + 2 + 3 + 2


@pytest.mark.parametrize(("weeks", "below"), [(1, True), (2, False), (16, False)])
def test_the_delivery_field_is_held_to_the_arrival_floor(weeks, below):
    assert below_floor(weeks, delivery_floor(96, nodes=12)) is below


def test_seven_days_to_acceptance_is_flagged_whatever_the_penalty():
    text = "合同签订后 7 天内完成全部 96 张 H200 的交付及验收，逾期按每天 0.5‰ 支付违约金。"
    found = detect_over_promising(text, gpu_count=96, nodes=12)
    assert [p.facts for p in found] == [
        (
            Fact(
                FactCode.DELIVERY_FLOOR,
                {"offered_days": 7.0, "floor_days": 26.0, "gpu_count": 96, "nodes": 12},
            ),
        )
    ]
    assert found[0].evidence == (
        "合同签订后 7 天内完成全部 96 张 H200 的交付及验收，逾期按每天 0.5‰ 支付违约金",
    )


@pytest.mark.parametrize(
    "text",
    [
        "到货后 3 天完成安装，72 小时拷机，签约后 10 周完成验收。",  # a step, then 10 weeks
        "合同签订后 3 周内服务器到货，第 9 周完成验收。",  # arrival 21 days >= 14
        "故障备件 2 个工作日内送达，4 小时到场。",  # not a delivery
        "预计 2 周内完成交付及验收。",  # an estimate
    ],
)
def test_a_schedule_a_step_or_an_estimate_is_not_below_the_floor(text):
    assert detect_over_promising(text, gpu_count=96, nodes=12) == []


def test_mfu_above_the_best_published_is_flagged_with_its_penalty():
    found = detect_over_promising("MFU ≥ 60 %，未达标扣 1% 合同款。")
    assert found[0].facts == (
        Fact(FactCode.MFU_CEILING, {"claimed": 0.6, "ceiling": 0.552}),
    )
    assert detect_over_promising("按 MFU 35%～40% 估算，训练约 28 天。") == []


def test_a_training_time_in_the_text_below_the_lower_bound_is_flagged():
    found = detect_over_promising(
        "我方承诺 5 天完成 70B 模型训练。", training_days_lower_bound=17.6
    )
    assert [p.facts for p in found] == [
        (Fact(FactCode.LOWER_BOUND_DAYS, {"days": 17.6}),)
    ]


def test_throughput_beyond_twice_the_engine_is_flagged():
    # the engine gives 2,642 tokens/s: 4,000 is within twice, 100,000 is not
    assert (
        detect_over_promising("", promised_tokens_per_s=4000, engine_tokens_per_s=2642)
        == []
    )
    found = detect_over_promising(
        "2 台合计 ≥ 100,000 tokens/s。", engine_tokens_per_s=2642
    )
    assert found[0].facts == (
        Fact(FactCode.THROUGHPUT_CEILING, {"promised": 100000.0, "achievable": 2642.0}),
    )
    # a per-user figure is not the cluster's
    assert (
        detect_over_promising("每用户 decode ≥ 20 tokens/s。", engine_tokens_per_s=5)
        == []
    )


@pytest.mark.parametrize(
    ("pct", "flagged"), [(99.9, False), (99.95, False), (99.99, True)]
)
def test_availability_above_one_site_is_flagged(pct, flagged):
    assert bool(detect_over_promising("", availability_pct=pct)) is flagged


@pytest.mark.parametrize(
    "text",
    [
        "我司郑重承诺：保证所投产品均为原厂全新正品，完全响应招标文件全部条款。",
        "原则上我方保证 4 小时内到场。",
        "一般情况下保证 2 小时响应。",
        "我方保证 4 小时到场。\n备件库设在上海。\n未达标按 service-credit 抵扣。",
        "We guarantee a 4-hour response. Spares are in Shanghai. Service-credit applies.",
        "以轨道优化方式接入叶交换机，保证无阻塞通信。",
    ],
)
def test_boilerplate_hedges_and_backed_guarantees_are_not_over_promises(text):
    assert detect_over_promising(text) == []


def test_an_absolute_stays_an_over_promise_with_a_penalty():
    found = detect_over_promising("5年内集群零故障运行，系统可用性100%，未达标赔付。")
    assert [e.split("”")[0].lstrip("“") for e in found[0].evidence] == [
        "零故障",
        "100%",
    ]


# --- closed_ecosystem ----------------------------------------------------------------


def test_compatible_with_slurm_scripts_under_a_slurm_field_is_still_closed():
    text = "平台全面兼容 Slurm 作业脚本，由平台解析后自动转换为星河作业。"
    found = detect_closed_ecosystem(
        "slurm",
        ("PyTorch",),
        text,
        root_access="limited",
        native_scheduler_access="wrapped",
        licence_fee="按每节点每年 36,000 元收取",
        expansion_terms="新增节点须购买星河智算OS节点授权",
    )
    assert [p.code for p in found] == [PitfallCode.CLOSED_ECOSYSTEM]
    assert found[0].facts == (
        Fact(FactCode.ACCESS, {"field": "root_access", "value": "limited"}),
        Fact(FactCode.ACCESS, {"field": "native_scheduler_access", "value": "wrapped"}),
    )
    assert found[0].evidence == (
        "“按每节点每年 36,000 元收取”: 按每节点每年 36,000 元收取",
        "“新增节点须购买”: 新增节点须购买星河智算OS节点授权",
    )


@pytest.mark.parametrize(
    "text",
    [
        "所有任务均通过秦岭平台Web控制台或平台SDK提交。",
        "不向用户开放root权限。",
        "平台授权按GPU计费：每卡每年6,500元。",
    ],
)
def test_access_and_licence_locks_in_the_text_are_closed(text):
    assert detect_closed_ecosystem("kubernetes", ("PyTorch",), text) != []


def test_open_answers_and_denied_fees_are_open():
    assert (
        detect_closed_ecosystem(
            "slurm",
            ("PyTorch",),
            "原生 Slurm，root 开放，无按卡授权费；可自行扩容，组件开源，不需授权。",
            root_access="yes",
            native_scheduler_access="open",
            job_submission="sbatch/srun",
            licence_fee="无",
            expansion_terms="采购人可自行增配节点，不需我司授权",
        )
        == []
    )


# --- gpu_only: the plan's bill of materials ------------------------------------------


def _items(network, storage):
    return (
        LineItemFacts("gpu_servers", Decimal("28680000")),
        LineItemFacts("network", Decimal(network)),
        LineItemFacts("storage", Decimal(storage)),
        LineItemFacts("software", Decimal("120000")),
    )


BOOK = price_book()
# The plan's design: 12 x 8 GPUs, 8 x 400G NICs a node, 64-port switches,
# rail-optimised; 1.1 PB at the performance tier.
SCALE = ClusterScale(gpu_count=96, storage_tb=1100, storage_tier="pfs-best")


def test_the_plan_bom_is_the_tco_bill_of_materials_at_the_price_book():
    # sizing.engine.fat_tree for 96 endpoints on 64 ports: 4 rail leaves (2 rails of
    # 12 a leaf in 32 down ports) + ceil(96/64) = 2 spines, 96 + 96 links. Price book
    # (tco/data/price_book.csv) at the default 7.2 CNY/USD: a port 562.5 USD = 4,050,
    # a link 810 USD = 5,832, the performance tier 400 USD/TB = 2,880.
    bom = plan_bom(SCALE, BOOK)
    # 6 x 64 x 4,050 + 192 x 5,832 = 1,555,200 + 1,119,744
    assert bom.network_cny == Decimal(2_674_944)
    assert bom.storage_cny == Decimal(3_168_000)  # 1,100 x 2,880
    assert bom.basis("network").startswith("12 nodes: 6 switches x 64 ports")
    # the plan's needs alone give the same design (one 400G NIC a GPU at >= 200 Gb/s)
    assert plan_bom(scale_of(NEEDS), BOOK).network_cny == Decimal(2_674_944)


def test_a_plan_without_a_storage_tier_is_held_at_the_capacity_tier():
    # the bar is a floor: 1,100 TB x 200 USD x 7.2 = 1,584,000 (not 2,880/TB)
    bom = plan_bom(ClusterScale(gpu_count=96, storage_tb=1100), BOOK)
    assert bom.storage_cny == Decimal(1_584_000)


def test_the_rfps_leaf_switches_and_optics_at_quoted_prices_are_not_gpu_only():
    # 4 x QM9700 at 318,000 (blind bid 44's quote) + 96 x 7,000 optics and cables
    # (blind bid 11's) = 1,944,000: above half of the plan's 2,674,944 (1,337,472)
    found = detect_gpu_only(
        _items("1944000", "3000000"),
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=45,
        needs=NEEDS,
        plan_scale=SCALE,
        price_book=BOOK,
    )
    assert found == []


def test_a_token_network_line_is_below_the_plan_bom():
    found = detect_gpu_only(
        _items("100000", "3000000"),
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=45,
        needs=NEEDS,
        plan_scale=SCALE,
        price_book=BOOK,
    )
    assert [f.params["category"] for p in found for f in p.facts] == ["network"]
    params = found[0].facts[0].params
    assert params["cost_cny"] == Decimal(2_674_944)
    assert params["floor_cny"] == Decimal(1_337_472)  # half of it
    # a decision freezes the comparison as JSON: the fact must serialise
    assert json.loads(json.dumps(params))["offered_cny"] == 100_000


def test_without_the_price_book_the_plan_bom_is_not_checked():
    found = detect_gpu_only(
        _items("100000", "3000000"),
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=45,
        needs=NEEDS,
    )
    assert found == []


def test_a_lump_sum_that_declares_its_scope_covers_the_category():
    items = (
        LineItemFacts("gpu_servers", Decimal("28680000")),
        LineItemFacts(
            "other", Decimal("9000000"), description="服务包，含网络、存储及安装"
        ),
        LineItemFacts("software", Decimal("120000")),
    )
    assert detect_gpu_only(items) == []


def test_a_lump_sum_with_a_declared_scope_field_covers_the_category():
    # the vendor's structured answer (BidLineItem.scope), the description silent
    items = (
        LineItemFacts("gpu_servers", Decimal("28680000")),
        LineItemFacts("other", Decimal("9000000"), scope=("network", "storage")),
        LineItemFacts("software", Decimal("120000")),
    )
    assert detect_gpu_only(items) == []
    found = detect_gpu_only(
        items,
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=45,
        needs=NEEDS,
        plan_scale=SCALE,
        price_book=BOOK,
    )
    assert found == []  # 9,000,000 covers both halves of the plan's costs


def test_the_network_need_scales_with_the_offered_gpus_compute():
    # 910B at 313 TFLOPS against the H200's 989: 400 x 313 / 989 = 126.6 Gb/s
    assert network_need_for(400, 989, 313) == pytest.approx(126.59, abs=0.01)
    assert network_need_for(400, 989, 2250) == 400  # never above the plan's


# --- template_proposal ---------------------------------------------------------------

RFP = (
    "计算节点：不少于12台8卡HGX H200 SXM（141GB）服务器，合计96卡。计算网络：每节点"
    "8×400Gb/s NDR InfiniBand或400G RoCE，轨道优化无阻塞组网，须包含96个节点端口的网卡、"
    "2～4台64口400G叶交换机及全部线缆、光模块。并行文件存储：可用容量不低于1.1PB，"
    "聚合读带宽不低于40GB/s，聚合写带宽不低于20GB/s。"
)


def test_the_rfp_copied_back_is_a_template():
    found = detect_template_proposal(
        RFP, rfp_text=RFP + "交付与验收：合同签订后16周内。"
    )
    assert [f.code for p in found for f in p.facts] == [FactCode.RFP_ECHO]
    assert found[0].facts[0].params["share"] == 1.0


def test_design_topics_are_read_from_the_vendors_own_work():
    assert design_topics("TP=8、PP=4、DP=3；完整检查点约 1 TB，约 20 s 写完。") == (
        "parallelism",
        "checkpoint",
    )
    assert design_topics("我司实力雄厚，服务完善。") == ()


def test_text_shared_with_one_bid_only_survives_rewording():
    a = (
        "计算网络基于400G Infiniband NRD，每台节点提供8个400G端口，以轨道优化方式接入"
        "4台64端口叶交换机；存储网络每节点2×200G，管理网络双上联冗于设计，杜绝单点故障。"
        "存储提供可用容量1.2PB的并行文件系统，元数据服务主备冗于，可支撑检查点的快速写入。"
    )
    b = (
        a.replace("杜绝", "避免")
        .replace("每台节点", "每节点")
        .replace("可支撑", "支撑")
    )
    third = (
        "存储采用分布式并行文件系统，可用容量1.2PB，读带宽45GB/s，写带宽22GB/s，"
        "元数据服务采用双活部署；计算网每节点8块CX7网卡，接入两台QM9700交换机。"
    )
    # most of what a and b share is theirs alone; the third bid shares almost nothing
    assert shared_own_text(a, b, [b, third]) > 0.5
    assert shared_own_text(a, third, [b, third]) < 0.05
