"""The sizing engine's bottlenecks in the user's language (the engine writes English)."""

import re
from pathlib import Path

import pytest
from django.utils import translation

import sizing.engine
from sizing import messages, services
from sizing.engine import estimate, workload_from_dict
from sizing.reference_data import load_catalog

ENGINE_DIR = Path(sizing.engine.__file__).parent
CJK = re.compile(r"[\u4e00-\u9fff]")
TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
}


def engine_codes() -> set[str]:
    """Every code a ``Bottleneck(...)`` in the engine's source can carry."""
    codes = set()
    for path in ENGINE_DIR.glob("*.py"):
        codes.update(re.findall(r'Bottleneck\(\s*"([a-z0-9_]+)"', path.read_text()))
    return codes


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def test_every_code_the_engine_can_emit_has_a_title_and_a_sentence():
    codes = engine_codes()
    assert len(codes) == 20  # the grep found them all (update when the engine grows)
    assert codes <= set(messages.BOTTLENECK_TITLES)
    assert codes <= set(messages.BOTTLENECK_MESSAGES)


@pytest.mark.parametrize("code", sorted(engine_codes()))
def test_every_bottleneck_sentence_is_chinese_on_a_chinese_page(code):
    bottleneck = {"code": code, "severity": "warning", "message": "english"}
    bottleneck.update(value=12.5, limit=10.0, unit="GB")
    with translation.override("zh-hans"):
        described = messages.describe_bottleneck(bottleneck)
    assert CJK.search(described["text"]), described["text"]
    assert CJK.search(str(described["title"]))
    assert "english" not in described["text"]


def test_texts_are_fixed_in_the_language_active_when_described():
    # Strings, not lazy texts: a lazy title or label would be rendered in whatever
    # language is active later (here English), not the page's.
    bottleneck = {"code": "over_budget", "severity": "warning", "message": "english"}
    bottleneck.update(value=12.5, limit=10.0, unit="GB")
    entries = [
        {"quantity": "training.hfu", "value": 0.4, "unit": "", "formula": ""},
        {"quantity": "power.cooling", "value": "liquid", "unit": "", "formula": ""},
        {"quantity": "power.redundant_feeds", "value": True, "unit": "", "formula": ""},
    ]
    with translation.override("zh-hans"):
        described = messages.describe_bottleneck(bottleneck)
        rows = messages.describe_explanation(entries)
    with translation.override("en"):
        assert described["title"] == "超出预算"
        assert [row["label"] for row in rows] == [
            "硬件 FLOPs 利用率（HFU）",
            "散热",
            "冗余供电回路",
        ]
        assert [row["value"] for row in rows] == ["0.4", "液冷", "是"]


def test_sentence_is_filled_with_the_figures_in_their_unit():
    bottleneck = {
        "code": "memory_exceeds_capacity",
        "severity": "error",
        "message": "the job does not fit in GPU memory with any layout searched",
        "value": 150.04,
        "limit": 141.0,
        "unit": "GB",
    }
    with translation.override("zh-hans"):
        zh = messages.describe_bottleneck(bottleneck)
    with translation.override("en"):
        en = messages.describe_bottleneck(bottleneck)

    assert zh["text"] == (
        "每块 GPU 需要 150.0 GB 显存，而该 GPU 只有 141 GB：已搜索的所有并行切分方式都放不下。"
    )
    assert en["text"].startswith(
        "The job needs 150.0 GB per GPU but the GPU has 141 GB"
    )
    assert zh["value_text"] == "150.0 GB" and zh["limit_text"] == "141 GB"


def test_status_and_ecosystem_figures_are_words_not_codes():
    with translation.override("zh-hans"):
        availability = messages.describe_bottleneck(
            {
                "code": "accelerator_availability_conditional",
                "severity": "warning",
                "message": "H20: licence needed",
                "value": "conditional",
                "limit": "available",
            }
        )
        stack = messages.describe_bottleneck(
            {
                "code": "software_stack_risk",
                "severity": "warning",
                "message": "CANN: port kernels",
                "value": "cann",
                "limit": "cuda",
            }
        )
    assert availability["value_text"] != "conditional"
    assert CJK.search(availability["value_text"])
    assert stack["text"].startswith("CANN 软件栈并非 CUDA")
    assert stack["limit_text"] == "CUDA"


