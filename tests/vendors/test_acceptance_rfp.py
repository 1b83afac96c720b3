"""The acceptance plan in the RFP pack as contractual criteria (issue 26): a section
of the PDF and DOCX and a sheet of the XLSX, from the sizing plan before a decision
(96 x H200 SXM in 12 nodes for the 70B training plan, sizing-2.2.0)."""

import io

import docx
import openpyxl
from pypdf import PdfReader

from vendors.rfp.pack import rfp_pack

pytest_plugins = ["tests.vendors.rfp_pack_support"]  # the rfp_plan fixture


def _pdf_text(data: bytes) -> str:
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.split())


def test_the_pdf_lists_the_acceptance_tests_with_thresholds(rfp_plan, procurement):
    data, _type, _name = rfp_pack(procurement, "pdf", language="en")
    text = _pdf_text(data)
    assert "7 Acceptance tests (contractual criteria)" in text
    # H200 SXM NVLink 4, 900 GB/s: 0.9 x 480/450 x 450 GB/s = 432 GB/s in a node
    assert "All-reduce within each node" in text and ">= 432 GB/s" in text
    # 13 nodes, 8 x 400 Gb/s rails: 0.9 x min(0.12 x 3200, 480) = 345.6 GB/s
    assert "All-reduce across the nodes" in text and ">= 345.6 GB/s" in text
    assert "dcgmi diag -r 3" in text
    zh = _pdf_text(rfp_pack(procurement, "pdf", language="zh-hans")[0])
    # The table's layout may wrap a title at its hyphen ("all- reduce"): read it
    # without the spaces the layout put in; the Chinese words and the source too.
    compact = zh.replace(" ", "")
    assert "验收测试（合同验收标准）" in compact and "跨节点all-reduce" in compact
    assert "健康的400G链路约达线速的97%（二手来源）" in compact


def test_the_docx_and_the_xlsx_carry_the_same_rows(rfp_plan, procurement):
    document = docx.Document(
        io.BytesIO(rfp_pack(procurement, "docx", language="en")[0])
    )
    headings = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    assert "7 Acceptance tests (contractual criteria)" in headings
    rows = [[c.text for c in r.cells] for t in document.tables for r in t.rows]
    fabric = next(r for r in rows if r[1] == "All-reduce across the nodes")
    assert fabric[2] == ">= 345.6 GB/s"
    assert fabric[3].startswith("mpirun -np 96 -N 8 all_reduce_perf")
    book = openpyxl.load_workbook(
        io.BytesIO(rfp_pack(procurement, "xlsx", language="en")[0])
    )
    assert book.sheetnames[0] == "Line items" and "Acceptance tests" in book.sheetnames
    sheet = book["Acceptance tests"]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == ["#", "Test", "Category", "Threshold", "Command", "Source"]
    assert ["All-reduce across the nodes", "Technical", ">= 345.6 GB/s"] in [
        r[1:4] for r in values
    ]
