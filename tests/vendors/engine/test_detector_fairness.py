"""Detectors that are fair (issue 12): honest proposals in Chinese and English -
hedged, negated, with contractual SLAs and open-source stacks - raise no flag in any
detector; bad ones raise theirs. A false flag on an honest vendor is as harmful as a
miss, so both lists are realistic proposal paragraphs, not single words."""

from decimal import Decimal

import pytest

from vendors.engine.compliance import PlanNeeds
from vendors.engine.detectors import (
    BidFacts,
    Fact,
    FactCode,
    LineItemFacts,
    PitfallCode,
    ProcurementFacts,
    detect_all,
    detect_closed_ecosystem,
    detect_gpu_only,
    detect_over_promising,
    detect_template_proposal,
)
from vendors.engine.detectors.stack import offered_stack
from vendors.engine.detectors.text import is_hedged, is_negated, sentences

NEEDS = PlanNeeds(
    gpu_count=128,
    vram_gb_per_gpu=80,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1000,
    storage_read_gbs=128,
    storage_write_gbs=64,
    it_power_kw=163.2,
)
# The procurement: 70B pre-training on 500 TB in Hangzhou; the city field is bilingual,
# as the demo's is ("上海 Shanghai"), and either name addresses it.
CONTEXT = ProcurementFacts(
    workload_kind="training",
    model_names=("Llama-3-70B",),
    model_params_b=70,
    data_tb=500,
    location="杭州 Hangzhou",
    needs=NEEDS,
)


def _item(category, amount, recurring=False):
    return LineItemFacts(category, Decimal(amount), recurring)


# GPU servers 81 % of the hardware (43.2M / 53.2M), with a paid software line ...
WITH_LICENCE = (
    _item("gpu_servers", "43200000"),
    _item("network", "6000000"),
    _item("storage", "4000000"),
    _item("software", "800000"),
    _item("support", "350000", recurring=True),
)
# ... and the same without one: the software is open source.
OPEN_SOURCE = tuple(i for i in WITH_LICENCE if i.category != "software") + (
    _item("installation", "500000"),
)


def _bid(text, *, lines=WITH_LICENCE, scheduler="slurm", frameworks=("PyTorch",)):
    """A bid that meets the plan's network and storage and brings no evidence, so
    only its words can raise or avoid a flag."""
    return BidFacts(
        line_items=lines,
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=160,
        proposal_text=text,
        scheduler=scheduler,
        frameworks=frameworks,
    )


