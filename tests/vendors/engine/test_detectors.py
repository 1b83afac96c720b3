from decimal import Decimal

import pytest

from vendors.engine.compliance import PlanNeeds
from vendors.engine.detectors import (
    BidFacts,
    Fact,
    FactCode,
    LineItemFacts,
    Pitfall,
    PitfallCode,
    ProcurementFacts,
    detect_all,
    detect_closed_ecosystem,
    detect_gpu_only,
    detect_over_promising,
    detect_template_proposal,
    text_similarity,
)

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


def _item(category, amount, recurring=False):
    return LineItemFacts(category, Decimal(amount), recurring)


BALANCED = (
    _item("gpu_servers", "43200000"),  # 16 x 2.7M
    _item("network", "6000000"),
    _item("storage", "4000000"),
    _item("software", "800000"),
    _item("support", "350000", recurring=True),
)

# --- gpu_only ------------------------------------------------------------------------


def test_gpu_only_bid_is_flagged_when_network_lines_are_missing():
    items = [i for i in BALANCED if i.category != "network"]
    found = detect_gpu_only(items)
    assert [p.code for p in found] == [PitfallCode.GPU_ONLY]
    assert (
        found[0].reason_en
        == "GPU servers are priced but there is no network line item."
    )
    assert found[0].reason("zh") == "报价包含 GPU 服务器，但没有网络分项。"


def test_gpu_only_flags_every_missing_supporting_category():
    found = detect_gpu_only([_item("gpu_servers", "43200000"), _item("support", "1")])
    assert [p.facts for p in found] == [
        (Fact(FactCode.NO_PRICED_LINE, {"category": "network"}),),
        (Fact(FactCode.NO_PRICED_LINE, {"category": "storage"}),),
        (Fact(FactCode.NO_PRICED_LINE, {"category": "software"}),),
    ]
    assert [p.evidence for p in found] == [(), (), ()]


def test_gpu_share_above_ninety_percent_is_flagged_even_with_token_lines():
    # 43.2M / (43.2M + 1M + 1M) = 95.6 % of hardware
    items = [
        _item("gpu_servers", "43200000"),
        _item("network", "1000000"),
        _item("storage", "1000000"),
        _item("software", "500000"),
    ]
    found = detect_gpu_only(items)
    assert len(found) == 1
    assert found[0].facts == (Fact(FactCode.GPU_SHARE, {"share": 0.956}),)


def test_balanced_bid_meeting_the_plan_is_not_gpu_only():
    # 43.2M / 53.2M = 81 % of hardware
    found = detect_gpu_only(
        BALANCED,
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=160,
        needs=NEEDS,
    )
    assert found == []


def test_network_and_storage_below_plan_needs_are_flagged():
    found = detect_gpu_only(
        BALANCED,
        network_gbps_per_gpu=100,
        storage_tb=500,
        storage_read_gbs=None,
        needs=NEEDS,
    )
    short = FactCode.SHORT_OF_PLAN
    assert [p.facts for p in found] == [
        (
            Fact(
                short,
                {
                    "item": "network_gbps_per_gpu",
                    "offered": 100,
                    "needed": 400,
                    "unit": "Gb/s",
                },
            ),
        ),
        (
            Fact(
                short,
                {"item": "storage_tb", "offered": 500, "needed": 1000, "unit": "TB"},
            ),
        ),
        (
            Fact(
                short,
                {
                    "item": "storage_read_gbs",
                    "offered": None,
                    "needed": 128,
                    "unit": "GB/s",
                },
            ),
        ),
    ]
    assert found[0].reason_zh == "每 GPU 网络带宽报价 100 Gb/s，方案需要 400 Gb/s。"
    assert found[2].reason_en == (
        "Does not state its storage read throughput; the sizing plan needs 128 GB/s."
    )
    assert found[2].reason_zh == "未说明存储读带宽；方案需要 128 GB/s。"


def test_only_the_findings_computed_from_prices_read_prices():
    """A sealed envelope hides these from a technical evaluator (vendors.visibility):
    a cost share and a category with no priced line; a shortfall against the plan
    is technical."""
    share = detect_gpu_only(
        [
            _item("gpu_servers", "43200000"),
            _item("network", "1000000"),
            _item("storage", "1000000"),
            _item("software", "500000"),
        ]
    )
    missing = detect_gpu_only([_item("gpu_servers", "43200000")])
    shortfall = detect_gpu_only(BALANCED, network_gbps_per_gpu=100, needs=NEEDS)
    assert [p.reads_prices for p in share + missing] == [True] * 4
    assert [p.reads_prices for p in shortfall] == [False] * len(shortfall) != []


