import io
import zipfile
from decimal import Decimal

import openpyxl
import pytest

from vendors.engine.importing import (
    LineItemImportError,
    LineItemRow,
    RowError,
    build_template_csv,
    build_template_xlsx,
    escape_cell,
    parse_line_items,
)


def _xlsx(rows):
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return io.BytesIO(buffer.getvalue())


def _errors(fileobj, filename):
    with pytest.raises(LineItemImportError) as caught:
        parse_line_items(fileobj, filename)
    return caught.value.errors


def test_good_xlsx_rows_are_parsed_with_decimal_prices_and_row_numbers():
    upload = _xlsx(
        [
            ["category", "description", "quantity", "unit_price", "recurring"],
            ["gpu_servers", "8x H100 SXM", 16, 2700000.5, "no"],
            [None, None, None, None, None],  # blank rows are skipped, numbering kept
            ["support", "24x7 support", 1, 350000, True],
        ]
    )
    rows = parse_line_items(upload, "bid.xlsx")
    assert rows == [
        LineItemRow(
            2, "gpu_servers", "8x H100 SXM", Decimal(16), Decimal("2700000.5"), False
        ),
        LineItemRow(4, "support", "24x7 support", Decimal(1), Decimal(350000), True),
    ]
    assert rows[0].amount == Decimal("43200008.0")  # 16 x 2,700,000.5


def test_chinese_headers_and_categories_in_a_gbk_csv_are_accepted():
    text = '类别,描述,数量,单价,是否年付\nGPU服务器,8卡服务器,2,"1,200,000",否\n网络,交换机,4,￥88000,是\n'
    rows = parse_line_items(io.BytesIO(text.encode("gbk")), "报价.csv")
    assert [(r.category, r.quantity, r.unit_price, r.recurring) for r in rows] == [
        ("gpu_servers", Decimal(2), Decimal(1200000), False),
        ("network", Decimal(4), Decimal(88000), True),
    ]


def test_utf8_bom_csv_with_extra_columns_is_accepted():
    text = "\ufeffCategory,Description,Quantity,Unit Price,Recurring,Total\nstorage,NVMe,1,10,1,10\n"
    rows = parse_line_items(io.BytesIO(text.encode("utf-8")), "bid.csv")
    assert rows == [LineItemRow(2, "storage", "NVMe", Decimal(1), Decimal(10), True)]


def test_every_bad_row_is_reported_with_its_row_number_and_nothing_is_returned():
    text = (
        "category,description,quantity,unit_price,recurring\n"
        "gpu_servers,ok row,1,100,no\n"  # row 2 fine
        "rockets,bad category,1,100,no\n"  # row 3
        "network,,0,abc,maybe\n"  # row 4: four problems
        "\n"  # row 5 blank
        "storage,neg price,1,-5,yes\n"  # row 6
        "software,nan price,1,NaN,yes\n"  # row 7
    )
    errors = _errors(io.BytesIO(text.encode()), "bid.csv")
    assert [(e.row, e.column) for e in errors] == [
        (3, "category"),
        (4, "description"),
        (4, "quantity"),
        (4, "unit_price"),
        (4, "recurring"),
        (6, "unit_price"),
        (7, "unit_price"),
    ]
    assert str(errors[0]).startswith("row 3, category: unknown category 'rockets'")


def test_missing_columns_are_reported_against_the_header_row():
    errors = _errors(io.BytesIO(b"category,description,qty\nnetwork,x,1\n"), "bid.csv")
    assert errors == [
        RowError(1, "unit_price", "missing column", "missing_column"),
        RowError(1, "recurring", "missing column", "missing_column"),
    ]


def test_header_only_file_has_no_line_items():
    errors = _errors(io.BytesIO(build_template_csv().splitlines()[0]), "bid.csv")
    assert errors == [
        RowError(2, "", "no line items below the header", "no_line_items")
    ]


@pytest.mark.parametrize(
    ("content", "filename", "message"),
    [
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64, "old.xls", "legacy .xls"),
        (b"PK\x03\x04 not really a zip", "fake.xlsx", "not a valid XLSX"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.csv", "neither XLSX nor a CSV"),
        (b"", "empty.csv", "empty"),
        (bytes([0x81, 0xFF, 0xFE, 0x80]) * 3, "odd.csv", "not UTF-8 or GBK"),
    ],
)
def test_files_that_are_not_real_xlsx_or_csv_are_rejected(content, filename, message):
    errors = _errors(io.BytesIO(content), filename)
    assert len(errors) == 1
    assert errors[0].row == 0
    assert message in errors[0].message


def test_zip_that_is_not_a_workbook_is_rejected_even_when_named_xlsx():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello")
    errors = _errors(io.BytesIO(buffer.getvalue()), "bid.xlsx")
    assert errors[0].message == "the file is a ZIP archive but not an XLSX workbook"


def test_csv_text_with_an_xlsx_name_is_read_by_content():
    text = b"category,description,quantity,unit_price,recurring\nother,x,1,0,no\n"
    assert len(parse_line_items(io.BytesIO(text), "renamed.xlsx")) == 1


@pytest.mark.parametrize("build", [build_template_xlsx, build_template_csv])
def test_templates_have_the_header_and_two_example_rows_that_import_cleanly(build):
    rows = parse_line_items(io.BytesIO(build()), "template")
    assert [(r.row, r.category, r.recurring) for r in rows] == [
        (2, "gpu_servers", False),
        (3, "support", True),
    ]


def test_csv_template_starts_with_a_bom_and_the_english_header():
    assert build_template_csv().startswith(
        "\ufeffcategory,description,quantity,unit_price,recurring,year_from,year_to,"
        "scope\r\n".encode()
    )


@pytest.mark.parametrize(
    ("value", "escaped"),
    [
        ('=HYPERLINK("http://evil","x")', '\'=HYPERLINK("http://evil","x")'),
        ("+1+cmd", "'+1+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("8x H100", "8x H100"),
        ("网络交换机", "网络交换机"),
        ("", ""),
        (-5, -5),
        (Decimal("-1.5"), Decimal("-1.5")),
        (None, None),
    ],
)
def test_escape_cell_neutralises_formula_injection(value, escaped):
    assert escape_cell(value) == escaped