HONEST = {
    "zh_no_absolute_guarantee": _bid(
        "针对贵司在杭州机房开展的 70B 模型预训练（语料约 500 TB），我方建议 16 台 8 卡"
        "H100 服务器，每 GPU 配一块 400 Gb/s InfiniBand 网卡。训练时长受数据质量、超参数"
        "与硬件故障率影响，我方不作绝对保证，按周提交实测 MFU 与吞吐报告。"
        "调度采用 Slurm，监控采用 Prometheus 与 Grafana。"
    ),
    "en_hedged_without_guarantee": _bid(
        "For the 70B pre-training run in Hangzhou on 500 TB of text we propose 16 HGX "
        "H100 nodes with one 400G NDR port per GPU. Linear scaling is not guaranteed: "
        "our measured scaling efficiency at 512 GPUs was 91%. Performance tuning is "
        "offered without guarantee of a specific speed-up, and we cannot guarantee "
        "zero downtime during firmware upgrades, which run in agreed maintenance "
        "windows.",
        scheduler="kubernetes",
    ),
    "en_sla_with_service_credits": _bid(
        "We size the cluster for pre-training Llama-3-70B on 500 TB held on-prem in "
        "Hangzhou. The vendor guarantees a 4-hour on-site response for severity-1 "
        "incidents, with service credits of 5% of the monthly support fee for each "
        "hour late. Availability is committed at 99.9% per month; below that, service "
        "credits apply as set out in the contract."
    ),
    "zh_sla_with_compensation": _bid(
        "本方案面向贵司 700 亿参数模型训练，部署于杭州本地机房。我方承诺 7x24 小时响应，"
        "一级故障 4 小时到场，未达标按合同赔付/服务抵扣；备件库设在杭州，保证 4 小时内"
        "更换故障 GPU 模块，超时按每小时合同金额 0.1% 支付违约金。"
    ),
    "en_open_source_stack_no_licence_line": _bid(
        "For pre-training a 70B model on 500 TB in Hangzhou, the software stack is "
        "entirely open source and carries no licence fee: Slurm with Pyxis and Enroot "
        "for training jobs, Kubernetes with Volcano for evaluation services, "
        "Prometheus and Grafana with the DCGM exporter for monitoring, and NCCL tests "
        "at acceptance. Our engineers install and operate it for three years.",
        lines=OPEN_SOURCE,
        scheduler="",
    ),
    "zh_open_source_stack_no_licence_line": _bid(
        "针对杭州机房的 70B 模型训练，软件栈全部采用开源组件，不单独收取许可费用："
        "训练作业由 Slurm 调度，推理与评测服务运行在 Kubernetes 上，监控使用 Prometheus"
        " + Grafana，验收时运行 NCCL tests 与 OpenMPI 基准，并由我方工程师驻场部署。",
        lines=OPEN_SOURCE,
        scheduler="",
        frameworks=(),
    ),
    "en_full_burn_in_and_honest_limits": _bid(
        "All 128 GPUs for your 70B pre-training in Hangzhou undergo 100% burn-in for "
        "72 hours before handover, and every InfiniBand link is tested at line rate. "
        "We do not promise zero downtime or zero failures; GPUs do fail, so we keep "
        "four spare nodes on site and re-queue interrupted jobs from the last "
        "checkpoint automatically.",
    ),
    "zh_aim_not_promise": _bid(
        "为保证杭州机房 70B 模型训练的稳定性，我们为每个机柜配置双路供电。我方力争实现"
        "零故障交付，但并非百分之百可以做到；线性加速比无法保证，512 卡实测扩展效率为"
        " 91%。冷板液冷设计 PUE 为 1.2。"
    ),
    "en_own_portal_also_supports_slurm": _bid(
        "Beside the 70B pre-training cluster in Hangzhou we offer AcmeOS, our own "
        "platform for quotas and dashboards; it also supports Slurm and Kubernetes "
        "natively, so there is no proprietary lock-in and your team can run upstream "
        "tools at any time.",
        scheduler="proprietary",
    ),
    "zh_own_platform_compatible_with_kubernetes": _bid(
        "杭州本地机房的 70B 模型训练集群由我方自研管理平台统一纳管，平台同时兼容 "
        "Kubernetes 与 Slurm，用户可自由选择；我们无法承诺任务永不中断，提供自动"
        "断点续训。",
        scheduler="proprietary",
    ),
}


@pytest.mark.parametrize("bid", HONEST.values(), ids=HONEST.keys())
def test_honest_proposals_raise_no_flag(bid):
    others = [b.proposal_text for b in HONEST.values() if b is not bid]
    assert detect_all(bid, CONTEXT, others) == []


BAD = {
    "en_guaranteed_100_uptime": (
        _bid(
            "For your 70B pre-training in Hangzhou we guarantee 100% uptime and zero "
            "downtime for the life of the cluster."
        ),
        {PitfallCode.OVER_PROMISING},
    ),
    "zh_zero_failures_never_down": (
        _bid(
            "杭州机房 70B 模型训练集群由我方交付，我方保证集群零故障运行，绝对不会宕机。"
        ),
        {PitfallCode.OVER_PROMISING},
    ),
    "en_linear_scaling_guaranteed_despite_credits": (
        _bid(
            "The 70B pre-training cluster in Hangzhou scales across 1,024 GPUs: linear "
            "scaling guaranteed, with service credits if not met."
        ),
        {PitfallCode.OVER_PROMISING},
    ),
    "zh_guarantee_after_unrelated_negation": (
        _bid("本系统用于杭州机房 70B 模型训练，不依赖人工干预即可保证零故障。"),
        {PitfallCode.OVER_PROMISING},
    ),
    "en_does_not_support_slurm_or_kubernetes": (
        _bid(
            "The 70B pre-training cluster in Hangzhou runs AcmeOS. AcmeOS does not "
            "support Slurm or Kubernetes; all jobs are submitted through its portal.",
            scheduler="proprietary",
        ),
        {PitfallCode.CLOSED_ECOSYSTEM},
    ),
    "zh_does_not_support_slurm_and_kubernetes": (
        _bid(
            "杭州机房 70B 模型训练集群的平台为我司自研，不支持 Slurm 和 Kubernetes，"
            "作业须通过我方门户提交。",
            scheduler="",
        ),
        {PitfallCode.CLOSED_ECOSYSTEM},
    ),
    "zh_only_our_platform": (
        _bid(
            "杭州机房 70B 模型训练任务仅支持我方平台运行，作业提交与监控均通过我方门户。",
            scheduler="",
            frameworks=(),
        ),
        {PitfallCode.CLOSED_ECOSYSTEM},
    ),
    "en_slurm_only_as_a_comparison": (
        _bid(
            "AcmeOS schedules your 70B pre-training jobs in Hangzhou 30% faster than "
            "Slurm; Kubernetes support is on the roadmap for a later release.",
            scheduler="proprietary",
        ),
        {PitfallCode.CLOSED_ECOSYSTEM},
    ),
    "en_no_software_at_all": (
        _bid(
            "We ship 16 servers for the 70B pre-training cluster in Hangzhou; we do "
            "not provide Slurm or any cluster software, the customer installs their "
            "own.",
            lines=OPEN_SOURCE,
            scheduler="",
        ),
        {PitfallCode.GPU_ONLY},
    ),
    "zh_brochure": (
        _bid(
            "我司拥有行业领先的人工智能基础设施解决方案，性能卓越，稳定可靠，满足各类企业"
            "需求，调度采用 Slurm。"
        ),
        {PitfallCode.TEMPLATE_PROPOSAL},
    ),
}


