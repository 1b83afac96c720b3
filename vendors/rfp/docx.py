"""The RFP as a Word document (python-docx): the same sections and tables as the PDF,
editable by the buyer before sending. Chinese text needs an East-Asian font named on
the runs' styles (w:rFonts w:eastAsia); Word otherwise falls back to a Latin font and
shows boxes on systems without the theme's CJK font."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _

from clusterbuy.text import printable_tree

EAST_ASIAN_FONT = "Noto Sans CJK SC"
STYLES = ("Normal", "Title", "Heading 1", "Heading 2", "Table Grid", "List Number")


def _east_asian_font(style) -> None:
    from docx.oxml.ns import qn

    fonts = style.element.get_or_add_rPr().get_or_add_rFonts()
    fonts.set(qn("w:eastAsia"), EAST_ASIAN_FONT)
    fonts.attrib.pop(qn("w:eastAsiaTheme"), None)


def _table(document, header: list[str], rows: list[list[str]]):
    table = document.add_table(rows=1, cols=len(header))
    table.style = "Table Grid"
    for cell, text in zip(table.rows[0].cells, header, strict=True):
        cell.text = ""
        cell.paragraphs[0].add_run(text).bold = True
    for values in rows:
        cells = table.add_row().cells
        for cell, text in zip(cells, values, strict=True):
            cell.text = str(text)
    return table


def _requirement(document, rfp: dict) -> None:
    document.add_heading("1 " + _("Requirement"), level=1)
    _table(
        document,
        [_("Item"), _("Value")],
        [[f["label"], f["value"]] for f in rfp["requirement"]],
    )
    if rfp["workloads"]:
        document.add_paragraph()
        _table(
            document,
            [_("Workload"), _("Kind"), _("Model"), _("Precision"), _("Targets")],
            [
                [w["name"], w["kind_label"], w["model"], w["precision"], w["targets"]]
                for w in rfp["workloads"]
            ],
        )
    document.add_heading("2 " + _("Minimum requirements the bid must meet"), level=1)
    if rfp["plan_available"]:
        _table(
            document,
            [_("Item"), _("Required"), _("Basis")],
            [[m["label"], m["shown"], m["basis"]] for m in rfp["minimums"]],
        )
    else:
        document.add_paragraph(rfp["plan_message"])


def _questions(document, rfp: dict) -> None:
    document.add_heading("3 " + _("Questions the bid must answer"), level=1)
    for question in rfp["questions"]:
        document.add_paragraph(question["text"], style="List Number")
    document.add_heading("4 " + _("The four pitfalls, as questions"), level=1)
    for pitfall in rfp["pitfalls"]:
        paragraph = document.add_paragraph()
        paragraph.add_run(f"{pitfall['title']}: ").bold = True
        paragraph.add_run(pitfall["text"])
    document.add_heading("5 " + _("How bids are evaluated"), level=1)
    header = [_("Section"), _("Criteria")]
    if rfp["weights_published"]:
        header.append(_("Weight"))
    rows = []
    for section in rfp["criteria"]:
        row = [section["title"], "; ".join(section["criteria"])]
        if rfp["weights_published"]:
            row.append(f"{section['weight_percent']} %")
        rows.append(row)
    _table(document, header, rows)
    if not rfp["weights_published"]:
        document.add_paragraph(_("The weights of the sections are not published."))


def _acceptance(document, rfp: dict) -> None:
    if not rfp.get("acceptance"):
        return
    document.add_heading("7 " + _("Acceptance tests (contractual criteria)"), level=1)
    document.add_paragraph(
        _(
            "The delivered cluster is accepted only when it passes these tests, run in "
            "this order; the buyer may tighten a threshold in the contract, never "
            "loosen it."
        )
    )
    _table(
        document,
        ["#", _("Test"), _("Threshold"), _("Command"), _("Source")],
        [
            [str(a["number"]), a["title"], a["required"], a["command"], a["source"]]
            for a in rfp["acceptance"]
        ],
    )


def _mandatory(document, rfp: dict) -> None:
    if not (rfp.get("mandatory") or rfp.get("qualification") or rfp.get("bid_bond")):
        return
    document.add_heading("8 " + _("Mandatory (★) requirements"), level=1)
    if rfp.get("mandatory"):
        _star_items(document, rfp)
    if rfp.get("qualification"):
        document.add_heading(_("Qualification requirements"), level=2)
        document.add_paragraph(
            _(
                "The supplier must meet every one of these requirements; a supplier "
                "that fails one makes its bid invalid."
            )
        )
        _table(
            document,
            ["#", _("Requirement"), _("Source")],
            [[str(q["number"]), q["title"], q["source"]] for q in rfp["qualification"]],
        )
    if rfp.get("bid_bond"):
        document.add_paragraph(f"{_('Bid bond')}: {rfp['bid_bond']}")


def _star_items(document, rfp: dict) -> None:
    document.add_paragraph(
        _(
            "A bid that fails any of these requirements is an invalid bid: it is not "
            "scored or ranked."
        )
    )
    _table(
        document,
        ["#", _("Requirement"), _("Threshold"), _("Source")],
        [
            [str(m["number"]), m["title"], m["required"], m["source"]]
            for m in rfp["mandatory"]
        ],
    )


def rfp_docx(rfp: dict) -> bytes:
    """The pack's content (`content.rfp_content`, in the active language) as DOCX."""
    from docx import Document

    rfp = printable_tree(rfp)  # stored text may hold what XML cannot (\x0b)
    document = Document()
    for name in STYLES:
        _east_asian_font(document.styles[name])
    document.add_heading(rfp["title"], level=0)
    _table(
        document,
        [_("Submission deadline"), rfp["deadline_shown"]],
        [],
    )
    if rfp["procurement"]["description"]:
        document.add_paragraph(rfp["procurement"]["description"])
    _requirement(document, rfp)
    _questions(document, rfp)
    document.add_heading("6 " + _("Instructions to bidders"), level=1)
    if rfp["instructions"]:
        document.add_paragraph(rfp["instructions"])
    document.add_paragraph(
        _(
            "Answer in the supplier portal: the bid's specification fields, the "
            "line-item workbook (the XLSX template in this pack; keep its columns and "
            "drop-down values), the proposal text and the evidence (case-study PDFs). "
            "Submissions after the deadline are refused; you may revise until then."
        )
    )
    _acceptance(document, rfp)
    _mandatory(document, rfp)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
