"""The sizing engine's refusals in the user's language (issue 13): every raise carries a
code the app translates, the field is named by its label (API keys stay the path),
the allowed range is stated, and numbers never come out as 1e+06."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

import sizing.engine
from clusterbuy.engine.numbers import figure
from clusterbuy.errors import error_sentence
from sizing import input_errors, services
from sizing.engine import (
    SizingInputError,
    constraints_from_dict,
    estimate,
    workload_from_dict,
)
from sizing.reference_data import load_catalog

ENGINE_DIR = Path(sizing.engine.__file__).parent
ESTIMATE = "/api/v1/sizing/estimate"
LLAMA_70B = {
    "kind": "training",
    "model": {"preset": "llama-3.1-70b"},
    "tokens_b": 15000,
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def _refusal(body: dict) -> SizingInputError:
    data = load_catalog()
    with pytest.raises(SizingInputError) as caught:
        workload = workload_from_dict(body["workload"], data)
        estimate(
            workload,
            data,
            body.get("accelerator"),
            constraints_from_dict(body.get("constraints")),
        )
    return caught.value


def _both(exc) -> tuple[str, str]:
    with translation.override("zh-hans"):
        zh = error_sentence(exc)
    with translation.override("en"):
        en = error_sentence(exc)
    return zh, en


def test_every_raise_in_the_engine_carries_a_code_the_app_translates():
    source = "\n".join(
        path.read_text() for path in ENGINE_DIR.glob("*.py") if path.name != "errors.py"
    )
    raises = re.findall(r"SizingInputError\((.*?)\n\s*\)", source, flags=re.S)
    one_line = re.findall(r"raise SizingInputError\(([^\n]*)\)\n", source)
    assert raises
    assert all("code=" in call for call in raises + one_line), [
        call for call in raises + one_line if "code=" not in call
    ]
    codes = set(re.findall(r'code="([a-z_]+)"', source))
    known = input_errors.RANGE_CODES | set(input_errors._messages({}))
    assert codes <= known, codes - known


def test_numbers_are_grouped_and_never_scientific():
    assert figure(1e6) == "1,000,000"
    assert figure(1_000_000) == "1,000,000"
    assert figure(0.1) == "0.1"
    assert figure(3650.0) == "3,650"
    assert figure(1e14) == "100,000,000,000,000"
    assert figure(4194304) == "4,194,304"


@pytest.mark.parametrize("days", [0.001, -30])
def test_a_target_of_a_moment_or_negative_days_names_the_target(days):
    """Was "no priced accelerator available in region ..." (issue 13)."""
    exc = _refusal({"workload": {**LLAMA_70B, "target_days": days}})
    assert exc.field == "workload.target_days"
    zh, en = _both(exc)
    assert zh.startswith("目标工期（天）：") and "0.1 至 3,650 之间的数" in zh
    assert en.startswith("Target duration (days): ")
    assert en.endswith("Allowed: a number from 0.1 to 3,650.")


def test_a_target_no_gpu_count_meets_names_the_target_not_the_accelerator():
    # 70B on 15T tokens: 6 * 70e9 * 15e12 = 6.3e24 FLOPs; no cluster of up to a
    # million GPUs does that in 0.2 days (4.8 h) at the engine's scaling efficiency.
    exc = _refusal({"workload": {**LLAMA_70B, "target_days": 0.2}})
    assert (exc.field, exc.code) == ("workload.target_days", "target_unreachable")
    zh, en = _both(exc)
    assert zh == (
        "目标工期（天）：即使使用 1,000,000 张 GPU 也无法在 0.2 天内完成："
        "请放宽目标工期，或直接给出 GPU 数量。"
    )
    assert en == (
        "Target duration (days): A target of 0.2 days cannot be met even with "
        "1,000,000 GPUs: allow more days or give a GPU count."
    )


def test_no_priced_accelerator_names_the_region_by_its_label():
    # 405B training on one GPU: no accelerator buyable in mainland China holds it.
    exc = _refusal(
        {
            "workload": {
                "kind": "training",
                "model": {"preset": "llama-3.1-405b"},
                "tokens_b": 15000,
                "gpu_count": 1,
            },
            "constraints": {"region": "cn"},
        }
    )
    assert (exc.field, exc.code) == ("accelerator", "no_priced_accelerator")
    zh, en = _both(exc)
    assert zh.startswith("加速卡：在“中国大陆”地区可采购且有价格的加速卡都无法运行")
    assert "region 'cn'" not in zh and "cn" not in zh
    assert en.startswith(
        "Accelerator: No priced accelerator that can be bought in the region "
        "“Mainland China” can run this workload"
    )


def test_the_api_keeps_the_path_and_says_the_range_in_the_request_language(
    client, catalog
):
    body = {"workload": {**LLAMA_70B, "gpu_count": 2_000_000}}
    zh = client.post(ESTIMATE, body, content_type="application/json")
    en = client.post(
        ESTIMATE, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert zh.status_code == en.status_code == 400
    assert zh.json() == {
        "workload.gpu_count": [
            "不能大于 1,000,000。允许范围：1 至 1,000,000 之间的整数。"
        ]
    }
    assert en.json() == {
        "workload.gpu_count": [
            "Must be at most 1,000,000. Allowed: a whole number from 1 to 1,000,000."
        ]
    }


def test_a_gpu_count_no_layout_divides_is_said_in_words(client, catalog):
    body = {
        "workload": {**LLAMA_70B, "gpu_count": 100_000},
        "accelerator": "h100-sxm-80gb",
    }
    zh = client.post(ESTIMATE, body, content_type="application/json")
    en = client.post(
        ESTIMATE, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert list(zh.json()) == ["workload.gpu_count"]
    assert zh.json()["workload.gpu_count"] == [
        "在全局批量为 4,194,304 token 时，没有任何张量 × 流水线 × 数据并行的切分能"
        "整除 100,000 张 GPU：请换一个 GPU 数量（2 的幂或整数个节点）或调整全局批量。"
    ]
    assert en.json()["workload.gpu_count"] == [
        "No tensor × pipeline × data-parallel layout divides 100,000 GPUs with a "
        "global batch of 4,194,304 tokens: choose another GPU count (a power of two "
        "or whole nodes) or another global batch."
    ]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh-hans", "<p>训练 token 数（十亿）：计划训练多少 token？</p>"),
        ("en", "<p>Training tokens (billions): How many tokens will be trained?</p>"),
    ],
)
def test_the_workload_preview_names_the_field_by_its_label(
    client_for, it_lead, procurement, catalog, language, expected
):
    """Was "tokens_b: 计划训练多少 token？" (issue 13)."""
    client = client_for(it_lead)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        f"/procurements/{procurement.pk}/requirements/workloads/preview/",
        {
            "name": "pre-training",
            "kind": "training",
            "model_preset": "llama-3.1-70b",
            "target_days": "30",
        },
    )
    html = response.content.decode()
    assert expected in html
    assert "tokens_b" not in html and "<code>" not in html


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "zh-hans",
            "<p>目标工期（天）：不能小于 0.1。允许范围：0.1 至 3,650 之间的数。</p>",
        ),
        (
            "en",
            "<p>Target duration (days): Must be at least 0.1. Allowed: a number from "
            "0.1 to 3,650.</p>",
        ),
    ],
)
def test_the_preview_of_a_tiny_target_names_the_target(
    client_for, it_lead, procurement, catalog, language, expected
):
    client = client_for(it_lead)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        f"/procurements/{procurement.pk}/requirements/workloads/preview/",
        {
            "name": "pre-training",
            "kind": "training",
            "model_preset": "llama-3.1-70b",
            "tokens_b": "15000",
            "target_days": "0.001",
        },
    )
    assert expected in response.content.decode()


def test_a_bids_delivered_capability_error_is_said_in_the_readers_language():
    """The comparison's "not sized: no tensor x pipeline x data layout divides
    100000 GPUs ..." (issue 13) comes from the stored code and params."""
    exc = _refusal(
        {
            "workload": {**LLAMA_70B, "gpu_count": 100_000},
            "accelerator": "h100-sxm-80gb",
        }
    )
    entry = {"error": exc.message, "error_code": exc.code, "error_params": exc.params}
    with translation.override("zh-hans"):
        assert input_errors.delivered_error(entry).startswith(
            "在全局批量为 4,194,304 token 时"
        )
    with translation.override("en"):
        assert input_errors.delivered_error(entry).startswith(
            "No tensor × pipeline × data-parallel layout divides 100,000 GPUs"
        )
    # An entry cached before codes were stored keeps its English text.
    assert input_errors.delivered_error({"error": "old text"}) == "old text"
