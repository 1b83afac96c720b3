"""A line-item sheet is checked against the line item's own fields (issue 10, item 2:
"UI import with price 1e20 or three decimals"): the page and the API share the
import's validation, so both refuse the same rows with the same messages, and
nothing is imported. Also: the blank template is served only as XLSX or CSV."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.vendors.test_support import make_bid, make_vendor

HEADER = "category,description,quantity,unit_price,recurring\r\n"


@pytest.fixture
def bid(procurement, org):
    return make_bid(procurement, make_vendor(org))


def _sheet(row: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("items.csv", (HEADER + row + "\r\n").encode("utf-8"))


@pytest.mark.parametrize(
    ("row", "column"),
    [
        ("gpu_servers,8x H100,8,1e20,no", "unit_price"),
        ("gpu_servers,8x H100,8,2000000.001,no", "unit_price"),
        ("storage,NVMe,1e12,5000,no", "quantity"),
    ],
)
def test_the_page_and_the_api_refuse_the_same_row_alike(
    client_for, api_for, buyer, procurement, bid, row, column
):
    before = list(bid.line_items.values_list("id", flat=True))
    api = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import",
        {"file": _sheet(row)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert api.status_code == 400
    [error] = api.json()["rows"]
    assert (error["row"], error["column"]) == (2, column)

    page = client_for(buyer).post(
        reverse("vendors:line-item-import", args=[procurement.pk, bid.pk]),
        {"file": _sheet(row)},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert page.status_code == 302
    shown = [str(m) for m in get_messages(page.wsgi_request)]
    label = {"unit_price": "Unit price", "quantity": "Quantity"}[column]
    assert f"Row 2, {label}: {error['message']}" in shown
    assert "Nothing was imported." in shown
    assert list(bid.line_items.values_list("id", flat=True)) == before


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh-hans", "第 9 行，数量：必须是大于 0 的数（填写的是“十三”）。"),
        ("en", "Row 9, Quantity: Must be a number above 0 (got “十三”)."),
    ],
)
def test_a_row_error_names_the_column_by_its_label_in_the_users_language(
    client_for, api_for, buyer, procurement, bid, language, expected
):
    """Issue 13: "第 9 行 quantity：must be a number above 0, got '十三'"."""
    before = list(bid.line_items.values_list("id", flat=True))
    rows = "\r\n".join(["storage,NVMe,1,100,no"] * 7 + ["storage,NVMe,十三,100,no"])
    page = client_for(buyer).post(
        reverse("vendors:line-item-import", args=[procurement.pk, bid.pk]),
        {"file": _sheet(rows)},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    shown = [str(m) for m in get_messages(page.wsgi_request)]
    assert expected in shown
    api = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import",
        {"file": _sheet(rows)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    [error] = api.json()["rows"]
    assert (error["row"], error["column"]) == (9, "quantity")
    assert error["message"] == expected.split("：" if language != "en" else ": ")[-1]
    assert list(bid.line_items.values_list("id", flat=True)) == before


@pytest.mark.parametrize(
    ("fmt", "content_type"),
    [
        ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("csv", "text/csv"),
    ],
)
def test_the_template_is_served_in_its_own_formats(client, fmt, content_type):
    response = client.get(f"/vendors/line-item-template.{fmt}")
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"].endswith(f'.{fmt}"')


@pytest.mark.parametrize("fmt", ["exe", "pdf", "xlsx.exe", "XLSX", "xlsx%00"])
def test_any_other_template_extension_is_not_found(client, fmt):
    assert client.get(f"/vendors/line-item-template.{fmt}").status_code == 404
