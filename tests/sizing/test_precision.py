"""A workload without a precision is sized at the model's published precision when
served (DeepSeek-V3 FP8) and at BF16 when trained; a chosen precision wins. The plan,
the API and the plan page say which precision was used and why."""

import pytest
from django.conf import settings

from sizing import services
from sizing.models import Workload

# 64 concurrent requests of 32k tokens (31,744 in + 1,024 out), issue 11's case.
DEEPSEEK_SERVE = {
    "name": "DeepSeek-V3 chat",
    "kind": "inference",
    "model_preset": "deepseek-v3",
    "context_tokens": 31744,
    "output_tokens": 1024,
    "concurrent_requests": 64,
}
TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
}
QUESTIONNAIRE = {
    "scenario": "inference",
    "data_tb": "0",
    "growth_per_year": "0",
    "rack_power_limit_kw": "",
    "preferred_ecosystem": "",
    "accelerator_key": "h200-sxm-141gb",
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.fixture
def global_procurement(procurement):
    # The H200 is sold outside China; the region is the procurement's (issue 12).
    procurement.region = "global"
    procurement.save()
    return procurement


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _plan_for(procurement, user, **workload):
    services.save_requirement(
        procurement=procurement, user=user, accelerator_key="h200-sxm-141gb"
    )
    services.create_workload(procurement=procurement, **workload)
    return services.compute_sizing_plan(procurement=procurement, user=user)


def test_questionnaire_sizes_deepseek_v3_serving_at_fp8_on_one_h200_node(
    client_for, it_lead, global_procurement, catalog
):
    """Hand check (issue 11, done-when: at most 8 H200): weights 671 B params x 1 B
    (FP8, the published checkpoint, huggingface.co/deepseek-ai/DeepSeek-V3
    config.json quantization_config fp8) = 671 GB; MLA latent cache (512 + 64) x 61
    layers x 2 B = 70,272 B/token x 64 x 32,768 tokens = 147 GB; ~818 GB < 8 x 141 GB
    = 1,128 GB, and 4 x 141 = 564 GB < 671 GB: exactly 8 GPUs."""
    client = _english(client_for(it_lead))
    pk = global_procurement.pk
    response = client.post(
        f"/procurements/{pk}/requirements/workloads/new/",
        {**DEEPSEEK_SERVE, "precision": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Workload.objects.get().precision == ""
    response = client.post(f"/procurements/{pk}/requirements/", QUESTIONNAIRE)
    assert response.status_code == 302
    plan = services.latest_plan(procurement=global_procurement)
    served = plan.result["workloads"][0]
    assert served["precision"] == {"weights": "fp8", "source": "published"}
    assert plan.result["accelerator"] == "h200-sxm-141gb"
    assert plan.result["gpu_count"] == 8
    page = client.get(f"/procurements/{pk}/sizing/").content.decode()
    assert "Weights in FP8: the model&#x27;s published precision" in page


def test_an_explicit_precision_wins_over_the_published_one(
    it_lead, global_procurement, catalog
):
    """BF16 doubles the weights: 1,342 GB + 147 GB of cache > 8 x 141 GB, so the
    plan needs two H200 nodes (16 GPUs, 2,256 GB)."""
    plan = _plan_for(global_procurement, it_lead, **DEEPSEEK_SERVE, precision="bf16")
    served = plan.result["workloads"][0]
    assert served["precision"] == {"weights": "bf16", "source": "requested"}
    assert plan.result["gpu_count"] == 16


def test_training_without_a_precision_is_sized_in_bf16(
    it_lead, global_procurement, catalog
):
    plan = _plan_for(global_procurement, it_lead, **TRAIN_7B)
    trained = plan.result["workloads"][0]
    assert trained["precision"] == {"weights": "bf16", "source": "training_default"}
    assert Workload.objects.get().to_engine_dict().get("precision") is None


def test_a_stored_precision_is_still_passed_to_the_engine(procurement, catalog):
    workload = services.create_workload(
        procurement=procurement, **DEEPSEEK_SERVE, precision="fp16"
    )
    assert workload.to_engine_dict()["precision"] == "fp16"
    assert services.effective_precision(workload=workload) == {
        "weights": "fp16",
        "source": "requested",
    }


def test_workload_form_offers_the_published_precision_as_the_blank_choice(
    client_for, it_lead, procurement, catalog
):
    client = client_for(it_lead)
    page = _english(client).get(
        f"/procurements/{procurement.pk}/requirements/workloads/new/"
    )
    html = page.content.decode()
    assert (
        '<option value="" selected>Model&#x27;s published precision '
        "(BF16 for training)</option>" in html
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    html = client.get(
        f"/procurements/{procurement.pk}/requirements/workloads/new/"
    ).content.decode()
    assert "模型发布精度（训练时为 BF16）" in html


def test_workload_api_accepts_a_null_precision_and_reports_the_effective_one(
    api_for, it_lead, global_procurement, catalog
):
    api = api_for(it_lead)
    base = f"/api/v1/procurements/{global_procurement.pk}/"
    created = api.post(
        base + "workloads/",
        {**DEEPSEEK_SERVE, "precision": None},
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["precision"] == ""
    assert body["effective_precision"] == {"weights": "fp8", "source": "published"}
    changed = api.patch(
        base + f"workloads/{body['id']}/", {"precision": "bf16"}, format="json"
    )
    assert changed.json()["effective_precision"] == {
        "weights": "bf16",
        "source": "requested",
    }
    api.patch(base + f"workloads/{body['id']}/", {"precision": ""}, format="json")
    plan = api.post(base + "sizing-plans/", {}, format="json")
    assert plan.status_code == 201
    assert plan.json()["result"]["workloads"][0]["precision"] == {
        "weights": "fp8",
        "source": "published",
    }
    bad = api.patch(
        base + f"workloads/{body['id']}/", {"precision": "fp7"}, format="json"
    )
    assert bad.status_code == 400 and "precision" in bad.json()
    assert Workload.objects.get().precision == ""
