"""Line-item uploads are read within row, column, size and time caps.

The workbooks here are written by hand (zipfile + minimal XML) because the attacks
live in what openpyxl would never write: a declared dimension that lies, one cell a
million rows down, a row of a hundred thousand cells.
"""

import io
import itertools
import json
import subprocess
import sys
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import ROOT
from tests.vendors.test_support import make_bid, make_vendor
from vendors.engine.importing import LineItemImportError, RowError, parse_line_items

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
PACKAGE_NS = "http://schemas.openxmlformats.org/package/2006"
DOCUMENT_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HEADER_CELLS = (
    '<c r="A1" t="inlineStr"><is><t>category</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>description</t></is></c>'
    '<c r="C1" t="inlineStr"><is><t>quantity</t></is></c>'
    '<c r="D1" t="inlineStr"><is><t>unit_price</t></is></c>'
    '<c r="E1" t="inlineStr"><is><t>recurring</t></is></c>'
)
ONE_ITEM_CELLS = (
    '<c r="A2" t="inlineStr"><is><t>network</t></is></c>'
    '<c r="B2" t="inlineStr"><is><t>IB switch</t></is></c>'
    '<c r="C2"><v>2</v></c><c r="D2"><v>150000</v></c>'
    '<c r="E2" t="inlineStr"><is><t>no</t></is></c>'
)
HEADER_AND_ONE_ITEM = (
    f'<row r="1">{HEADER_CELLS}</row><row r="2">{ONE_ITEM_CELLS}</row>'
)


def workbook(sheet_data: str, dimension: str | None = None, **parts: str) -> bytes:
    """A minimal XLSX: one sheet holding ``sheet_data`` inside <sheetData>."""
    dimension_xml = f'<dimension ref="{dimension}"/>' if dimension else ""
    files = {
        "[Content_Types].xml": (
            f'<Types xmlns="{PACKAGE_NS}/content-types">'
            '<Default Extension="rels" ContentType='
            '"application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
        ),
        "_rels/.rels": (
            f'<Relationships xmlns="{PACKAGE_NS}/relationships">'
            f'<Relationship Id="rId1" Type="{DOCUMENT_NS}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{MAIN_NS}" xmlns:r="{DOCUMENT_NS}"><sheets>'
            '<sheet name="line_items" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{PACKAGE_NS}/relationships">'
            f'<Relationship Id="rId1" Type="{DOCUMENT_NS}/worksheet" '
            'Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": (
            f'<worksheet xmlns="{MAIN_NS}">{dimension_xml}'
            f"<sheetData>{sheet_data}</sheetData></worksheet>"
        ),
        **parts,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def file_errors(data: bytes, **options) -> list[str]:
    with pytest.raises(LineItemImportError) as caught:
        parse_line_items(io.BytesIO(data), "bid.xlsx", **options)
    assert all(error.row == 0 for error in caught.value.errors)
    return [error.message for error in caught.value.errors]


MEASURE = """
import io, json, resource, sys, time
from vendors.engine.importing import LineItemImportError, parse_line_items
data = open(sys.argv[1], "rb").read()
before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    outcome = f"parsed {len(parse_line_items(io.BytesIO(data), 'bid.xlsx'))} rows"
except LineItemImportError as exc:
    outcome = str(exc)
elapsed_s = time.perf_counter() - started
extra_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before_kb
print(json.dumps({"outcome": outcome, "elapsed_s": elapsed_s, "extra_mb": extra_kb / 1024}))
"""


def measure_in_fresh_process(data: bytes, tmp_path) -> dict:
    """Time and peak-memory growth of parsing ``data``, in a process of its own so
    that the peak (ru_maxrss) is this parse's and nothing else's."""
    path = tmp_path / "upload.xlsx"
    path.write_bytes(data)
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("dimension", "last_row"), [("A1:XFD1048576", 1048576), ("A1:XFD20000", 20000)]
)
def test_one_cell_far_below_a_huge_declared_dimension_is_refused_at_once(
    tmp_path, dimension, last_row
):
    lone_cell = f'<c r="A{last_row}" t="inlineStr"><is><t>x</t></is></c>'
    data = workbook(f'<row r="{last_row}">{lone_cell}</row>', dimension)
    assert len(data) < 2048
    measured = measure_in_fresh_process(data, tmp_path)
    assert measured["outcome"] == (
        f"row 0: the sheet has data in row {last_row}; at most 5001 rows are read "
        "(a header and 5000 line items): delete the rows below"
    )
    assert measured["elapsed_s"] < 1.0, measured
    assert measured["extra_mb"] < 200, measured


def test_a_declared_dimension_is_ignored_when_the_data_is_small():
    data = workbook(HEADER_AND_ONE_ITEM, "A1:XFD1048576")
    (item,) = parse_line_items(io.BytesIO(data), "bid.xlsx")
    assert (item.row, item.category, item.quantity) == (2, "network", 2)