@pytest.mark.parametrize(("bid", "codes"), BAD.values(), ids=BAD.keys())
def test_bad_proposals_raise_their_flag(bid, codes):
    found = detect_all(bid, CONTEXT, others=[])
    assert {p.code for p in found} == codes


# --- over_promising: what stays flagged, what a commitment is -----------------------


@pytest.mark.parametrize(
    ("text", "phrases"),
    [
        ("We guarantee 100% uptime.", ["guarantee", "100%"]),
        (
            "Guaranteed 100% uptime, with service credits if missed.",
            ["Guaranteed", "100%"],
        ),
        ("我们保证零故障。", ["保证", "零故障"]),
        ("集群绝对不会宕机。", ["绝对"]),
        ("Linear scaling guaranteed to 1024 GPUs.", ["guaranteed"]),
        (
            "Redundant design with no single point of failure guarantees 100% "
            "availability.",
            ["guarantees", "100%"],
        ),
        ("保证训练 100% 成功，即使未达标也按合同赔付。", ["保证", "100%"]),
        ("Our cluster never fails.", ["never fails"]),
    ],
)
def test_real_over_promises_stay_flagged_in_text_order(text, phrases):
    found = detect_over_promising(text)
    assert [e.split("”")[0].lstrip("“") for e in found[0].evidence] == phrases


@pytest.mark.parametrize(
    "text",
    [
        "我方不作绝对保证。",
        "训练时长不承诺，按周报告实测 MFU。",
        "零故障无法保证，我们提供冗余设计。",
        "并非百分之百可用，SLA 为 99.9%。",
        "我方不保证训练时长，线性加速比无法保证。",
        "The tuning service is offered without guarantee of a speed-up.",
        "Training time is not guaranteed; we report measured MFU.",
        "There is no guarantee of 100% uptime in any real cluster.",
        "We cannot guarantee zero downtime during firmware upgrades.",
        "We do not promise zero downtime, zero failures or linear scaling.",
        "We aim for zero downtime during rolling upgrades.",
        "To guarantee checkpoint bandwidth, storage is sized at 1 GB/s per GPU.",
        "Servers carry a 3-year guarantee on parts and labour.",
        "存储容量可线性扩展至 10 PB。",
    ],
)
def test_negated_hedged_or_neutral_wording_is_not_over_promising(text):
    assert detect_over_promising(text) == []


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        (
            "The vendor guarantees a 4-hour on-site response, with service credits.",
            False,
        ),
        ("我方保证4小时到场，未达标按合同约定赔付违约金。", False),
        (
            "We guarantee 99.9% monthly availability. Below that, service credits of "
            "10% of the monthly fee apply.",
            False,  # the remedy is in the next sentence
        ),
        ("The vendor guarantees a 4-hour on-site response.", True),  # no remedy
        ("We guarantee fast response, with service credits.", True),  # no figure
        (
            "We guarantee 99.9% availability. The team is based in Hangzhou. Service "
            "credits apply.",
            # Re-labelled in issue 24 (was True: "the remedy is two sentences
            # away"): a remedy anywhere in the guarantee's paragraph backs it, as a
            # contract's SLA clause and its 违约责任 clause do.
            False,
        ),
        (
            "We guarantee 99.9% availability.\n\nThe team is based in Hangzhou."
            "\n\nService credits apply to response times.",
            True,  # the remedy is in another paragraph
        ),
    ],
)
def test_a_guarantee_with_a_figure_and_a_remedy_is_a_commitment(text, flagged):
    assert bool(detect_over_promising(text)) is flagged


