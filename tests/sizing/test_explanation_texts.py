"""The explanation table in the user's language (issue 13: "mostly English on Chinese
pages: formulas, file references (hardware-facts.md, accelerators.csv), 'Prices not
found in stored sources', a 'ratio' unit, raw keys")."""

import re

import pytest
from django.utils import translation

from sizing import messages
from sizing.engine import constraints_from_dict, estimate, workload_from_dict
from sizing.explanation_texts import readable_source
from sizing.reference_data import load_catalog

CJK = re.compile(r"[\u4e00-\u9fff]")
#: ClusterBuy's own reference files (a public repository's README.md cited as a
#: source is a citation, not one of them).
FILE_NAMES = re.compile(
    r"[a-z_]+\.csv|hardware-facts|sizing-formulas|cost-figures|methodology\.md"
    r"|Prices not found"
)
#: Names that read the same in Chinese.
SAME_IN_CHINESE = {"PUE"}
WORKLOADS = [
    {"kind": "training", "model": {"preset": "llama-3.1-70b"}, "tokens_b": 1000,
     "target_days": 30},
    {"kind": "fine_tuning", "model": {"preset": "llama-3.1-8b"}, "tokens_b": 1,
     "gpu_count": 8, "lora_trainable_fraction": 0.01},
    {"kind": "inference", "model": {"preset": "deepseek-v3"},
     "concurrent_requests": 64},
    {"kind": "inference", "model": {"preset": "llama-3.1-8b"},
     "concurrent_requests": 64, "arrival": "burst", "gpu_count": 1},
]  # fmt: skip


def _explanation(workload: dict, region: str = "global") -> list[dict]:
    catalog = load_catalog()
    result = estimate(
        workload_from_dict(workload, catalog),
        catalog,
        None,
        constraints_from_dict({"region": region}),
    )
    return result.to_dict()["explanation"]


@pytest.mark.parametrize("workload", WORKLOADS)
def test_every_row_is_chinese_on_a_chinese_page(workload):
    entries = _explanation(workload)
    with translation.override("zh-hans"):
        rows = messages.describe_explanation(entries)
    for row in rows:
        label = str(row["label"])
        assert CJK.search(label) or label in SAME_IN_CHINESE, row["quantity"]
        assert CJK.search(row["formula"]), (row["quantity"], row["formula"])
        assert not FILE_NAMES.search(row["source"]), row["source"]
        assert row["unit"] not in ("ratio", "share", "bool", "GPU-h")


@pytest.mark.parametrize("workload", WORKLOADS)
def test_every_row_has_english_words_on_an_english_page(workload):
    entries = _explanation(workload)
    with translation.override("en"):
        rows = messages.describe_explanation(entries)
    for row in rows:
        assert row["formula"] and not CJK.search(row["formula"]), row["quantity"]
        assert not FILE_NAMES.search(row["source"]), row["source"]
    by_key = {row["quantity"]: row for row in rows}
    if "training.days" in by_key:
        assert by_key["training.days"]["formula"] == (
            "Total FLOPs ÷ (GPUs × peak × HFU) × (1 + exposed communication and "
            "bubble) ÷ goodput, in days"
        )
        # The engine's symbols stay for the technical reader (a tooltip).
        assert by_key["training.days"]["formula_symbols"] == (
            "total_flops / (GPUs x peak x HFU) x (1 + exposed share) / goodput / 86400"
        )


@pytest.mark.parametrize(
    ("source", "zh", "en"),
    [
        (
            "hardware-facts.md section 4; cost-figures.md",
            "ClusterBuy 硬件资料 第 4 节; ClusterBuy 成本数据",
            "ClusterBuy hardware facts §4; ClusterBuy cost figures",
        ),
        (
            "accelerators.csv",
            "加速卡数据手册（硬件目录）",
            "the accelerator's datasheet (hardware catalogue)",
        ),
        (
            "sizing-formulas pitfall 3 (CUDA context 0.65-1 GB)",
            "ClusterBuy 测算公式，常见误区 3 (CUDA context 0.65-1 GB)",
            "ClusterBuy sizing formulas, pitfall 3 (CUDA context 0.65-1 GB)",
        ),
        (
            "two-tier fat tree (RA-11333-001). Prices not found in stored sources",
            "two-tier fat tree (RA-11333-001). 未找到公开价格",
            "two-tier fat tree (RA-11333-001). no published price found",
        ),
    ],
)
def test_sources_are_readable_citations(source, zh, en):
    with translation.override("zh-hans"):
        assert readable_source(source) == zh
    with translation.override("en"):
        assert readable_source(source) == en