# --- over_promising ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("We guarantee 100% availability with zero downtime.", "guarantee"),
        ("Our platform delivers zero downtime upgrades.", "zero downtime"),
        ("Cluster utilisation of 100% from day one.", "100%"),
        ("交付周期没问题，性能包在我们身上。", "没问题"),
        ("我们保证集群零故障运行。", "保证"),
        ("训练效率百分之百达标。", "百分之百"),
        ("绝对满足贵司所有需求。", "绝对"),
    ],
)
def test_absolute_promises_without_evidence_are_over_promising(text, phrase):
    found = detect_over_promising(text)
    assert [p.code for p in found] == [PitfallCode.OVER_PROMISING]
    assert any(e.startswith(f"“{phrase}”") for e in found[0].evidence)


@pytest.mark.parametrize(
    "text",
    [
        "We do not guarantee training time; we report measured MFU weekly.",
        "A bank guarantee of 5% of the contract value is provided.",
        "投标保证金已按招标文件要求缴纳，质量保证体系通过 ISO 9001 认证。",
        "我们不保证训练时间，按周报告实测 MFU。",
        "Measured all-reduce busbw is 365 GB/s per node on 8x H100.",
    ],
)
def test_neutral_or_negated_wording_is_not_over_promising(text):
    assert detect_over_promising(text) == []


@pytest.mark.parametrize("kind", ["measured_case_study", "site_visit", "demo"])
def test_absolute_promise_backed_by_evidence_is_accepted(kind):
    text = "We guarantee 100% availability. 我们保证零故障。"
    assert detect_over_promising(text, evidence_kinds=frozenset({kind})) == []


def test_training_time_below_the_physical_lower_bound_is_flagged_even_with_evidence():
    found = detect_over_promising(
        "Training completes in 10 days.",
        evidence_kinds=frozenset({"demo"}),
        promised_training_days=10,
        training_days_lower_bound=23.4,
    )
    assert len(found) == 1
    assert found[0].reason_en == (
        "Promises training in 10 days; the physical lower bound for this "
        "configuration is 23.4 days."
    )
    assert found[0].reason_zh == "承诺 10 天完成训练；该配置的物理下限为 23.4 天。"


def test_training_time_above_the_lower_bound_is_fine():
    assert (
        detect_over_promising(
            "", promised_training_days=30, training_days_lower_bound=23.4
        )
        == []
    )


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("冷板液冷方案 PUE 低于 1.1。", True),  # the seed claim "cold-plate PUE < 1.1"
        ("Liquid cooling achieves a PUE of 1.05.", True),
        ("设计 PUE 为 1.25。", False),
        ("PUE 1.15 with cold plates.", False),
    ],
)
def test_pue_below_what_cold_plates_achieve_is_over_promising(text, flagged):
    assert bool(detect_over_promising(text)) is flagged


# --- template_proposal ---------------------------------------------------------------

SPECIFICS = {
    "workload_kind": "training",
    "model_names": ("Llama-3-70B",),
    "model_params_b": 70,
    "data_tb": 500,
    "location": "Hangzhou",
}

TAILORED_EN = (
    "For your pre-training of a 70B model on 500 TB of text held on-prem in Hangzhou, "
    "we propose 16 nodes of 8x H100 SXM with one 400G NIC per GPU."
)
TAILORED_ZH = (
    "针对贵司在杭州机房进行的700亿参数模型训练，数据量约0.5 PB，我们建议16台8卡服务器，"
    "每卡配置一块400G网卡，采用两层胖树组网，存储读带宽按每GPU不低于1 GB/s设计，"
    "并提供检查点写入带宽测试报告。"
)
TEMPLATE_EN = (
    "Our industry-leading AI infrastructure solution delivers unmatched performance, "
    "reliability and scalability for every enterprise workload."
)
TEMPLATE_ZH = (
    "我司拥有行业领先的人工智能基础设施解决方案，性能卓越，稳定可靠，满足各类企业需求。"
    "我司服务过众多行业头部客户，拥有专业的技术团队和完善的售后服务体系，"
    "能够为客户提供从咨询、设计、部署到运维的一站式服务。"
)


@pytest.mark.parametrize("text", [TAILORED_EN, TAILORED_ZH])
def test_proposal_addressing_the_procurement_is_not_a_template(text):
    specifics = {**SPECIFICS, "location": "杭州" if text is TAILORED_ZH else "Hangzhou"}
    assert detect_template_proposal(text, **specifics) == []


@pytest.mark.parametrize("text", [TEMPLATE_EN, TEMPLATE_ZH])
def test_generic_proposal_is_a_template(text):
    found = detect_template_proposal(text, **SPECIFICS)
    assert len(found) == 1
    assert found[0].facts == tuple(
        Fact(FactCode.NOT_ADDRESSED, {"specific": specific})
        for specific in ("workload", "model_scale", "data_volume", "location")
    )
    assert (
        found[0].reason_zh
        == "方案未涉及本次采购的工作负载类型、模型规模、数据量、部署地点。"
    )


