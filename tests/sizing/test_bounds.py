"""Every number the sizing API and pages read has a physical ceiling
(sizing.engine.limits, issue 10 item 2): 1e308 or 2**40 anywhere in an estimate body,
a workload or the questionnaire is a 400 (a form error) naming the field, never an
OverflowError 500 and never an infinity in the answer."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sizing import services
from sizing.engine.limits import MAXIMA
from sizing.models import Requirement, Workload

ESTIMATE = "/api/v1/sizing/estimate"
SERVE = {
    "kind": "inference",
    "model": {"preset": "llama-2-70b"},
    "context_tokens": 2048,
    "output_tokens": 256,
    "concurrent_requests": 16,
}
TRAIN = {
    "kind": "training",
    "model": {"preset": "llama-2-7b"},
    "tokens_b": 100,
    "target_days": 30,
}
CUSTOM = {"layers": 32, "hidden_size": 4096, "attention_heads": 32, "vocab_size": 32000}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def _bodies():
    for name in ("gpu_count", "requests_per_second", "tokens_per_second", "ttft_ms"):
        yield {"workload": {**SERVE, name: 1e308}}, f"workload.{name}"
    for name in ("tokens_b", "target_days", "micro_batch", "dataset_tb"):
        yield {"workload": {**TRAIN, name: 1e308}}, f"workload.{name}"
    yield {"workload": {**TRAIN, "gpu_count": 2**40}}, "workload.gpu_count"
    for name in ("layers", "hidden_size", "vocab_size", "head_dim", "params_b"):
        model = {**CUSTOM, name: 1e308}
        yield {"workload": {**SERVE, "model": model}}, f"workload.model.{name}"
    for name in ("rack_power_limit_kw", "budget_usd", "electricity_usd_per_kwh"):
        yield (
            {"workload": SERVE, "constraints": {name: 1e308}},
            f"constraints.{name}",
        )


@pytest.mark.parametrize(("body", "field"), list(_bodies()))
def test_an_estimate_number_beyond_its_ceiling_is_a_400(client, catalog, body, field):
    response = client.post(ESTIMATE, body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]


@pytest.mark.parametrize(
    "workload",
    [
        {**SERVE, "model": {**CUSTOM, "hidden_size": MAXIMA["hidden_size"]}},
        {**SERVE, "requests_per_second": MAXIMA["requests_per_second"]},
        {**SERVE, "concurrent_requests": MAXIMA["concurrent_requests"]},
        {**TRAIN, "tokens_b": MAXIMA["tokens_b"]},
        {**TRAIN, "model": {**CUSTOM, "layers": MAXIMA["layers"]}},
    ],
)
def test_a_number_at_its_ceiling_answers_without_a_500(client, catalog, workload):
    response = client.post(
        ESTIMATE, {"workload": workload}, content_type="application/json"
    )
    assert response.status_code in (200, 400)
    assert b"Infinity" not in response.content and b"NaN" not in response.content


@pytest.mark.parametrize(
    ("field", "value"),
    [("tokens_b", 1e308), ("target_days", 1e30), ("gpu_count", 2**40)],
)
def test_a_workload_beyond_its_ceiling_is_a_400(
    api_for, it_lead, procurement, catalog, field, value
):
    body = {"name": "w", "kind": "training", "model_preset": "llama-2-7b"}
    body |= {"tokens_b": 100, "target_days": 30, field: value}
    response = api_for(it_lead).post(
        f"/api/v1/procurements/{procurement.pk}/workloads/", body, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert not Workload.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("data_tb", "1e308"),
        ("rack_power_limit_kw", "1e308"),
        ("growth_per_year", "1e6"),
    ],
)
def test_the_questionnaire_names_a_number_beyond_its_ceiling(
    client_for, it_lead, procurement, catalog, field, value
):
    form = {
        "scenario": "mixed",
        "data_tb": 10,
        "growth_per_year": 0,
        field: value,
    }
    response = client_for(it_lead).post(
        reverse("sizing:requirements", args=[procurement.pk]), form
    )
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not Requirement.objects.exists()
