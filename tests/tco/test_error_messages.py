"""The TCO engine's refusals in the user's language (issue 13): "折现率（年）: must be a
share between 0 and 1" and "PUE must be between 1 and 5" become the label and the
allowed range in Chinese or English; the API keeps the input's name as the key."""

import re
from pathlib import Path

import pytest
from django.utils import translation

import tco.engine
from clusterbuy.errors import error_sentence
from tco import labels
from tco.engine import TcoInputError
from tco.engine.inputs import inputs_from_dict

ENGINE_DIR = Path(tco.engine.__file__).parent
ESTIMATE = "/api/v1/tco/estimate"


def test_every_raise_in_the_engine_carries_a_code_the_app_translates():
    source = "\n".join(
        path.read_text() for path in ENGINE_DIR.glob("*.py") if path.name != "errors.py"
    )
    calls = re.findall(r"raise TcoInputError\((.*?)\)\n", source, flags=re.S)
    assert calls and all("code=" in call for call in calls), [
        call for call in calls if "code=" not in call
    ]
    codes = {code for call in calls for code in re.findall(r'code="([a-z_]+)"', call)}
    assert "out_of_range" in codes
    for code in codes:
        exc = TcoInputError("pue", "english", code=code, params={"low": 1, "high": 5})
        with translation.override("zh-hans"):
            assert labels.error_message(exc), code


@pytest.mark.parametrize(
    ("inputs", "zh", "en"),
    [
        (
            {"discount_rate": 3},
            "折现率（年）：必须是 0 至 1 之间的比例（0.08 即 8 %）。",
            "Discount rate (per year): Must be a share from 0 to 1 (0.08 = 8 %).",
        ),
        (
            {"pue": 9},
            "PUE：必须是 1 至 5 之间的数。",
            "PUE: Must be a number from 1 to 5.",
        ),
        (
            {"gpu_count": 2e6},
            "GPU 数量：必须是 1 至 1,000,000 之间的整数。",
            "Number of GPUs: Must be a whole number from 1 to 1,000,000.",
        ),
        (
            {"horizon_years": 7},
            "测算周期（年）：请从以下选项中选择：3, 4, 5。",
            "Horizon (years): Choose one of: 3, 4, 5.",
        ),
        (
            {"capex": [{"category": "gpu_servers", "amount": -1}]},
            "资本支出第 1 行，金额：必须是 0 至 10,000,000,000,000 之间的数。",
            "Capex line 1, Amount: Must be a number from 0 to 10,000,000,000,000.",
        ),
    ],
)
def test_a_refusal_names_the_label_and_the_allowed_range(inputs, zh, en):
    with pytest.raises(TcoInputError) as caught:
        inputs_from_dict(inputs)
    with translation.override("zh-hans"):
        assert error_sentence(caught.value) == zh
    with translation.override("en"):
        assert error_sentence(caught.value) == en


def test_the_api_keeps_the_input_name_and_translates_the_message(api_for, viewer):
    client = api_for(viewer)
    zh = client.post(ESTIMATE, {"gpu_count": 8, "discount_rate": 3}, format="json")
    en = client.post(
        ESTIMATE,
        {"gpu_count": 8, "discount_rate": 3},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert zh.status_code == en.status_code == 400
    assert zh.json() == {"discount_rate": ["必须是 0 至 1 之间的比例（0.08 即 8 %）。"]}
    assert en.json() == {"discount_rate": ["Must be a share from 0 to 1 (0.08 = 8 %)."]}