def test_unknown_code_keeps_the_engine_message():
    described = messages.describe_bottleneck(
        {"code": "new_in_engine_2", "severity": "info", "message": "Something new"}
    )
    assert described["text"] == "Something new"
    assert described["title"] == "new_in_engine_2"


def test_chinese_sizing_tab_shows_no_english_engine_message(
    client_for, it_lead, procurement, catalog
):
    services.create_workload(procurement=procurement, **TRAIN_7B)
    # Budget and region are the procurement's (issue 12).
    procurement.currency, procurement.budget_max = "USD", 1000
    procurement.region = "cn"
    procurement.save()
    with translation.override("zh-hans"):
        plan = services.save_requirement_and_plan(
            procurement=procurement,
            user=it_lead,
            scenario="training",
            data_tb=5,
            growth_per_year=20,
            rack_power_limit_kw=5,
            accelerator_key="ascend910b-oam-64gb",
        )
    bottlenecks = plan.result["bottlenecks"]
    codes = {b["code"] for b in bottlenecks}
    assert {"over_budget", "software_stack_risk", "estimated_specifications"} <= codes

    html = client_for(it_lead).get(f"/procurements/{procurement.pk}/sizing/")
    text = html.content.decode()
    assert html.status_code == 200
    for b in bottlenecks:
        assert b["message"] not in text, b["code"]
        assert b["code"] not in text  # alternatives' warnings show titles too
    assert "没有厂商公开的规格书" in text
    assert "(分区独占：GPU 数 = 各工作负载之和)" in text  # the plan's combination rule


def test_explanation_rows_get_a_name_readable_figures_and_counting_units():
    entries = [
        {"quantity": "memory.per_gpu_gb", "value": 104.123456, "unit": "GB"},
        {"quantity": "w0.training.days", "value": 58.5005722347023, "unit": "days"},
        {"quantity": "interconnect.rail_optimized", "value": True, "unit": "bool"},
        {
            "quantity": "gpu_count",
            "value": 120,
            "unit": "GPUs",
            "formula": "partitioned: GPUs = sum over workloads",
        },
        {"quantity": "something.new", "value": "x", "unit": ""},
    ]
    with translation.override("zh-hans"):
        rows = [
            {k: str(v) for k, v in row.items()}
            for row in messages.describe_explanation(entries)
        ]

    assert rows[0]["label"] == "每 GPU 所需显存" and rows[0]["value"] == "104.1"
    assert rows[1]["label"] == "训练时长" and rows[1]["value"] == "58.5"
    assert rows[1]["unit"] == "天"
    assert rows[2]["value"] == "是" and rows[2]["unit"] == ""
    assert rows[3]["value"] == "120" and rows[3]["unit"] == "块 GPU"
    assert rows[3]["formula"] == "分区独占：GPU 数 = 各工作负载之和"
    assert rows[4]["label"] == "" and rows[4]["quantity"] == "something.new"


def test_training_layout_remedy_and_platform_quantities_have_chinese_names():
    catalog = load_catalog()
    too_big = {
        "kind": "training",
        "model": {"preset": "llama-3-8b"},
        "tokens_b": 10,
        "gpu_count": 8,
        "seq_len": 8192,
        "micro_batch": 16,
        "global_batch_tokens": 8192 * 128,
    }
    result = estimate(workload_from_dict(too_big, catalog), catalog, "h100-sxm-80gb")
    with translation.override("zh-hans"):
        rows = {
            row["quantity"]: row
            for row in messages.describe_explanation(result.to_dict()["explanation"])
        }
    for quantity in (
        "training.hfu",
        "training.fit_remedies",
        "parallelism.context",
        "parallelism.schedule",
        "memory.in_flight_micro_batches",
        "interconnect.platform_nic_gbps",
        "power.rack_limit_kw",
    ):
        assert CJK.search(str(rows[quantity]["label"])), quantity
    remedies = str(rows["training.fit_remedies"]["value"])
    assert "每个微批次一条序列" in remedies and "块 GPU" in remedies
