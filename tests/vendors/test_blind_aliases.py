"""Blind aliases (issue 22): besides the legal name, a vendor's short names, brands and
product lines are masked for blind evaluators, declared on the vendor or learnt from
its own texts, and the buyer previews what would remain visible before blind grading."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse

from tests.vendors.blind_support import QUOKKA_LINES, ZEBRA_LINES, _bid
from tests.vendors.test_support import BALANCED_TEXT, line
from vendors.models import AuditEntry, Vendor
from vendors.services import evaluation, suppliers

LEGAL = "上海华东智能计算技术有限公司"
# The leaks: a short name in the text, a brand in the server model and in the
# software line; and a code name said once, which the buyer declares.
PROPOSAL = "华东智算为贵司提供天际 TJ-AI8000 集群，配套天际 AI 平台。" + BALANCED_TEXT
LEAKS = ("华东智算", "天际", "TJ-AI8000", "HDZS-Q1", "上海华东")
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def blind_bids(procurement, buyer):
    org = procurement.organisation
    huadong = suppliers.create_vendor(organisation=org, name=LEGAL)
    bid = _bid(
        procurement,
        huadong,
        [
            *ZEBRA_LINES,
            line("software", 1, 88_888, description="天际 AI 平台 软件许可"),
        ],
        PROPOSAL + " Project code HDZS-Q1.",
        buyer,
    )
    bid.server_model = "天际 TJ-AI8000"
    bid.save()
    suppliers.create_case_study(
        vendor=huadong,
        bids=[bid],
        client_industry="金融",
        solution_details="华东智算为某银行交付 256 卡集群。",
    )
    quokka = suppliers.create_vendor(organisation=org, name="Quokka Systems")
    _bid(procurement, quokka, QUOKKA_LINES, BALANCED_TEXT, buyer)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )
    return huadong, bid


def test_the_buyer_previews_learnt_aliases_and_what_would_remain(
    procurement, buyer, it_lead, blind_bids, api_for
):
    url = f"/api/v1/procurements/{procurement.pk}/blind-preview/"
    assert api_for(it_lead).get(url).status_code == 403
    body = api_for(buyer).get(url, **EN).json()
    huadong = next(m for m in body if m["vendor"]["name"] == LEGAL)
    learnt = {c["term"]: c for c in huadong["learnt"]}
    assert {"华东智算", "天际", "TJ-AI8000"} <= set(learnt)
    _vendor, bid = blind_bids
    study = bid.vendor.case_studies.get()
    assert [o["source"] for o in learnt["华东智算"]["occurrences"]] == [
        f"Bid {bid.pk} · proposal text",
        f"Case study {study.pk} · solution details",
    ]
    # Said once: not masked yet, listed with where it occurs.
    remaining = {c["term"]: c for c in huadong["remaining"]}
    assert "HDZS-Q1" in remaining
    assert "Project code HDZS-Q1" in remaining["HDZS-Q1"]["occurrences"][0]["snippet"]
    # Words both vendors write are nobody's alias.
    assert "集群" not in learnt and "PyTorch" not in learnt


def test_a_blind_evaluator_sees_none_of_a_vendors_aliases(
    procurement, buyer, it_lead, blind_bids, api_for, client_for
):
    huadong, bid = blind_bids
    # The buyer declares the one-off code name from the preview page.
    response = client_for(buyer).post(
        reverse("vendors:blind-alias", args=[procurement.pk]),
        {"vendor": huadong.pk, "term": "HDZS-Q1"},
    )
    assert response.status_code == 302
    assert Vendor.objects.get(pk=huadong.pk).aliases == ["HDZS-Q1"]
    assert AuditEntry.objects.filter(target=f"vendor #{huadong.pk} aliases").exists()
    api = api_for(it_lead)
    texts = [
        str(api.get(f"/api/v1/procurements/{procurement.pk}/comparison/").json()),
        str(api.get(f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/").json()),
    ]
    client = client_for(it_lead)
    for name in ("comparison", "bids"):
        texts.append(
            client.get(
                reverse(f"vendors:{name}", args=[procurement.pk]), **EN
            ).content.decode()
        )
    texts.append(
        client.get(
            reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]), **EN
        ).content.decode()
    )
    xlsx = client.get(
        reverse("vendors:comparison-export", args=[procurement.pk, "xlsx"])
    )
    workbook = openpyxl.load_workbook(io.BytesIO(xlsx.content))
    texts.append(
        str(
            [
                c
                for s in workbook.worksheets
                for r in s.iter_rows(values_only=True)
                for c in r
            ]
        )
    )
    for text in texts:
        for leak in LEAKS:
            assert leak not in text, leak
    assert "[vendor] TJ" not in texts[0]  # the model code went with the brand
    # The buyer (not blind) reads the texts as written.
    page = client_for(buyer).get(
        reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]), **EN
    )
    assert "天际 TJ-AI8000" in page.content.decode()


def test_a_learnt_term_kept_visible_is_not_masked(
    procurement, buyer, it_lead, blind_bids, api_for, client_for
):
    huadong, bid = blind_bids
    client_for(buyer).post(
        reverse("vendors:blind-alias", args=[procurement.pk]),
        {"vendor": huadong.pk, "term": "TJ-AI8000", "action": "keep"},
    )
    assert Vendor.objects.get(pk=huadong.pk).alias_exceptions == ["TJ-AI8000"]
    detail = api_for(it_lead).get(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/", **EN
    )
    assert detail.json()["server_model"] == "[vendor] TJ-AI8000"


def test_aliases_are_declared_through_the_vendor_api_and_form(
    api_for, client_for, buyer, blind_bids
):
    huadong, _bid = blind_bids
    api = api_for(buyer)
    url = f"/api/v1/vendors/{huadong.pk}/"
    response = api.patch(url, {"aliases": ["天际", "x"]}, format="json")
    assert response.status_code == 400
    assert "aliases" in response.json()
    response = api.patch(
        url, {"aliases": [" 天际  AI 平台 ", "天际 ai 平台"]}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["aliases"] == ["天际 AI 平台"]
    page = client_for(buyer).get(reverse("vendors:vendor-detail", args=[huadong.pk]))
    assert "天际 AI 平台</textarea>" in page.content.decode()


def test_the_preview_page_lists_each_vendor(procurement, buyer, blind_bids, client_for):
    html = (
        client_for(buyer)
        .get(reverse("vendors:blind-preview", args=[procurement.pk]), **EN)
        .content.decode()
    )
    assert LEGAL in html and "Would remain visible" in html
    assert 'class="badge ok learnt"' in html and "HDZS-Q1" in html
