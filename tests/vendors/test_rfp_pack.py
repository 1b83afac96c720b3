"""The RFP pack as files: a PDF whose text holds the Chinese headings and the plan's
minimums, a DOCX with the same requirement rows, and a ZIP of both with the bid
template (data validation kept), through the page and the API."""

import io
import zipfile

import docx
import openpyxl
import pytest
from django.urls import reverse
from pypdf import PdfReader

from vendors.rfp.pack import rfp_pack

pytest_plugins = ["tests.vendors.rfp_pack_support"]  # the rfp_plan fixture


def _pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def _docx_rows(data: bytes) -> list[list[str]]:
    document = docx.Document(io.BytesIO(data))
    return [
        [cell.text for cell in row.cells]
        for table in document.tables
        for row in table.rows
    ]


def test_pdf_in_chinese_has_the_headings_and_the_minimums(rfp_plan, procurement):
    data, content_type, filename = rfp_pack(procurement, "pdf", language="zh-hans")
    assert content_type == "application/pdf"
    assert filename == f"rfp-{procurement.pk}-zh.pdf"
    text = _pdf_text(data)
    for heading in ("需求", "投标必须满足的最低要求", "投标须回答的问题", "评标方式"):
        assert heading in text
    for figure in ("94.9 PFLOPS", "141 GB", "400 Gb/s", "48 GB/s", "122.4 kW"):
        assert figure in text


def test_pdf_in_english(rfp_plan, procurement):
    data, _type, filename = rfp_pack(procurement, "pdf", language="en")
    text = " ".join(_pdf_text(data).split())
    assert filename.endswith("-en.pdf")
    assert "Minimum requirements the bid must meet" in text
    assert "Training time:" in text
    assert "≤ 65 days" in text


def test_docx_reads_back_with_the_same_requirement_rows(rfp_plan, procurement):
    data, content_type, _name = rfp_pack(procurement, "docx", language="zh-hans")
    assert content_type.endswith("wordprocessingml.document")
    rows = _docx_rows(data)
    assert ["每卡显存", "≥ 141 GB"] == rows[[r[0] for r in rows].index("每卡显存")][:2]
    assert ["交付算力", "≥ 94.9 PFLOPS"] == (
        rows[[r[0] for r in rows].index("交付算力")][:2]
    )
    document = docx.Document(io.BytesIO(data))
    headings = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    assert "2 投标必须满足的最低要求" in headings
    fonts = document.styles["Normal"].element.rPr.rFonts
    assert fonts.get(docx.oxml.ns.qn("w:eastAsia")) == "Noto Sans CJK SC"


def test_zip_holds_pdf_docx_and_the_bid_template_with_validation(rfp_plan, procurement):
    data, content_type, filename = rfp_pack(procurement, "zip", language="en")
    assert content_type == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(data))
    base = f"rfp-{procurement.pk}-en"
    assert sorted(archive.namelist()) == sorted(
        [f"{base}.pdf", f"{base}.docx", f"{base}-bid-line-items.xlsx"]
    )
    workbook = openpyxl.load_workbook(
        io.BytesIO(archive.read(f"{base}-bid-line-items.xlsx"))
    )
    sheet = workbook.worksheets[0]
    assert sheet.title == "Line items"
    assert len(sheet.data_validations.dataValidation) >= 3
    assert workbook.sheetnames[1] == "Instructions"
    assert archive.read(f"{base}.pdf").startswith(b"%PDF")


def test_pack_without_a_plan_says_so_instead_of_failing(db, procurement):
    data, _type, _name = rfp_pack(procurement, "pdf", language="en")
    assert "No sizing plan yet" in _pdf_text(data)
    rows = _docx_rows(rfp_pack(procurement, "docx", language="en")[0])
    assert not any(r[0] == "Memory per GPU" for r in rows)


def test_unknown_format_is_refused(db, procurement):
    with pytest.raises(ValueError):
        rfp_pack(procurement, "exe", language="en")


def test_xlsx_is_the_bid_template_alone_in_the_language(db, procurement):
    data, content_type, filename = rfp_pack(procurement, "xlsx", language="zh-hans")
    assert content_type.endswith("spreadsheetml.sheet")
    assert filename == f"rfp-{procurement.pk}-zh-bid-line-items.xlsx"
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    assert workbook.sheetnames == ["报价明细", "填写说明"]
    assert workbook.worksheets[0].data_validations.dataValidation


def test_page_download_in_the_request_language(
    rfp_plan, procurement, client_for, viewer
):
    response = client_for(viewer).get(
        reverse("vendors:rfp-pack", args=[procurement.pk, "pdf"]),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert f"rfp-{procurement.pk}-zh.pdf" in response["Content-Disposition"]
    assert "每卡显存" in _pdf_text(response.content)
    missing = client_for(viewer).get(
        reverse("vendors:rfp-pack", args=[procurement.pk, "csv"])
    )
    assert missing.status_code == 404


def test_api_pack_download(rfp_plan, procurement, api_for, it_lead):
    response = api_for(it_lead).get(
        f"/api/v1/procurements/{procurement.pk}/rfp/pack.docx",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    rows = _docx_rows(response.content)
    assert ["Memory per GPU", "≥ 141 GB"] == (
        rows[[r[0] for r in rows].index("Memory per GPU")][:2]
    )
    assert (
        api_for(it_lead)
        .get(f"/api/v1/procurements/{procurement.pk}/rfp/pack.exe")
        .status_code
        == 404
    )


def test_another_organisation_gets_404_for_the_pack(
    rfp_plan, procurement, client_for, api_for, outsider
):
    url = reverse("vendors:rfp-pack", args=[procurement.pk, "zip"])
    assert client_for(outsider).get(url).status_code == 404
    api = f"/api/v1/procurements/{procurement.pk}/rfp/pack.zip"
    assert api_for(outsider).get(api).status_code == 404
