"""Issue 24 through the app: a bid's power from the catalogue for its server, the
line-item term and scope through the API and the import, cloud prices per
accelerator and region, and the cloud caveated for on-prem-only data."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sizing.services import server_facts
from tco.services import cloud_prices_for
from tests.vendors.test_api import BID_BODY
from tests.vendors.test_support import line, make_bid, make_vendor
from vendors.comparison import pricing
from vendors.services.tco_source import tco_seed_for_bid

# HGX H20 has no published server power: 8 x 400 W x 10.2 / 5.6 (sizing.engine.platform).
H20_NODE_KW = 8 * 0.4 * 10.2 / 5.6


def test_the_h20_server_power_comes_from_the_catalogue(db):
    server = server_facts(accelerator_key="h20-sxm-96gb")
    assert server["gpus_per_node"] == 8
    assert server["node_max_kw"] == pytest.approx(H20_NODE_KW)  # 5.83 kW, not 10.2


def test_128_h20_are_costed_at_93_kw_not_the_h100_default(db, org, procurement):
    bid = make_bid(
        procurement,
        make_vendor(org),
        accelerator="h20-sxm-96gb",
        gpu_count=128,
        peak_power_kw=None,
    )
    power = pricing.bid_power(bid)
    # 16 nodes x 5.8286 kW = 93.26 kW; the old default 128 x 1.275 = 163.2 kW.
    assert power.used_kw == pytest.approx(16 * H20_NODE_KW)
    tco = pricing.bid_tco(
        bid, pricing.bid_lines(bid), procurement=procurement, plan=None
    )
    assert tco.inputs["it_power_kw"] == pytest.approx(16 * H20_NODE_KW)


def test_identical_h20_hardware_costs_the_same_power_whatever_the_claim(
    db, org, procurement
):
    lines = [line("gpu_servers", 29, 1_300_000)]
    high = make_bid(
        procurement,
        make_vendor(org, "A"),
        accelerator="h20-sxm-96gb",
        gpu_count=232,
        peak_power_kw=296,
        lines=lines,
    )
    low = make_bid(
        procurement,
        make_vendor(org, "B"),
        accelerator="h20-sxm-96gb",
        gpu_count=232,
        peak_power_kw=168,
        lines=lines,
    )
    tcos = [
        pricing.bid_tco(b, pricing.bid_lines(b), procurement=procurement, plan=None)
        for b in (high, low)
    ]
    # 29 nodes x 5.8286 = 169.03 kW for both; the 296 kW claim (29 x 10.2, an H100
    # server) is flagged and not used.
    assert tcos[0].inputs["it_power_kw"] == tcos[1].inputs["it_power_kw"]
    assert tcos[0].inputs["it_power_kw"] == pytest.approx(29 * H20_NODE_KW)
    assert tcos[0].normalized_tco == tcos[1].normalized_tco
    assert tcos[0].power.claim_status == "implausible"
    assert tcos[1].power.claim_status == "plausible"


def test_api_takes_a_support_term_and_a_package_scope(api_for, buyer, org, procurement):
    body = {**BID_BODY, "vendor": make_vendor(org).pk}
    body["line_items"] = [
        BID_BODY["line_items"][0],
        {**BID_BODY["line_items"][1], "year_from": 4, "year_to": 5},
        {
            "category": "other",
            "description": "服务包（含网络、存储、安装实施）",
            "quantity": "1",
            "unit_price": "12000000.00",
            "recurring": False,
            "scope": ["network", "storage", "installation"],
        },
    ]
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/", body, format="json"
    )
    assert response.status_code == 201, response.json()
    items = response.json()["line_items"]
    assert (items[1]["year_from"], items[1]["year_to"]) == (4, 5)
    assert items[2]["scope"] == ["network", "storage", "installation"]


def test_api_refuses_a_term_that_ends_before_it_starts(
    api_for, buyer, org, procurement
):
    body = {**BID_BODY, "vendor": make_vendor(org).pk}
    body["line_items"] = [{**BID_BODY["line_items"][1], "year_from": 5, "year_to": 4}]
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/",
        body,
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["line_items"] == {
        "0": {"year_to": ["The last year must not be before the first year."]}
    }


def test_a_chinese_sheet_imports_the_term_and_the_scope(
    api_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    sheet = (
        "类别,描述,数量,单价,按年计费,起始年,截止年,同时包含\r\n"
        "GPU 服务器,8 卡 H20 服务器（含安装调试）,16,1300000,否,,,安装调试\r\n"
        "技术支持,第 4-5 年原厂维保,1,300000,是,4,5,\r\n"
        '其他,服务包,1,12000000,否,,,"网络、存储、安装调试"\r\n'
    ).encode("utf-8-sig")
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import",
        {"file": SimpleUploadedFile("bid.csv", sheet)},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    items = list(bid.line_items.order_by("position"))
    assert items[0].scope == ["installation"]
    assert (items[1].year_from, items[1].year_to) == (4, 5)
    assert items[2].scope == ["network", "storage", "installation"]
    tco = pricing.bid_tco(
        bid, pricing.bid_lines(bid), procurement=procurement, plan=None
    )
    support = next(i for i in tco.breakdown if i.category == "support")
    assert support.amount == Decimal("600000.00")  # 300,000 x 2 years, not 5
    assert {h["category"] for h in tco.hidden_costs} <= {"power_cooling", "support"}


def test_h20_cloud_is_priced_from_china_estimates_not_aws_h100(db):
    prices = cloud_prices_for(accelerator="h20-sxm-96gb", region="cn", currency="CNY")
    # tco/data/cloud_prices.csv: 11.99 CNY/GPU-h China H100 lease x 0.479 = 5.74.
    assert prices == {
        "cloud_on_demand_per_gpu_hour": 15.94,
        "cloud_reserved_per_gpu_hour": 5.74,
        "cloud_spot_per_gpu_hour": 4.78,
    }
    assert prices["cloud_reserved_per_gpu_hour"] != 17.83  # the AWS H100 default
    assert (
        cloud_prices_for(accelerator="h20-sxm-96gb", region="global", currency="CNY")
        is None
    )


def test_a_tco_from_an_h20_bid_compares_with_h20_cloud(db, org, procurement, buyer):
    procurement.region = "cn"
    procurement.save()
    bid = make_bid(
        procurement, make_vendor(org), accelerator="h20-sxm-96gb", gpu_count=128
    )
    seed = tco_seed_for_bid(procurement=procurement, bid_id=bid.pk, user=buyer)
    assert seed.inputs["cloud_reserved_per_gpu_hour"] == pytest.approx(5.74)
