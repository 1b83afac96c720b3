import io
import zipfile

import openpyxl
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import pdf_bytes
from tests.vendors.test_support import make_bid, make_vendor
from vendors import comparison
from vendors.comparison import documents as exports
from vendors.models import BidAttachment
from vendors.services import attachments


def xlsx(rows):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


HEADER = ["category", "description", "quantity", "unit_price", "recurring"]


def import_url(procurement, bid):
    return f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import"


def test_xlsx_import_replaces_line_items(api_for, buyer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    data = xlsx(
        [
            HEADER,
            ["gpu_servers", "8x H100", 8, 2000000, "no"],
            ["support", "24x7", 1, 300000, "yes"],
        ]
    )
    upload = SimpleUploadedFile("bid.xlsx", data)
    response = api_for(buyer).post(
        import_url(procurement, bid), {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    items = list(bid.line_items.order_by("position"))
    assert [(i.category, i.quantity, i.unit_price, i.recurring) for i in items] == [
        ("gpu_servers", 8, 2000000, False),
        ("support", 1, 300000, True),
    ]


def test_bad_rows_are_reported_and_nothing_is_imported(
    api_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    before = list(bid.line_items.values_list("id", flat=True))
    data = xlsx(
        [
            HEADER,
            ["gpu_servers", "8x H100", 8, 2000000, "no"],
            ["network", "IB", 1, "cheap", "no"],
            ["spaceship", "", 0, 1, "maybe"],
        ]
    )
    response = api_for(buyer).post(
        import_url(procurement, bid),
        {"file": SimpleUploadedFile("bid.xlsx", data)},
        format="multipart",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["file"] == []
    assert {
        "row": 3,
        "column": "unit_price",
        # The key stays the column; the message is in the request's language.
        "message": "必须是不小于 0 的数（填写的是“cheap”）。",
    } in body["rows"]
    assert {(r["row"], r["column"]) for r in body["rows"]} == {
        (3, "unit_price"),
        (4, "category"),
        (4, "description"),
        (4, "quantity"),
        (4, "recurring"),
    }
    assert list(bid.line_items.values_list("id", flat=True)) == before


def test_non_spreadsheet_import_is_a_file_error(api_for, buyer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    response = api_for(buyer).post(
        import_url(procurement, bid),
        {"file": SimpleUploadedFile("x.xlsx", b"\x00\x01binary junk")},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["file"] and response.json()["rows"] == []
    assert bid.line_items.count() == 8


def test_csv_import_through_the_page(client_for, buyer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    csv = "category,description,quantity,unit_price,recurring\r\nstorage,NVMe,2,5000,否\r\n"
    response = client_for(buyer).post(
        reverse("vendors:line-item-import", args=[procurement.pk, bid.pk]),
        {"file": SimpleUploadedFile("items.csv", csv.encode("utf-8"))},
    )
    assert response.status_code == 302
    assert list(bid.line_items.values_list("category", "quantity")) == [("storage", 2)]


def test_template_downloads(client):
    response = client.get(
        reverse("vendors:line-item-template", args=["xlsx"]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    workbook = openpyxl.load_workbook(io.BytesIO(response.content))
    assert [c.value for c in workbook.active[1]] == [
        "Category", "Description", "Quantity", "Unit price", "Recurring (per year)",
        "From year", "To year", "Also covers",
    ]  # fmt: skip


def test_pdf_attachment_accepted_and_renamed_exe_rejected(
    api_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    url = f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/attachments/"
    api = api_for(buyer)
    ok = api.post(
        url,
        {"file": SimpleUploadedFile("proposal.pdf", pdf_bytes())},
        format="multipart",
    )
    assert ok.status_code == 201, ok.json()
    assert ok.json()["kind"] == "pdf"
    fake = api.post(
        url,
        {"file": SimpleUploadedFile("proposal.pdf", b"MZ\x90\x00 windows exe")},
        format="multipart",
    )
    assert fake.status_code == 400
    assert "file" in fake.json()
    zip_not_xlsx = api.post(
        url,
        {"file": SimpleUploadedFile("a.xlsx", b"PK\x03\x04garbage")},
        format="multipart",
    )
    assert zip_not_xlsx.status_code == 400
    # Issue 10: magic bytes alone no longer pass; the content must parse.
    not_a_pdf = api.post(
        url,
        {"file": SimpleUploadedFile("q.pdf", b"%PDF-1.4\n% not really\n%%EOF\n")},
        format="multipart",
    )
    assert not_a_pdf.status_code == 400
    assert BidAttachment.objects.filter(bid=bid).count() == 1
    good_xlsx = api.post(
        url,
        {"file": SimpleUploadedFile("prices.xlsx", xlsx([HEADER]))},
        format="multipart",
    )
    assert good_xlsx.status_code == 201
    assert BidAttachment.objects.filter(bid=bid).count() == 2


def test_oversized_attachment_rejected(api_for, buyer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    big = b"%PDF-" + b"0" * (10 * 1024 * 1024)
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/attachments/",
        {"file": SimpleUploadedFile("big.pdf", big)},
        format="multipart",
    )
    assert response.status_code in (400, 413)
    assert BidAttachment.objects.count() == 0


def test_xlsx_export_escapes_formula_cells(buyer, org, procurement):
    make_bid(procurement, make_vendor(org, '=HYPERLINK("http://evil")'))
    result = comparison.build_comparison(procurement=procurement, user=buyer)
    workbook = openpyxl.load_workbook(io.BytesIO(exports.comparison_xlsx(result)))
    values = [c.value for row in workbook.active.iter_rows() for c in row if c.value]
    assert '\'=HYPERLINK("http://evil")' in values
    assert not any(isinstance(v, str) and v.startswith(("=", "+", "@")) for v in values)


def test_pdf_export_renders(client_for, buyer, org, procurement):
    make_bid(procurement, make_vendor(org, "中文供应商"))
    response = client_for(buyer).get(
        reverse("vendors:comparison-export", args=[procurement.pk, "pdf"])
    )
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF-")


def test_zip_with_xlsx_names_that_openpyxl_cannot_open_is_refused(
    api_for, buyer, org, procurement
):
    # Issue 10, item 7: any ZIP holding [Content_Types].xml and xl/ was accepted.
    bid = make_bid(procurement, make_vendor(org))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", "not xml at all")
        zf.writestr("xl/payload.bin", b"\x00" * 64)
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/attachments/",
        {"file": SimpleUploadedFile("prices.xlsx", archive.getvalue())},
        format="multipart",
    )
    assert response.status_code == 400
    assert "file" in response.json()
    assert BidAttachment.objects.count() == 0


def test_attachment_is_stored_and_named_by_what_it_is(buyer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    stored = attachments.add_attachment(
        bid=bid, user=buyer, upload=SimpleUploadedFile("quote.exe", pdf_bytes())
    )
    assert stored.kind == "pdf"
    assert stored.file.name.endswith("/quote.pdf")
    assert attachments.download_name(stored) == "quote.pdf"
    assert attachments.CONTENT_TYPES[stored.kind] == "application/pdf"


def test_attachment_downloads_under_its_own_extension(
    client_for, buyer, org, procurement
):
    # Issue 10, item 7: a PDF uploaded as quote.exe is served as quote.pdf, as a PDF.
    bid = make_bid(procurement, make_vendor(org))
    stored = attachments.add_attachment(
        bid=bid, user=buyer, upload=SimpleUploadedFile("quote.exe", pdf_bytes())
    )
    response = client_for(buyer).get(
        reverse("vendors:attachment-download", args=[procurement.pk, bid.pk, stored.pk])
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="quote.pdf"' in response["Content-Disposition"]