def test_a_negated_pue_claim_is_not_a_claim():
    assert detect_over_promising("我们不承诺 PUE 低于 1.1，设计值为 1.2。") == []
    assert detect_over_promising("我们承诺 PUE 低于 1.1。") != []


# --- gpu_only: an open stack is software ---------------------------------------------


@pytest.mark.parametrize(
    ("scheduler", "frameworks", "text"),
    [
        ("slurm", (), ""),
        ("", ("Kubernetes", "PyTorch"), ""),
        ("", (), "Monitoring uses Prometheus and Grafana; acceptance runs NCCL tests."),
        ("", (), "训练作业由 Slurm 调度。"),
    ],
)
def test_an_open_stack_counts_as_software_without_a_licence_line(
    scheduler, frameworks, text
):
    found = detect_gpu_only(
        OPEN_SOURCE, scheduler=scheduler, frameworks=frameworks, proposal_text=text
    )
    assert found == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "We do not provide Slurm or any cluster software.",
        "Kubernetes support is planned for a later release.",
        "Compared with Slurm, our servers boot faster.",
    ],
)
def test_without_an_open_stack_a_missing_software_line_is_flagged(text):
    found = detect_gpu_only(OPEN_SOURCE, proposal_text=text)
    assert [p.facts for p in found] == [
        (Fact(FactCode.NO_PRICED_LINE, {"category": "software"}),)
    ]


def test_a_scheduler_picked_for_bare_servers_is_not_a_stack():
    """No installation, support or training line deploys it, and the text offers
    none: the quote is servers, network and storage."""
    hardware = tuple(
        i for i in OPEN_SOURCE if i.category in ("gpu_servers", "network", "storage")
    )
    found = detect_gpu_only(hardware, scheduler="slurm", proposal_text="8-GPU servers.")
    assert [p.facts for p in found] == [
        (Fact(FactCode.NO_PRICED_LINE, {"category": "software"}),)
    ]
    assert detect_gpu_only(hardware, proposal_text="Slurm is installed by us.") == []


def test_the_stack_lists_what_is_offered_and_what_is_refused():
    offer = offered_stack(
        "proprietary",
        ("PyTorch",),
        "Prometheus and Grafana are included. AcmeOS does not support Slurm or "
        "Kubernetes.",
    )
    assert offer.schedulers == ()
    assert offer.tooling == ("Prometheus", "Grafana")
    assert offer.refused == (
        "“Slurm or Kubernetes”: AcmeOS does not support Slurm or Kubernetes.",
    )


# --- closed_ecosystem: judged by the scheduler and what is (not) supported ---------


@pytest.mark.parametrize(
    ("scheduler", "text", "evidence"),
    [
        (
            "proprietary",
            "Our AcmeOS platform does not support Slurm or Kubernetes.",
            ("“Slurm or Kubernetes”: latform does not support Slurm or Kubernetes.",),
        ),
        (
            "",
            "平台为我司自研，不支持 Slurm 和 Kubernetes。",
            ("“Slurm 和 Kubernetes”: 平台为我司自研，不支持 Slurm 和 Kubernetes。",),
        ),
        (
            "",
            "本方案仅支持我方平台，作业提交须通过我方门户。",
            ("“仅支持我方”: 本方案仅支持我方平台，作业提交须通过我方门户。",),
        ),
        (
            "proprietary",
            "Slurm and Kubernetes are not supported; jobs run on AcmeOS only.",
            ("“Slurm and Kubernetes”: Slurm and Kubernetes are not supported; jobs",),
        ),
        (
            "proprietary",
            "我方平台比 Slurm 调度效率高 30%。",
            (),
        ),
        (
            "proprietary",
            "We plan to support Kubernetes in future versions.",
            (),
        ),
    ],
)
def test_mentioning_slurm_without_offering_it_is_still_closed(
    scheduler, text, evidence
):
    found = detect_closed_ecosystem(scheduler, (), text)
    assert [p.code for p in found] == [PitfallCode.CLOSED_ECOSYSTEM]
    assert found[0].evidence == evidence
    named = (Fact(FactCode.SCHEDULER, {"name": scheduler}),) if scheduler else ()
    assert found[0].facts == named


