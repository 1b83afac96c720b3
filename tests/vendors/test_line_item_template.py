"""The line-item template in the user's language: translated headers, a drop-down list
per coded column, an instructions sheet; a sheet filled in Chinese, in English or with
the codes imports the same, and an error names the column by its label."""

import io
from decimal import Decimal

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.vendors.test_support import make_bid, make_vendor
from vendors.engine.importing import parse_line_items
from vendors.services.line_item_template import import_vocabulary

ZH_HEADERS = [
    "类别",
    "描述",
    "数量",
    "单价",
    "按年计费",
    "起始年",
    "截止年",
    "同时包含",
]
EN_HEADERS = [
    "Category",
    "Description",
    "Quantity",
    "Unit price",
    "Recurring (per year)",
    "From year",
    "To year",
    "Also covers",
]
ZH_CATEGORIES = [
    "GPU 服务器", "网络", "存储", "软件", "安装调试", "技术支持", "供电与散热", "培训", "其他"
]  # fmt: skip


def _template(client, language: str) -> openpyxl.Workbook:
    response = client.get(
        reverse("vendors:line-item-template", args=["xlsx"]),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    return openpyxl.load_workbook(io.BytesIO(response.content))


def _lists(sheet) -> dict[str, list[str]]:
    """Each list validation's range and its values."""
    return {
        str(dv.sqref): dv.formula1.strip('"').split(",")
        for dv in sheet.data_validations.dataValidation
        if dv.type == "list"
    }


def test_the_chinese_template_has_chinese_headers_lists_and_instructions(client):
    workbook = _template(client, "zh-hans")
    assert workbook.sheetnames == ["报价明细", "填写说明"]
    sheet = workbook.worksheets[0]
    assert [c.value for c in sheet[1]] == ZH_HEADERS
    assert _lists(sheet) == {"A2:A5001": ZH_CATEGORIES, "E2:E5001": ["是", "否"]}
    numbers = {
        str(dv.sqref): (dv.type, dv.operator, dv.formula1)
        for dv in sheet.data_validations.dataValidation
        if dv.type == "decimal"
    }
    assert numbers == {
        "C2:C5001": ("decimal", "greaterThan", "0"),
        "D2:D5001": ("decimal", "greaterThanOrEqual", "0"),
    }
    # the examples use the labels of the lists, and figures are numbers
    assert [c.value for c in sheet[2]] == [
        "GPU 服务器",
        "8 卡 H100 SXM 服务器，2 颗 CPU，2 TB 内存",
        16,
        2700000,
        "否",
        None,
        None,
        "安装调试",  # installation included in the server price
    ]
    instructions = [
        [c for c in row if c is not None]
        for row in workbook.worksheets[1].iter_rows(values_only=True)
    ]
    # every allowed value with its code and both labels
    assert ["类别", "power_cooling", "供电与散热", "Power and cooling"] in instructions
    assert ["按年计费", "yes", "是", "yes"] in instructions
    rules = {row[0]: row[1] for row in instructions if len(row) == 2}
    assert rules["数量"].startswith("大于 0 的数字")
    assert "¥" in rules["单价"]


def test_the_english_template_has_english_headers_and_lists(client):
    sheet = _template(client, "en").worksheets[0]
    assert [c.value for c in sheet[1]] == EN_HEADERS
    lists = _lists(sheet)
    assert lists["A2:A5001"][0] == "GPU servers"
    assert lists["E2:E5001"] == ["yes", "no"]


def _filled(client, language: str, rows: list[list]) -> bytes:
    workbook = _template(client, language)
    sheet = workbook.worksheets[0]
    sheet.delete_rows(2, 2)  # the examples
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("language", "rows"),
    [
        (
            "zh-hans",
            [
                ["GPU 服务器", "H200 服务器", 4, "1,200,000", "否"],
                ["支持", "维保", 1, 90000, "是"],
            ],
        ),
        (
            "en",
            [
                ["GPU servers", "H200 server", 4, 1200000, "no"],
                ["Support", "support", 1, "90,000.00", "yes"],
            ],
        ),
    ],
)
def test_a_template_filled_in_either_language_imports(
    client, api_for, buyer, org, procurement, language, rows
):
    bid = make_bid(procurement, make_vendor(org))
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import",
        {"file": SimpleUploadedFile("bid.xlsx", _filled(client, language, rows))},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    items = bid.line_items.order_by("position")
    assert [(i.category, i.quantity, i.unit_price, i.recurring) for i in items] == [
        ("gpu_servers", 4, Decimal(1200000), False),
        ("support", 1, Decimal(90000), True),
    ]


def test_headers_labels_and_codes_may_be_mixed():
    data = io.BytesIO()
    workbook = openpyxl.Workbook()
    for row in (
        ["类别", "Description", "quantity", "Unit price", "按年计费"],
        ["Power and cooling", "CDU", 2, 50000, "是"],
        ["网络", "switches", 2, 80000, "No"],
        ["storage", "NVMe", 1, 10000, "yes"],
    ):
        workbook.active.append(row)
    workbook.save(data)
    data.seek(0)
    items = parse_line_items(data, "mixed.xlsx", vocabulary=import_vocabulary())
    assert [(i.category, i.recurring) for i in items] == [
        ("power_cooling", True),
        ("network", False),
        ("storage", True),
    ]


def test_an_import_error_names_the_column_by_its_label(
    client, client_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    before = list(bid.line_items.values_list("pk", flat=True))
    data = _filled(client, "zh-hans", [["网络", "交换机", "十三", 80000, "否"]])
    response = client_for(buyer).post(
        reverse("vendors:line-item-import", args=[procurement.pk, bid.pk]),
        {"file": SimpleUploadedFile("bid.xlsx", data)},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
        follow=True,
    )
    texts = [str(m) for m in response.context["messages"]]
    assert any(t.startswith("第 2 行，数量：") for t in texts), texts
    assert list(bid.line_items.values_list("pk", flat=True)) == before
    with translation.override("en"):
        assert import_vocabulary().column("单价") == "unit_price"
