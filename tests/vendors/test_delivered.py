"""Bids judged by what they deliver for the planned workloads, through the API and
on the comparison page (issue 12: 256 x H20 against a 96 x H200 training plan)."""

import io

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sizing import services as sizing_services
from tests.vendors.test_api import BID_BODY
from tests.vendors.test_support import make_bid, make_vendor
from vendors import comparison

# Llama 3.1 70B, 500 B tokens at 8k context in 65 days: the engine plans 96 x H200
# SXM (13 HGX nodes) for it, 64.48 days.
TRAIN_70B = {
    "name": "70B pre-training",
    "kind": "training",
    "model_preset": "llama-3.1-70b",
    "precision": "bf16",
    "seq_len": 8192,
    "tokens_b": 500,
    "target_days": 65,
}


@pytest.fixture
def h200_plan(db, procurement, it_lead):
    sizing_services.load_reference_catalog()
    # The region is the procurement's fact (issue 12: the questionnaire reads it).
    procurement.region = "cn"
    procurement.save(update_fields=["region"])
    sizing_services.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h200-sxm-141gb",
        data_tb=2.0,
    )
    sizing_services.create_workload(procurement=procurement, **TRAIN_70B)
    plan = sizing_services.compute_sizing_plan(procurement=procurement, user=it_lead)
    assert plan.result["gpu_count"] == 96
    return plan