@pytest.mark.parametrize(
    ("scheduler", "text"),
    [
        ("proprietary", "AcmeOS is our own platform; it also supports Slurm."),
        ("", "我方自研管理平台同时支持 Slurm 和 Kubernetes，用户可自由选择。"),
        ("", "There is no proprietary lock-in: upstream Slurm only."),
        ("kubernetes", "Kubernetes with Volcano; Slurm is not supported."),
        ("other", "Jobs run under Volcano on Kubernetes."),
        ("other", "We install the drivers."),  # "other" alone is not proprietary
        ("", "We do not provide Slurm; the customer installs their own scheduler."),
    ],
)
def test_a_bid_that_offers_open_scheduling_or_nothing_proprietary_is_open(
    scheduler, text
):
    assert detect_closed_ecosystem(scheduler, ("PyTorch",), text) == []


# --- template_proposal ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Pre-training of Llama 3 70B in Hangzhou.",  # English name of 杭州 Hangzhou
        "杭州的 Llama3-70B 训练集群。",  # Chinese name, model name punctuated apart
        "Training on 500000 GB of text in Hangzhou.",  # the data volume in GB
    ],
)
def test_a_tailored_text_addresses_a_bilingual_procurement(text):
    found = detect_template_proposal(
        text,
        workload_kind="training",
        model_names=("Llama-3-70B",),
        model_params_b=None,
        data_tb=500,
        location="杭州 Hangzhou",
    )
    assert found == []


def test_a_storage_rate_is_not_a_data_volume():
    found = detect_template_proposal(
        "Storage reads at 500 TB/s.", data_tb=500, location="Hangzhou"
    )
    assert found[0].facts == (
        Fact(FactCode.NOT_ADDRESSED, {"specific": "data_volume"}),
        Fact(FactCode.NOT_ADDRESSED, {"specific": "location"}),
    )


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("fine_tuning", "面向 70B 模型的后训练与 RLHF。"),
        ("inference", "We serve the 70B model at 2,000 tokens/s."),
    ],
)
def test_workload_wording_in_use_is_recognised(kind, text):
    assert detect_template_proposal(text, workload_kind=kind, model_params_b=70) == []


# --- the negation helper -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word", "negated"),
    [
        ("我方不作绝对保证", "保证", True),
        ("我方不承诺零故障", "零故障", True),
        ("并非百分之百可用", "百分之百", True),
        ("我们不能在所有情况下都保证", "保证", True),
        ("零故障无法保证", "零故障", True),
        ("我们不仅保证零故障", "保证", False),  # 不仅: not only
        ("带宽不低于 400G，保证满速", "保证", False),  # 不低于, and a new clause
        ("绝对不可能宕机", "绝对", False),
        ("offered without guarantee", "guarantee", True),
        ("there is no guarantee", "guarantee", True),
        ("we do not promise that the cluster never fails", "never fails", True),
        ("linear scaling is not guaranteed", "linear scaling", True),
        ("no single point of failure guarantees it", "guarantees", False),
        ("not only do we guarantee it", "guarantee", False),
        ("we cannot help, but we guarantee it", "guarantee", False),
    ],
)
def test_a_negator_governs_only_its_own_clause(text, word, negated):
    start = text.index(word)
    assert is_negated(text, start, start + len(word)) is negated


@pytest.mark.parametrize(
    ("text", "word", "hedged"),
    [
        ("我方力争零故障", "零故障", True),
        ("our target is 99.95% availability", "99.95%", True),
        ("we aim for zero downtime", "zero downtime", True),
        ("我方保证零故障", "零故障", False),
    ],
)
def test_a_hedge_states_an_aim(text, word, hedged):
    assert is_hedged(text, text.index(word)) is hedged


def test_sentences_split_on_chinese_and_english_ends_but_not_decimals():
    text = "可用性 99.9%。Reply in 4 h; credits apply.\n第二行！Done? yes"
    assert [text[a:b] for a, b in sentences(text)] == [
        "可用性 99.9%",
        "Reply in 4 h",
        " credits apply",
        "第二行",
        "Done",
        " yes",
    ]