def test_half_of_the_specifics_is_enough():
    text = "We will run inference for Llama-3-70B."  # model named; kind, data, city missing
    found = detect_template_proposal(
        text, **{**SPECIFICS, "workload_kind": "inference"}
    )
    assert found == []  # 2 of 4 addressed = 50 %


def test_unknown_specifics_are_not_held_against_the_bid():
    assert detect_template_proposal(TEMPLATE_EN, workload_kind="") == []


def test_near_identical_chinese_bids_are_flagged_without_word_spaces():
    other = TAILORED_ZH.replace("16台", "十六台")
    assert text_similarity(TAILORED_ZH, other) > 0.85
    found = detect_template_proposal(
        TAILORED_ZH, other_texts=["完全无关的内容" * 10, other]
    )
    assert len(found) == 1
    assert found[0].facts == (
        Fact(FactCode.SIMILAR_TEXT, {"other_bid": 2, "similarity": 0.897}),
    )


def test_near_identical_english_bids_are_flagged_despite_reflowed_whitespace():
    other = TAILORED_EN.replace("16 nodes", "sixteen nodes").upper().replace(" ", "  ")
    assert 0.7 < text_similarity(TAILORED_EN, other) < 1
    found = detect_template_proposal(TAILORED_EN, other_texts=[other])
    assert [p.code for p in found] == [PitfallCode.TEMPLATE_PROPOSAL]


def test_different_proposals_are_not_near_duplicates():
    assert text_similarity(TAILORED_EN, TEMPLATE_EN) < 0.1
    assert text_similarity(TAILORED_ZH, TEMPLATE_ZH) < 0.1
    assert (
        detect_template_proposal(TAILORED_EN, other_texts=[TEMPLATE_EN, TAILORED_ZH])
        == []
    )


# --- closed_ecosystem ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("scheduler", "frameworks", "text"),
    [
        ("AcmeFlow", ("PyTorch",), "Jobs are managed by AcmeFlow."),
        ("", (), "集群采用我司自研调度平台统一管理。"),
        ("", ("AcmeAI Studio",), "A proprietary platform runs all jobs."),
    ],
)
def test_proprietary_only_cluster_software_is_a_closed_ecosystem(
    scheduler, frameworks, text
):
    found = detect_closed_ecosystem(scheduler, frameworks, text)
    assert [p.code for p in found] == [PitfallCode.CLOSED_ECOSYSTEM]
    assert found[0].evidence or found[0].facts


@pytest.mark.parametrize(
    ("scheduler", "frameworks", "text"),
    [
        ("Slurm", ("PyTorch",), "Standard Slurm with Pyxis."),
        ("", (), "自研调度平台，同时兼容 Kubernetes。"),
        ("AcmeFlow", (), "AcmeFlow is built on open-source Volcano."),
        (
            "",
            ("PyTorch", "DeepSpeed"),
            "We install the drivers.",
        ),  # nothing proprietary
    ],
)
def test_open_tooling_is_not_a_closed_ecosystem(scheduler, frameworks, text):
    assert detect_closed_ecosystem(scheduler, frameworks, text) == []


# --- detect_all ----------------------------------------------------------------------


def test_detect_all_runs_the_four_detectors_in_order():
    bid = BidFacts(
        line_items=(_item("gpu_servers", "43200000"), _item("network", "5000000"),
                    _item("storage", "3000000")),
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=160,
        proposal_text=TEMPLATE_ZH + "我们保证零故障。集群采用自研调度平台。",
        promised_training_days=None,
        scheduler="",
        frameworks=(),
    )  # fmt: skip
    context = ProcurementFacts(needs=NEEDS, **SPECIFICS)
    found = detect_all(bid, context, others=[TEMPLATE_ZH])
    assert [p.code for p in found] == [
        PitfallCode.GPU_ONLY,  # no software line
        PitfallCode.OVER_PROMISING,
        PitfallCode.TEMPLATE_PROPOSAL,  # missing specifics
        PitfallCode.TEMPLATE_PROPOSAL,  # near copy of the other bid
        PitfallCode.CLOSED_ECOSYSTEM,
    ]


def test_clean_bid_has_no_pitfalls():
    bid = BidFacts(
        line_items=BALANCED,
        network_gbps_per_gpu=400,
        storage_tb=1200,
        storage_read_gbs=160,
        proposal_text=TAILORED_EN + " Scheduling uses Slurm.",
        evidence_kinds=frozenset({"site_visit"}),
        promised_training_days=30,
        scheduler="Slurm",
        frameworks=("PyTorch",),
    )
    context = ProcurementFacts(needs=NEEDS, training_days_lower_bound=23.4, **SPECIFICS)
    assert detect_all(bid, context, others=[TEMPLATE_EN]) == []


def test_pitfall_reason_picks_the_language():
    pitfall = Pitfall(PitfallCode.GPU_ONLY, "english", "中文")
    assert pitfall.reason() == "english"
    assert pitfall.reason("zh-hans") == "中文"
    assert pitfall.reason("en-us") == "english"