def _post_bid(api, procurement, vendor, **values):
    response = api.post(
        f"/api/v1/procurements/{procurement.pk}/bids/",
        {**BID_BODY, "vendor": vendor.pk, **values},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def _comparison(api, procurement):
    response = api.get(
        f"/api/v1/procurements/{procurement.pk}/comparison/", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    return {e["vendor"]["name"]: e for e in response.json()}


def test_256_h20_fail_compute_against_96_h200_and_a_matching_bid_passes(
    h200_plan, api_for, buyer, org, procurement
):
    api = api_for(buyer)
    _post_bid(
        api,
        procurement,
        make_vendor(org, "H20 Box"),
        accelerator="h20-sxm-96gb",
        gpu_count=256,
        promised_training_days=40,
    )
    _post_bid(
        api,
        procurement,
        make_vendor(org, "Plan Match"),
        accelerator="h200-sxm-141gb",
        gpu_count=96,
    )
    data = _comparison(api_for(buyer), procurement)
    plan_days = h200_plan.result["workloads"][0]["training"]["days"]

    h20 = data["H20 Box"]
    compute = next(i for i in h20["compliance"] if i["item"] == "compute")
    # Dense BF16 per GPU from the catalog: H200 SXM 989 TFLOPS (NVIDIA H200 product
    # page, 1,979 with sparsity / 2), HGX H20 148 TFLOPS (NVIDIA-provided reseller
    # spec, Tom's Hardware / TweakTown Jan 2024). 96 x 989 = 94,944 TFLOPS needed;
    # 256 x 148 = 37,888 offered: 39.9 %. Required as the RFP states it: >= 94.9.
    assert compute["status"] == "fail"
    assert (compute["required"], compute["offered"], compute["unit"]) == (
        94.9,
        37.888,
        "PFLOPS",
    )
    delivered = h20["delivered"]
    (workload,) = delivered["workloads"]
    assert workload["fits"] is True
    assert workload["training_days"] == pytest.approx(122.4, abs=0.1)
    assert workload["plan_training_days"] == round(plan_days, 4)
    assert delivered["compute_share"] == pytest.approx(0.3991, abs=1e-4)
    assert delivered["promised_training_days"] == 40
    assert delivered["accelerator_name"] == "NVIDIA HGX H20 96GB (China-specific)"
    assert compute["note"].startswith(
        "96 x NVIDIA H200 SXM 141GB = 94.9 PFLOPS BF16 needed; "
        "256 x NVIDIA HGX H20 96GB (China-specific) = 37.9 PFLOPS offered (40% of "
        "the plan). 70B pre-training: training 122.4 days vs 65.0 needed (plan 52.9)."
    )
    assert "gpu_count" not in {i["item"] for i in h20["compliance"]}

    match = data["Plan Match"]
    by_item = {i["item"]: i for i in match["compliance"]}
    assert by_item["compute"]["status"] == "pass"
    assert by_item["memory_fit"]["status"] == "pass"
    assert match["delivered"]["workloads"][0]["training_days"] == round(plan_days, 4)


def test_too_few_gpus_fail_memory_fit(h200_plan, api_for, buyer, org, procurement):
    api = api_for(buyer)
    _post_bid(
        api, procurement, make_vendor(org), accelerator="h20-sxm-96gb", gpu_count=8
    )
    (entry,) = _comparison(api, procurement).values()
    memory_fit = next(i for i in entry["compliance"] if i["item"] == "memory_fit")
    assert (memory_fit["status"], memory_fit["required"], memory_fit["offered"]) == (
        "fail",
        1,
        0,
    )
    assert "70B pre-training" in memory_fit["note"]


def test_page_and_workbook_show_delivered_days_next_to_the_promise(
    h200_plan, api_for, client_for, buyer, org, procurement
):
    _post_bid(
        api_for(buyer),
        procurement,
        make_vendor(org, "H20 Box"),
        accelerator="h20-sxm-96gb",
        gpu_count=256,
        promised_training_days=40,
        network_gbps_per_gpu=4,
    )
    client = client_for(buyer)
    html = client.get(
        reverse("vendors:comparison", args=[procurement.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Delivered capability (sizing engine)" in html
    assert "Training time: 70B pre-training (days)" in html
    assert "122.4" in html
    assert "256 × NVIDIA HGX H20 96GB (China-specific)" in html
    assert "Training time promised by the vendor (days)" in html
    # 256 x H20 on 70B: the engine's scale-out traffic is ~6.8 Gb/s per GPU to hide
    # behind compute; 4 Gb/s cannot carry it.
    assert (
        "network 4 Gb/s per GPU is below the 6.8 Gb/s this run needs: the days are "
        "optimistic"
    ) in html
    bids_page = client.get(reverse("vendors:bids", args=[procurement.pk]))
    assert "<td>NVIDIA HGX H20 96GB (China-specific)</td>" in bids_page.content.decode()
    response = client.get(
        reverse("vendors:comparison-export", args=[procurement.pk, "xlsx"]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = {row[0]: row[1] for row in sheet.iter_rows(values_only=True)}
    # numbers, shown to one decimal as on the page (the notes are the cells' comments)
    assert round(rows["Training time: 70B pre-training (days)"], 1) == 122.4
    assert rows["Training time promised by the vendor (days)"] == 40
    assert round(rows["Effective compute (PFLOPS, BF16 dense)"], 1) == 37.9


SERVE_8B = {
    "name": "8B chat",
    "kind": "inference",
    "model_preset": "llama-3.1-8b",
    "context_tokens": 2048,
    "output_tokens": 256,
    "concurrent_requests": 64,
    "ttft_ms": 2000,
    "tpot_ms": 50,
}


def test_serving_capacity_at_the_latency_targets_next_to_the_promise(
    h200_plan, api_for, client_for, buyer, it_lead, org, procurement
):
    sizing_services.create_workload(procurement=procurement, **SERVE_8B)
    plan = sizing_services.compute_sizing_plan(procurement=procurement, user=it_lead)
    planned = plan.result["workloads"][1]
    _post_bid(
        api_for(buyer),
        procurement,
        make_vendor(org, "Plan Match"),
        accelerator="h200-sxm-141gb",
        gpu_count=plan.result["gpu_count"],
        promised_tokens_per_s=50000,
    )
    (entry,) = _comparison(api_for(buyer), procurement).values()
    serving = entry["delivered"]["workloads"][1]
    assert serving["name"] == "8B chat"
    assert serving["gpu_count"] == planned["gpu_count"]  # the plan's own split
    assert serving["tokens_per_second"] == pytest.approx(
        planned["inference"]["tokens_per_second"], rel=1e-4
    )
    assert serving["meets_latency"] is True
    assert serving["concurrent_requests"] >= 64
    assert entry["delivered"]["promised_tokens_per_s"] == 50000
    compute = next(i for i in entry["compliance"] if i["item"] == "compute")
    assert compute["status"] == "pass"
    assert "8B chat:" in compute["note"] and "tokens/s" in compute["note"]
    html = (
        client_for(buyer)
        .get(
            reverse("vendors:comparison", args=[procurement.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
        .content.decode()
    )
    assert "Serving capacity: 8B chat (tokens/s)" in html
    assert "Serving throughput promised by the vendor (tokens/s)" in html
    assert "50,000" in html


def test_queries_do_not_grow_with_distinct_offers(h200_plan, org, procurement, buyer):
    def queries():
        with CaptureQueriesContext(connection) as ctx:
            result = comparison.build_comparison(procurement=procurement, user=buyer)
            comparison.comparison_groups(result)
            comparison.comparison_json(result)
        return len(ctx.captured_queries), result

    offers = [("h200-sxm-141gb", 96), ("h20-sxm-96gb", 256)]
    for index, (key, count) in enumerate(offers):
        make_bid(
            procurement, make_vendor(org, f"V{index}"), accelerator=key, gpu_count=count
        )
    two, _ = queries()
    more = [("h100-sxm-80gb", 128), ("b200-sxm-180gb", 64), ("h20-sxm-96gb", 512)]
    for index, (key, count) in enumerate(more):
        make_bid(
            procurement, make_vendor(org, f"W{index}"), accelerator=key, gpu_count=count
        )
    five, result = queries()
    assert two == five
    assert {c.delivered["accelerator"] for c in result.columns} == {
        "h200-sxm-141gb",
        "h20-sxm-96gb",
        "h100-sxm-80gb",
        "b200-sxm-180gb",
    }
