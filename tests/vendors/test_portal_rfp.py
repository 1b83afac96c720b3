"""The portal states the RFP pack's own content: the same minimums (figures,
comparison, wording) in the page, the API and the feedback; the weights only when
published; the deadline with its time zone, the instructions and the answered
questions; and the pack itself (PDF, DOCX, ZIP) through the vendor's link."""

from __future__ import annotations

import html
import io
import zipfile

import docx
import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.vendors.portal_support import (  # noqa: F401
    FIELDS,
    GOOD_ROWS,
    HONEST,
    catalog_fixture,
    invitation_fixture,
    rfp_fixture,
    token_fixture,
    workbook,
)
from vendors.models import RfpQuestion
from vendors.portal import submissions
from vendors.rfp.content import rfp_content

pytest_plugins = ["tests.vendors.rfp_pack_support"]  # the rfp_plan fixture


def _page(client, token, lang="en") -> str:
    response = client.get(
        reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _pack_rows(procurement, lang="en") -> dict:
    with translation.override(lang):
        return {m["code"]: m for m in rfp_content(procurement)["minimums"]}


def test_the_portal_states_the_packs_minimums_word_for_word(
    rfp_plan, client, procurement, invitation, token
):
    pack = _pack_rows(procurement)
    page = _page(client, token)
    for code in ("compute", "vram_gb_per_gpu", "it_power_kw", "storage_tb"):
        assert f"{pack[code]['label']}</dt><dd><strong>{pack[code]['shown']}" in page
    # hand-checked in test_rfp_content: 96 x H200 SXM
    for shown in ("≥ 94.9 PFLOPS", "≥ 141 GB", "≤ 122.4 kW", "≤ 65 days"):
        assert shown in page
    body = APIClient().get(f"/api/v1/portal/{token}/", HTTP_ACCEPT_LANGUAGE="en").json()
    with translation.override("en"):
        stated = [(m["code"], m["shown"]) for m in rfp_content(procurement)["minimums"]]
    assert [(r["code"], r["shown"]) for r in body["rfp"]["requirements"]] == stated


def test_feedback_judges_the_figures_the_pack_states(rfp_plan, procurement, invitation):
    pack, pack_zh = _pack_rows(procurement), _pack_rows(procurement, "zh-hans")
    # 64 x H100 against the plan's 96 x H200, and far too little storage
    submission = submissions.submit(
        invitation,
        fields={**FIELDS, "storage_tb": 1},
        proposal_text=HONEST,
        workbook=workbook(GOOD_ROWS),
    )
    short = {
        m["item"]: m
        for m in submission.feedback["missing"]
        if m["code"] == "plan_minimum"
    }
    # 80 GB per GPU against the plan's 141 GB is no shortfall any more: the memory
    # item passes when every planned workload fits in the offered GPUs (issue 24,
    # H20 against an H200 plan), and the 70B training fits in 64 x H100 80 GB
    assert {"compute", "storage_tb"} <= set(short)
    assert "vram_gb_per_gpu" not in short
    for code in ("compute", "storage_tb"):
        # the pack keeps four decimals of the same plan figure
        assert short[code]["required"] == pytest.approx(pack[code]["value"], abs=1e-4)
        assert short[code]["stated"] == [pack[code]["shown"], pack_zh[code]["shown"]]
        assert short[code]["label"] == [pack[code]["label"], pack_zh[code]["label"]]
        assert short[code]["status"] == "fail"
    assert "memory_fit" not in short  # the workloads fit: why memory passes


def test_weights_are_shown_only_when_published(
    rfp_plan, client, procurement, rfp, invitation, token
):
    page = _page(client, token)
    assert "Evaluation weights" not in page
    body = (
        APIClient()
        .get(f"/api/v1/portal/{token}/", HTTP_ACCEPT_LANGUAGE="en")
        .json()["rfp"]
    )
    assert (body["weights_published"], body["weights"]) == (False, [])
    rfp.publish_weights = True
    rfp.save(update_fields=["publish_weights"])
    with translation.override("en"):
        criteria = rfp_content(procurement)["criteria"]
    page = _page(client, token)
    assert "Evaluation weights" in page
    for section in criteria:
        assert f"<dt>{section['title']}</dt><dd>{section['weight_percent']} %" in page
    assert sum(s["weight_percent"] for s in criteria) == pytest.approx(100, abs=0.5)
    body = (
        APIClient()
        .get(f"/api/v1/portal/{token}/", HTTP_ACCEPT_LANGUAGE="en")
        .json()["rfp"]
    )
    assert [w["weight_percent"] for w in body["weights"]] == [
        s["weight_percent"] for s in criteria
    ]


def test_deadline_with_its_time_zone_instructions_and_answered_questions(
    client, procurement, rfp, invitation, token, buyer
):
    import datetime

    from django.utils import timezone

    rfp.deadline = timezone.make_aware(datetime.datetime(2031, 3, 1, 18, 0))
    rfp.instructions = "Quote in CNY, delivery to Hangzhou."
    rfp.save(update_fields=["deadline", "instructions"])
    RfpQuestion.objects.create(
        procurement=procurement,
        invitation=invitation,
        question="Is InfiniBand required?",
        answer="RoCE is acceptable.",
        answered_at=timezone.now(),
        answered_by=buyer,
    )
    page = _page(client, token)
    assert '<strong id="deadline-shown">2031-03-01 18:00 CST</strong>' in page
    assert "Quote in CNY, delivery to Hangzhou." in page
    assert "Is InfiniBand required?" in page and "RoCE is acceptable." in page
    body = (
        APIClient()
        .get(f"/api/v1/portal/{token}/", HTTP_ACCEPT_LANGUAGE="en")
        .json()["rfp"]
    )
    assert body["deadline_shown"] == "2031-03-01 18:00 CST"
    assert body["instructions"] == "Quote in CNY, delivery to Hangzhou."


def test_the_vendor_downloads_the_real_pack_as_pdf_docx_and_zip(
    rfp_plan, client, procurement, invitation, token
):
    def get(fmt, lang="en", link=token):
        return client.get(
            reverse("vendors:portal-pack", args=[link, fmt]),
            HTTP_ACCEPT_LANGUAGE=lang,
        )

    pdf = get("pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert pdf["Content-Disposition"].endswith(f'rfp-{procurement.pk}-en.pdf"')
    word = get("docx", "zh-hans")
    assert word.status_code == 200 and word["Content-Type"].endswith("document")
    text = "\n".join(p.text for p in docx.Document(io.BytesIO(word.content)).paragraphs)
    assert "投标必须满足的最低要求" in text
    archive = get("zip")
    assert archive.status_code == 200 and archive["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(archive.content)).namelist()
    assert sorted(n.rsplit(".", 1)[1] for n in names) == ["docx", "pdf", "xlsx"]
    assert get("xlsx").status_code == 404  # the workbook alone has its own link
    assert get("pdf", link=token + "x").status_code == 403
