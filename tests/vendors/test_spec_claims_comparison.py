"""Spec claims in the comparison: the API's `spec_claims` per bid and the page's row,
against the catalog loaded from sizing/data (H100 SXM: 80 GB HBM3, DGX H100 10.2 kW,
NVIDIA H100 datasheet and DGX H100 user guide via hardware-facts.md)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import translation

from sizing.services.catalog import load_reference_catalog
from tests.vendors.test_support import make_bid, make_vendor
from vendors.services import caching, evaluation

WRONG = "本方案提供 64 张 H100 96GB HBM3e GPU，每 GPU 400 Gb/s InfiniBand 网络。"
HONEST = "Each H100 SXM5 GPU has 80 GB of HBM3; DGX H100 server: 10.2 kW max."


@pytest.fixture
def catalog(db):
    load_reference_catalog()


@pytest.fixture
def two_bids(catalog, org, procurement):
    wrong = make_bid(
        procurement, make_vendor(org, "Quokka Systems Ltd"), proposal_text=WRONG
    )
    honest = make_bid(
        procurement, make_vendor(org, "Honest Compute"), proposal_text=HONEST
    )
    return wrong, honest


def _entries(api, procurement, lang="en"):
    response = api.get(
        f"/api/v1/procurements/{procurement.pk}/comparison/",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 200
    return {e["bid"]: e for e in response.json()}


def test_api_flags_h100_96gb_hbm3e_with_the_datasheet_figure(
    api_for, buyer, procurement, two_bids
):
    wrong, honest = two_bids
    data = _entries(api_for(buyer), procurement)
    claims = {c["kind"]: c for c in data[wrong.pk]["spec_claims"]}
    assert claims["memory_gb"]["status"] == "mismatch"
    assert claims["memory_gb"]["claimed"] == "96 GB"
    assert claims["memory_gb"]["datasheet"] == "80 GB (H100 SXM5 80GB)"
    assert "H100" in claims["memory_gb"]["source"]
    assert claims["memory_type"]["status"] == "mismatch"
    assert claims["memory_type"]["datasheet"] == "HBM3 (H100 SXM5 80GB)"
    assert set(claims["memory_gb"]) == {
        "kind",
        "claim",
        "claimed",
        "datasheet",
        "status",
        "source",
        "note",
    }
    # 81.6 kW peak over 8 servers = 10.2 kW each: the field's claim is fine
    assert claims["server_power_kw"]["status"] == "ok"
    honest_claims = data[honest.pk]["spec_claims"]
    assert {c["kind"] for c in honest_claims} == {
        "memory_gb",
        "memory_type",
        "server_power_kw",
    }
    assert {c["status"] for c in honest_claims} == {"ok"}


def test_api_speaks_chinese_to_a_chinese_reader(api_for, buyer, procurement, two_bids):
    wrong, _honest = two_bids
    claims = _entries(api_for(buyer), procurement, "zh-hans")[wrong.pk]["spec_claims"]
    power = next(c for c in claims if c["kind"] == "server_power_kw")
    assert power["datasheet"].startswith("每台 8 卡服务器最大 10.2 kW")


def test_page_shows_the_spec_claims_row_with_the_mismatch_highlighted(
    client_for, buyer, procurement, two_bids
):
    with translation.override("en"):
        response = client_for(buyer).get(
            reverse("vendors:comparison", args=[procurement.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "Spec claims" in page
    assert "2 of 3 claims contradict the datasheet" in page
    assert "0 of 4 claims contradict the datasheet" in page
    assert "Memory per GPU: 96 GB (datasheet: 80 GB (H100 SXM5 80GB))" in page
    assert 'class="num status-fail"' in page and 'class="num status-pass"' in page
    # the claim as written and the datasheet's source in the tooltip
    assert (
        "“本方案提供 64 张 H100 96GB HBM3e GPU，每 GPU 400 Gb/s InfiniBand 网络。” · source:"
        in page
    )


def test_page_row_in_chinese(client_for, buyer, procurement, two_bids):
    caching.bump_comparison_version()
    response = client_for(buyer).get(
        reverse("vendors:comparison", args=[procurement.pk]),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    page = html.unescape(response.content.decode())
    assert "规格声明核查" in page
    assert "每卡显存：96 GB（数据表：80 GB (H100 SXM5 80GB)）" in page


def test_a_blind_evaluator_reads_claims_without_vendor_names(
    api_for, it_lead, buyer, org, procurement, catalog
):
    bid = make_bid(
        procurement,
        make_vendor(org, "Quokka Systems Ltd"),
        proposal_text="Quokka offers the H100 96GB HBM3e.",
    )
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )
    entry = _entries(api_for(it_lead), procurement)[bid.pk]
    claims = entry["spec_claims"]
    assert "Quokka" not in str(claims)
    memory = next(c for c in claims if c["kind"] == "memory_gb")
    assert memory["claim"] == "[vendor] offers the H100 96GB HBM3e."
    assert memory["status"] == "mismatch"
