"""The detectors' computed evidence (codes and params) worded in the reader's
language, items named by their label: no field key, no English on a Chinese page."""

import re

import pytest
from django.utils import translation

from vendors.comparison.pitfall_texts import fact_json, fact_text
from vendors.comparison.prescores import evidence_lines
from vendors.engine.autoscore import AutoScore, AutoSource
from vendors.engine.compliance import PlanNeeds
from vendors.engine.detectors import (
    Fact,
    FactCode,
    LineItemFacts,
    detect_closed_ecosystem,
    detect_gpu_only,
    detect_template_proposal,
)

NEEDS = PlanNeeds(
    gpu_count=64,
    vram_gb_per_gpu=80,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=10.83,
    storage_read_gbs=64,
    storage_write_gbs=32,
    it_power_kw=81.6,
)
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def _shortfall_facts():
    found = detect_gpu_only((), storage_tb=None, needs=NEEDS, network_gbps_per_gpu=400)
    return [f for p in found for f in p.facts]


@pytest.mark.parametrize(
    ("fact", "zh", "en"),
    [
        (
            Fact(
                FactCode.SHORT_OF_PLAN,
                {"item": "storage_tb", "offered": None, "needed": 10.83, "unit": "TB"},
            ),
            "存储容量：报价 未说明，方案需要 10.83 TB",
            "Storage capacity: offered not stated, the sizing plan needs 10.83 TB",
        ),
        (
            Fact(
                FactCode.SHORT_OF_PLAN,
                {
                    "item": "network_gbps_per_gpu",
                    "offered": 100,
                    "needed": 400,
                    "unit": "Gb/s",
                },
            ),
            "每 GPU 网络带宽：报价 100 Gb/s，方案需要 400 Gb/s",
            "Network per GPU: offered 100 Gb/s, the sizing plan needs 400 Gb/s",
        ),
        (
            Fact(FactCode.NOT_ADDRESSED, {"specific": "workload"}),
            "未涉及：工作负载类型",
            "Not addressed: the workload type",
        ),
        (
            Fact(FactCode.GPU_SHARE, {"share": 0.956}),
            "GPU 服务器：占一次性硬件成本的 96%",
            "GPU servers: 96% of the one-off hardware cost",
        ),
        (
            Fact(FactCode.NO_PRICED_LINE, {"category": "network"}),
            "网络：没有计价的分项",
            "Network: no priced line item",
        ),
        (
            Fact(FactCode.SIMILAR_TEXT, {"other_bid": 2, "similarity": 0.897}),
            "第 2 份其他投标：文本重合度 90%（按 4 字符片段计算的 Jaccard 相似度）",
            "Other bid 2: 90% of the text in common (Jaccard similarity of "
            "4-character sequences)",
        ),
        (
            Fact(FactCode.LOWER_BOUND_DAYS, {"days": 41.25}),
            "该配置的物理下限：41.3 天",
            "Physical lower bound for this configuration: 41.3 days",
        ),
    ],
)
def test_each_fact_reads_in_both_languages(fact, zh, en):
    with translation.override("zh-hans"):
        assert fact_text(fact) == zh
        assert fact_text(fact_json(fact)) == zh  # as the decision memo stores it
    with translation.override("en"):
        assert fact_text(fact) == en


def test_a_shortfall_is_named_by_the_compliance_rows_label():
    with translation.override("zh-hans"):
        assert fact_text(_shortfall_facts()[0]).startswith("存储容量：")


def test_a_chinese_page_shows_no_field_key_and_no_english_for_the_detector_findings():
    found = [
        *detect_gpu_only(
            (LineItemFacts("gpu_servers", 43_200_000),),
            storage_tb=None,
            storage_read_gbs=None,
            network_gbps_per_gpu=None,
            needs=NEEDS,
        ),
        *detect_template_proposal(
            "We deliver excellent servers with great service.",
            workload_kind="training",
            model_params_b=70,
            data_tb=500,
            location="上海 Shanghai",
        ),
        *detect_closed_ecosystem("AcmeFlow", ("AcmeAI Studio",), ""),
    ]
    codes = {str(p.code) for p in found}
    assert codes == {"gpu_only", "template_proposal", "closed_ecosystem"}
    for pitfall in ("gpu_only", "template_proposal", "closed_ecosystem"):
        auto = AutoScore(
            "x",
            0.0,
            AutoSource.PITFALL,
            pitfall=pitfall,
            flags=tuple(p for p in found if p.code == pitfall),
        )
        with translation.override("zh-hans"):
            lines = evidence_lines(auto, "zh-hans")
        text = "\n".join(lines)
        assert not RAW_KEY.search(text), text
        # Latin words left are names: the bid's (AcmeFlow, AcmeAI Studio), products
        english = set(re.findall(r"[A-Za-z]{3,}", text)) - {
            "AcmeFlow",
            "AcmeAI",
            "Studio",
            "GPU",
            "Jaccard",
            "Slurm",
            "Kubernetes",
        }
        assert not english, text
