import pytest

from sizing import services
from sizing.engine import ENGINE_VERSION
from sizing.models import SizingPlan, Workload

ESTIMATE = "/api/v1/sizing/estimate"
LLAMA2_70B_SERVE = {
    "workload": {
        "kind": "inference",
        "model": {"preset": "llama-2-70b"},
        "context_tokens": 2048,
        "output_tokens": 256,
        "concurrent_requests": 16,
    },
    "accelerator": "h100-sxm-80gb",
}
TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def test_estimate_golden_llama2_70b_kv_cache_per_token(client, catalog):
    response = client.post(ESTIMATE, LLAMA2_70B_SERVE, content_type="application/json")
    assert response.status_code == 200
    body = response.json()
    # 2 (K and V) x 80 layers x 8 KV heads x 128 head_dim x 2 bytes (bf16)
    assert body["memory"]["kv_cache_bytes_per_token"] == 2 * 80 * 8 * 128 * 2 == 327680
    assert body["engine_version"] == ENGINE_VERSION
    assert body["accelerator"] == "h100-sxm-80gb"
    assert body["kind"] == "inference"
    assert body["explanation"] and body["bottlenecks"] is not None


def test_estimate_works_for_a_token_client(api_for, it_lead, catalog):
    response = api_for(it_lead).post(ESTIMATE, LLAMA2_70B_SERVE, format="json")
    assert response.status_code == 200
    assert response.json()["memory"]["kv_cache_bytes_per_token"] == 327680


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {
                "workload": {
                    "kind": "inference",
                    "model": {
                        "layers": 2,
                        "hidden_size": 100,
                        "attention_heads": 3,
                        "vocab_size": 1000,
                    },
                }
            },
            "workload.model.hidden_size",
        ),
        (
            {
                "workload": {
                    "kind": "training",
                    "model": {"preset": "llama-2-7b"},
                    "tokens_b": 0,
                    "target_days": 10,
                }
            },
            "workload.tokens_b",
        ),
        ({**LLAMA2_70B_SERVE, "accelerator": "no-such-gpu"}, "accelerator"),
        (
            {"workload": {"kind": "inference", "model": {"preset": "gpt-9"}}},
            "workload.model.preset",
        ),
        ({"accelerator": "h100-sxm-80gb"}, "workload"),
        (
            {
                "workload": {
                    "kind": "inference",
                    "model": {"preset": "kimi-k2"},
                    "precision": "int4",
                    "quant_scope": "attention_only",
                }
            },
            "workload.quant_scope",
        ),
        (
            {
                "workload": {
                    "kind": "fine_tuning",
                    "model": {"preset": "qwen3-30b-a3b"},
                    "tokens_b": 0.1,
                    "gpu_count": 8,
                    "lora_rank": 16,
                    "lora_targets": "router",
                }
            },
            "workload.lora_targets",
        ),
    ],
)
def test_estimate_bad_input_is_400_naming_the_field(client, catalog, body, field):
    response = client.post(ESTIMATE, body, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_estimate_returns_the_training_layout_fit_and_platform_fields(client, catalog):
    body = {
        "workload": {
            "kind": "training",
            "model": {"preset": "llama-3.1-405b"},
            "tokens_b": 15600,
            "gpu_count": 16384,
            "seq_len": 8192,
            "global_batch_tokens": 16 * 1024 * 1024,
        },
        "accelerator": "h100-sxm-80gb",
    }
    response = client.post(ESTIMATE, body, content_type="application/json")
    assert response.status_code == 200
    result = response.json()
    assert result["training"]["fits"] is True
    assert result["training"]["fit_remedies"] == []
    assert {"context", "expert", "schedule", "bubble_share"} <= set(
        result["parallelism"]
    )
    assert result["interconnect"]["platform_nic_gbps"] == 400
    assert result["power"]["pue"] == 1.3


def test_estimate_sizes_qlora_with_a_4_bit_base(client, catalog):
    body = {
        "workload": {
            "kind": "fine_tuning",
            "model": {"preset": "llama-3.1-70b"},
            "tokens_b": 0.1,
            "gpu_count": 1,
            "precision": "int4",
            "lora_rank": 16,
            "recompute": "full",
            "seq_len": 2048,
        },
        "accelerator": "h100-sxm-80gb",
    }
    response = client.post(ESTIMATE, body, content_type="application/json")
    assert response.status_code == 200
    memory = response.json()["memory"]
    # ~70.6 B parameters at 4.125 bits (embeddings and head 16-bit): ~37 GB
    assert 35 < memory["weights_gb"] < 40
    assert memory["per_gpu_gb"] < 80


def test_accelerators_filter_by_vendor_memory_and_availability(client, catalog):
    amd = client.get("/api/v1/accelerators/", {"vendor": "amd", "min_memory_gb": 200})
    assert {a["key"] for a in amd.json()["results"]} == {
        "mi325x-oam-256gb",
        "mi355x-oam-288gb",
    }
    cn = {
        a["key"]
        for a in client.get("/api/v1/accelerators/", {"available_in": "cn"}).json()[
            "results"
        ]
    }
    assert "h100-sxm-80gb" not in cn and "ascend910b-oam-64gb" in cn


def test_model_presets_list_the_architecture(client, catalog):
    presets = {
        p["key"]: p for p in client.get("/api/v1/model-presets/").json()["results"]
    }
    assert presets["llama-2-70b"]["kv_heads"] == 8
    assert presets["llama-2-70b"]["layers"] == 80
    assert presets["llama-2-70b"]["source"]


def test_it_lead_creates_updates_and_deletes_a_workload(
    api_for, it_lead, procurement, catalog
):
    api = api_for(it_lead)
    url = f"/api/v1/procurements/{procurement.pk}/workloads/"
    created = api.post(url, TRAIN_7B, format="json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    patched = api.patch(f"{url}{pk}/", {"target_days": 20}, format="json")
    assert patched.status_code == 200 and patched.json()["target_days"] == 20
    assert api.get(url).json()["results"][0]["name"] == "7B pre-training"
    assert api.delete(f"{url}{pk}/").status_code == 204
    assert not Workload.objects.exists()


def test_workload_engine_error_is_400_on_the_model_field(
    api_for, it_lead, procurement, catalog
):
    response = api_for(it_lead).post(
        f"/api/v1/procurements/{procurement.pk}/workloads/",
        {
            "name": "odd",
            "kind": "inference",
            "layers": 2,
            "hidden_size": 100,
            "attention_heads": 3,
            "vocab_size": 1000,
        },
        format="json",
    )
    assert response.status_code == 400
    assert "hidden_size" in response.json()
    assert not Workload.objects.exists()


def test_sizing_plans_are_computed_stored_and_listed_latest_first(
    api_for, it_lead, procurement, catalog
):
    services.create_workload(procurement=procurement, **TRAIN_7B)
    api = api_for(it_lead)
    url = f"/api/v1/procurements/{procurement.pk}/sizing-plans/"
    first = api.post(url, format="json")
    second = api.post(url, format="json")
    assert first.status_code == second.status_code == 201
    assert first.json()["engine_version"] == ENGINE_VERSION
    assert first.json()["result"]["gpu_count"] > 0
    listed = [p["id"] for p in api.get(url).json()["results"]]
    assert listed == [second.json()["id"], first.json()["id"]]
    detail = api.get(f"{url}{first.json()['id']}/").json()
    assert detail["inputs"]["workloads"][0]["name"] == "7B pre-training"
    assert SizingPlan.objects.get(pk=first.json()["id"]).created_by == it_lead


def test_sizing_plan_without_workloads_is_400(api_for, it_lead, procurement, catalog):
    response = api_for(it_lead).post(
        f"/api/v1/procurements/{procurement.pk}/sizing-plans/", format="json"
    )
    assert response.status_code == 400
    assert "workloads" in response.json()
    assert not SizingPlan.objects.exists()


def test_viewer_cannot_write_workloads_or_plans(api_for, viewer, procurement, catalog):
    services.create_workload(procurement=procurement, **TRAIN_7B)
    api = api_for(viewer)
    base = f"/api/v1/procurements/{procurement.pk}"
    assert api.get(f"{base}/workloads/").status_code == 200
    assert api.post(f"{base}/workloads/", TRAIN_7B, format="json").status_code == 403
    pk = Workload.objects.get().pk
    assert api.delete(f"{base}/workloads/{pk}/").status_code == 403
    assert api.post(f"{base}/sizing-plans/", format="json").status_code == 403
    assert Workload.objects.count() == 1
    assert not SizingPlan.objects.exists()


def test_outsider_gets_404_and_changes_nothing(api_for, outsider, procurement, catalog):
    workload = services.create_workload(procurement=procurement, **TRAIN_7B)
    api = api_for(outsider)
    base = f"/api/v1/procurements/{procurement.pk}"
    assert api.get(f"{base}/workloads/").status_code == 404
    assert api.get(f"{base}/workloads/{workload.pk}/").status_code == 404
    assert api.post(f"{base}/workloads/", TRAIN_7B, format="json").status_code == 404
    assert api.delete(f"{base}/workloads/{workload.pk}/").status_code == 404
    assert api.get(f"{base}/sizing-plans/").status_code == 404
    assert api.post(f"{base}/sizing-plans/", format="json").status_code == 404
    assert Workload.objects.count() == 1
    assert not SizingPlan.objects.exists()


def test_openapi_schema_documents_the_sizing_endpoints(api_for, it_lead):
    schema = api_for(it_lead).get("/api/v1/schema/", {"format": "json"}).json()
    assert "/api/v1/sizing/estimate" in schema["paths"]
    assert "/api/v1/procurements/{procurement_pk}/sizing-plans/" in schema["paths"]
    assert "EstimateInputRequest" in schema["components"]["schemas"]
    assert "EstimateResult" in schema["components"]["schemas"]


DEEPSEEK_SERVE = {
    "workload": {
        "kind": "inference",
        "model": {"preset": "deepseek-v3"},
        "context_tokens": 31744,
        "output_tokens": 1024,
        "concurrent_requests": 64,
    },
    "accelerator": "h200-sxm-141gb",
}


def test_estimate_reports_expert_parallelism_dp_attention_and_kv_precision(
    client, catalog
):
    body = client.post(ESTIMATE, DEEPSEEK_SERVE, content_type="application/json")
    assert body.status_code == 200
    result = body.json()
    # FP8 by default (the published weights); one node, experts over all 8 GPUs, the
    # 64 bf16 latents held once: by data-parallel ranks or striped over a TP group
    layout = result["parallelism"]
    assert result["gpu_count"] == 8
    assert layout["expert"] == 8
    assert layout["attention_data"] * layout["decode_context"] == 8
    assert result["inference"]["kv_precision"] == "bf16"
    explained = {e["quantity"] for e in result["explanation"]}
    assert {"parallelism.expert", "inference.experts_touched"} <= explained
    fp8_kv = {
        **DEEPSEEK_SERVE,
        "workload": {**DEEPSEEK_SERVE["workload"], "kv_cache_precision": "fp8"},
    }
    halved = client.post(ESTIMATE, fp8_kv, content_type="application/json").json()
    assert halved["memory"]["kv_cache_bytes_per_token"] == 61 * 576  # 35,136 B


def test_model_presets_list_the_2025_architecture_details(client, catalog):
    presets = {
        p["key"]: p
        for p in client.get("/api/v1/model-presets/?page_size=100").json()["results"]
    }
    kimi = presets["kimi-k2"]
    assert (kimi["moe_experts"], kimi["moe_shared_experts"]) == (384, 1)
    assert (kimi["kv_lora_rank"], kimi["native_precision"]) == (512, "fp8")
    assert presets["gpt-oss-120b"]["sliding_window_tokens"] == 128


def test_workload_api_stores_the_kv_cache_precision(
    api_for, it_lead, procurement, catalog
):
    url = f"/api/v1/procurements/{procurement.pk}/workloads/"
    body = {
        "name": "chat",
        "kind": "inference",
        "model_preset": "qwen3-32b",
        "concurrent_requests": 32,
        "kv_cache_precision": "fp8",
    }
    created = api_for(it_lead).post(url, body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["kv_cache_precision"] == "fp8"
    assert Workload.objects.get().to_engine_dict()["kv_cache_precision"] == "fp8"


def test_workload_api_stores_the_memory_fraction_and_load_balancing(
    api_for, it_lead, procurement, catalog
):
    """Issue 21: the serving engine's memory fraction (vLLM --gpu-memory-utilization)
    and expert-parallel load balancing are workload inputs; outside 0.5-1 is a 400."""
    url = f"/api/v1/procurements/{procurement.pk}/workloads/"
    body = {
        "name": "chat",
        "kind": "inference",
        "model_preset": "qwen3-235b-a22b",
        "concurrent_requests": 32,
    }
    client = api_for(it_lead)
    default = client.post(url, body, format="json")
    assert default.status_code == 201, default.json()
    assert default.json()["gpu_memory_fraction"] == 0.9
    assert default.json()["expert_load_balancing"] is False
    bad = client.post(url, {**body, "gpu_memory_fraction": 0.3}, format="json")
    assert bad.status_code == 400
    assert "gpu_memory_fraction" in bad.json()
    assert Workload.objects.count() == 1
    given = client.post(
        url,
        {**body, "gpu_memory_fraction": 0.95, "expert_load_balancing": True},
        format="json",
    )
    assert given.status_code == 201, given.json()
    engine = Workload.objects.get(pk=given.json()["id"]).to_engine_dict()
    assert (engine["gpu_memory_fraction"], engine["expert_load_balancing"]) == (
        0.95,
        True,
    )


def test_estimate_api_rejects_a_memory_fraction_below_half(client, catalog):
    body = {
        "workload": {
            "kind": "inference",
            "model": {"preset": "llama-3.1-8b"},
            "gpu_memory_fraction": 0.2,
        }
    }
    response = client.post(ESTIMATE, body, content_type="application/json")
    assert response.status_code == 400
    assert "workload.gpu_memory_fraction" in str(response.json())


def test_workload_api_stores_how_the_requests_arrive(
    api_for, it_lead, procurement, catalog
):
    """A burst (all concurrent requests at once, a batch job) is a workload input: it
    reaches the engine, and an unknown arrival is a 400 on the field, nothing saved."""
    url = f"/api/v1/procurements/{procurement.pk}/workloads/"
    body = {
        "name": "nightly evaluation",
        "kind": "inference",
        "model_preset": "llama-3.1-8b",
        "concurrent_requests": 64,
        "context_tokens": 2048,
        "output_tokens": 128,
    }
    client = api_for(it_lead)
    default = client.post(url, body, format="json")
    assert default.status_code == 201, default.json()
    assert default.json()["arrival"] == "steady"
    bad = client.post(url, {**body, "arrival": "poisson"}, format="json")
    assert bad.status_code == 400
    assert "arrival" in bad.json()
    assert Workload.objects.count() == 1
    burst = client.post(url, {**body, "arrival": "burst"}, format="json")
    assert burst.status_code == 201, burst.json()
    engine = Workload.objects.get(pk=burst.json()["id"]).to_engine_dict()
    assert engine["arrival"] == "burst"


def test_estimate_api_takes_a_burst_and_explains_its_prefill_wait(client, catalog):
    def estimate(arrival):
        body = {
            "workload": {
                "kind": "inference",
                "model": {"preset": "llama-3.1-8b"},
                "concurrent_requests": 64,
                "context_tokens": 2048,
                "output_tokens": 128,
                "gpu_count": 1,
                "arrival": arrival,
            },
            "accelerator": "h100-sxm-80gb",
        }
        response = client.post(ESTIMATE, body, content_type="application/json")
        assert response.status_code == 200, response.json()
        return response.json()

    steady, burst = estimate("steady"), estimate("burst")
    # 64 x 2,048 prompt tokens at once: a request waits on average for
    # min(65 x 2048 / 2 + 4096 x 63 / 64, 64 x 2048) = 66,560 + 4,032 = 70,592
    quantities = {e["quantity"]: e for e in burst["explanation"]}
    assert quantities["inference.burst_prefill_tokens"]["value"] == pytest.approx(
        70_592
    )
    assert "inference.burst_prefill_tokens" not in {
        e["quantity"] for e in steady["explanation"]
    }
    assert burst["inference"]["ttft_ms"] > 10 * steady["inference"]["ttft_ms"]
    bad = client.post(
        ESTIMATE,
        {
            "workload": {
                **{"kind": "inference", "model": {"preset": "llama-3.1-8b"}},
                "arrival": "sometimes",
            }
        },
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert "workload.arrival" in str(bad.json())


def test_output_lengths_are_a_workload_input_that_drains_a_burst(
    api_for, it_lead, procurement, client, catalog
):
    """Whether outputs vary is stored, reaches the engine, and is explained: a burst of
    varied lengths reports its makespan; an unknown value is a 400 on the field."""
    url = f"/api/v1/procurements/{procurement.pk}/workloads/"
    body = {
        "name": "offline batch",
        "kind": "inference",
        "model_preset": "llama-3.1-8b",
        "concurrent_requests": 256,
        "context_tokens": 512,
        "output_tokens": 256,
        "arrival": "burst",
    }
    api = api_for(it_lead)
    default = api.post(url, body, format="json")
    assert default.status_code == 201, default.json()
    assert default.json()["output_lengths"] == "varied"
    bad = api.post(url, {**body, "output_lengths": "random"}, format="json")
    assert bad.status_code == 400 and "output_lengths" in bad.json()
    assert Workload.objects.count() == 1
    fixed = api.post(url, {**body, "output_lengths": "fixed"}, format="json")
    assert fixed.status_code == 201, fixed.json()
    engine = Workload.objects.get(pk=fixed.json()["id"]).to_engine_dict()
    assert engine["output_lengths"] == "fixed"

    def estimate(lengths):
        response = client.post(
            ESTIMATE,
            {
                "workload": {
                    "kind": "inference",
                    "model": {"preset": "llama-3.1-8b"},
                    "concurrent_requests": 256,
                    "context_tokens": 512,
                    "output_tokens": 256,
                    "gpu_count": 1,
                    "arrival": "burst",
                    "output_lengths": lengths,
                },
                "accelerator": "h100-sxm-80gb",
            },
            content_type="application/json",
        )
        assert response.status_code == 200, response.json()
        return response.json()

    varied, same = estimate("varied"), estimate("fixed")
    rows = {e["quantity"]: e for e in varied["explanation"]}
    span = rows["inference.burst_makespan_s"]["value"]
    assert rows["inference.burst_makespan_s"]["inputs"]["requests_per_replica"] == 256
    assert rows["inference.burst_makespan_s"]["inputs"]["output_lengths"] == "varied"
    # the headline rate is the explained makespan's: 256 requests x 256 tokens
    assert varied["inference"]["tokens_per_second"] == pytest.approx(
        256 * 256 / span, rel=1e-6
    )
    assert "inference.burst_makespan_s" not in {
        e["quantity"] for e in same["explanation"]
    }
    assert (
        varied["inference"]["tokens_per_second"]
        < same["inference"]["tokens_per_second"]
    )
    refused = client.post(
        ESTIMATE,
        {
            "workload": {
                "kind": "inference",
                "model": {"preset": "llama-3.1-8b"},
                "output_lengths": "long",
            }
        },
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "workload.output_lengths" in str(refused.json())