def test_formatted_empty_cells_beyond_the_caps_are_not_data():
    styled = '<row r="1048576"><c r="XFD1048576" s="1"/></row>'
    data = workbook(HEADER_AND_ONE_ITEM + styled, "A1:XFD1048576")
    assert len(parse_line_items(io.BytesIO(data), "bid.xlsx")) == 1


def test_a_value_right_of_column_ad_is_refused_naming_the_column_limit():
    note = '<c r="AE2" t="inlineStr"><is><t>note</t></is></c>'
    data = workbook(f'<row r="1">{HEADER_CELLS}</row><row r="2">{note}</row>')
    assert file_errors(data) == [
        "the sheet has data in column AE; at most 30 columns (A to AD) are read: "
        "delete the columns to the right"
    ]


def test_positions_without_references_count_like_openpyxl():
    # No r attributes: row 5002 and column 31 are reached by counting.
    rows = "<row/>" * 5001 + '<row><c t="inlineStr"><is><t>x</t></is></c></row>'
    assert "data in row 5002" in file_errors(workbook(rows))[0]
    wide = "<row>" + "<c/>" * 30 + '<c t="inlineStr"><is><t>x</t></is></c></row>'
    assert "data in column AE" in file_errors(workbook(wide))[0]


def test_a_row_of_a_hundred_thousand_cells_is_refused_before_openpyxl_loads_it():
    data = workbook('<row r="1">' + "<c/>" * 100_000 + "</row>")
    assert len(data) < 2048
    assert file_errors(data) == ["row 1 has more than 65,536 XML elements"]


def test_a_workbook_with_too_many_xml_tags_is_refused_before_it_is_opened():
    strings = f'<sst xmlns="{MAIN_NS}">' + "<si><t>a</t></si>" * 300_000 + "</sst>"
    data = workbook(HEADER_AND_ONE_ITEM, **{"xl/sharedStrings.xml": strings})
    assert file_errors(data) == [
        "the workbook has more than 1,000,000 XML tags; import at most 5000 line "
        "items and 30 columns, without other sheets"
    ]


def test_reading_stops_when_the_time_budget_is_spent():
    ticks = itertools.count()  # a clock that advances one second per reading
    data = workbook(HEADER_AND_ONE_ITEM)
    assert file_errors(data, time_budget_s=2, clock=lambda: float(next(ticks))) == [
        "the file took more than 2 s to read; import at most 5000 line items and "
        "30 columns"
    ]


def test_a_workbook_without_a_worksheet_is_a_file_error():
    no_sheets = f'<workbook xmlns="{MAIN_NS}"><sheets/></workbook>'
    data = workbook(HEADER_AND_ONE_ITEM, **{"xl/workbook.xml": no_sheets})
    assert file_errors(data) == ["the workbook has no worksheet"]


CSV_HEADER = "category,description,quantity,unit_price,recurring\n"


def test_a_csv_of_5000_line_items_is_read_and_one_more_is_refused():
    items = "storage,NVMe,1,100,no\n" * 5000
    assert (
        len(parse_line_items(io.BytesIO((CSV_HEADER + items).encode()), "a.csv"))
        == 5000
    )
    with pytest.raises(LineItemImportError) as caught:
        parse_line_items(io.BytesIO((CSV_HEADER + items * 2).encode()), "a.csv")
    assert caught.value.errors == [
        RowError(
            0,
            "",
            "the sheet has data in row 5002; at most 5001 rows are read "
            "(a header and 5000 line items): delete the rows below",
            "too_many_rows",
        )
    ]


def test_a_csv_value_right_of_column_ad_is_refused():
    row = "storage,NVMe,1,100,no" + "," * 30 + "stray\n"
    with pytest.raises(LineItemImportError) as caught:
        parse_line_items(io.BytesIO((CSV_HEADER + row).encode()), "a.csv")
    assert "data in column AI" in caught.value.errors[0].message


def test_the_api_answers_400_with_the_limit_and_keeps_the_line_items(
    api_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    before = list(bid.line_items.values_list("id", flat=True))
    lone_cell = '<c r="A1048576" t="inlineStr"><is><t>x</t></is></c>'
    data = workbook(f'<row r="1048576">{lone_cell}</row>', "A1:XFD1048576")
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import",
        {"file": SimpleUploadedFile("bid.xlsx", data)},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json() == {
        "file": [
            "工作表第 1,048,576 行有数据；表头下方最多读取 5,000 行明细：请删除多余的行。"
        ],
        "rows": [],
    }
    english = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/line-items/import",
        {"file": SimpleUploadedFile("bid.xlsx", data)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.json()["file"] == [
        "The sheet has data in row 1,048,576; at most 5,000 line items below the "
        "header are read: delete the rows below."
    ]
    assert list(bid.line_items.values_list("id", flat=True)) == before
