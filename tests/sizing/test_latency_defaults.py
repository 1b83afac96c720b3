"""A serving plan that misses the interactive-chat latency is never recommended
without a visible warning (issue 21, item 4): the engine's finding (API), the sizing
tab in English and Chinese."""

import pytest
from django.conf import settings

from sizing import services
from sizing.engine.serving_latency import INTERACTIVE_TPOT_MS, INTERACTIVE_TTFT_MS

# 70B at 8k context for 64 users on 8 H20 (148 TFLOPS BF16): hundreds of ms a token
SLOW = {
    "name": "70B chat on H20",
    "kind": "inference",
    "model_preset": "llama-3.1-70b",
    "context_tokens": 8192,
    "output_tokens": 512,
    "concurrent_requests": 64,
    "gpu_count": 8,
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def _estimate(**targets) -> dict:
    body = {k: v for k, v in SLOW.items() if k not in ("name", "model_preset")}
    body["model"] = {"preset": SLOW["model_preset"]}
    return services.estimate_from_body(
        {
            "workload": {**body, **targets},
            "accelerator": "h20-sxm-96gb",
            "constraints": {"region": "cn"},
        }
    )


def _codes(result: dict) -> dict:
    return {b["code"]: b for b in result["bottlenecks"]}


def test_the_interactive_defaults_are_2_s_and_50_ms():
    assert (INTERACTIVE_TTFT_MS, INTERACTIVE_TPOT_MS) == (2000.0, 50.0)


def test_a_plan_without_targets_slower_than_chat_is_warned(catalog):
    result = _estimate()
    finding = _codes(result)["latency_above_interactive_default"]
    assert finding["severity"] == "warning"
    assert finding["value"] == pytest.approx(result["inference"]["tpot_ms"])
    assert finding["value"] > 50 and finding["limit"] == 50


def test_targets_stated_replace_the_default(catalog):
    relaxed = _estimate(ttft_ms=600_000, tpot_ms=10_000)
    assert "latency_above_interactive_default" not in _codes(relaxed)
    tight = _estimate(ttft_ms=2000, tpot_ms=50)
    assert "latency_above_interactive_default" not in _codes(tight)
    assert {"latency_target_unmet", "gpu_count_below_load"} & set(_codes(tight))


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "misses a latency target"), ("zh-hans", "未达到时延目标")],
)
def test_the_sizing_tab_warns_beside_the_recommendation(
    client_for, it_lead, procurement, catalog, language, words
):
    procurement.region = "cn"
    procurement.save()
    services.save_requirement(
        procurement=procurement, user=it_lead, accelerator_key="h20-sxm-96gb"
    )
    services.create_workload(procurement=procurement, **SLOW)
    services.compute_sizing_plan(procurement=procurement, user=it_lead)
    client = client_for(it_lead)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(f"/procurements/{procurement.pk}/sizing/").content.decode()
    assert 'id="latency-warning"' in html
    assert words in html
