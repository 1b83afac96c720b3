"""Collusion signals for the committee: contact facts, the same author in two bids'
PDF metadata, never disqualifying; document metadata read from PDF, XLSX and DOCX."""

import io

import pypdf
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.vendors import committee_support
from vendors.services import attachments, committee_collusion, document_meta

h200_plan = committee_support.h200_plan  # fixtures
tender_world = committee_support.tender_world
gov_world = committee_support.gov_world


def pdf_by(author: str, creator: str = "Microsoft Word") -> bytes:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(width=595, height=842)
    writer.add_metadata({"/Author": author, "/Creator": creator})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_pdf_author_is_read_and_the_creator_program_is_not():
    assert document_meta.document_authors(pdf_by("张三")) == ("张三",)
    assert document_meta.document_authors(b"not a document") == ()


def test_xlsx_and_docx_core_properties_name_their_authors():
    import docx
    import openpyxl

    book = openpyxl.Workbook()
    book.properties.creator = "Li Lei"
    book.properties.lastModifiedBy = "Han Meimei"
    out = io.BytesIO()
    book.save(out)
    assert document_meta.document_authors(out.getvalue()) == ("Li Lei", "Han Meimei")
    document = docx.Document()
    document.core_properties.author = "王五"
    out = io.BytesIO()
    document.save(out)
    assert "王五" in document_meta.document_authors(out.getvalue())


def test_the_same_author_and_email_across_bids_are_signals_with_evidence(
    gov_world, buyer
):
    procurement, bids = gov_world
    for name in "AC":
        upload = SimpleUploadedFile(f"{name}.pdf", pdf_by("张三"))
        attachments.add_attachment(bid=bids[name], user=buyer, upload=upload)
    attachments.add_attachment(
        bid=bids["B"], user=buyer, upload=SimpleUploadedFile("B.pdf", pdf_by("李四"))
    )
    committee_collusion.set_bid_contact(bid=bids["A"], user=buyer, email="Sales@x.cn")
    committee_collusion.set_bid_contact(bid=bids["B"], user=buyer, email=" sales@X.cn")
    signals = committee_collusion.committee_signals(procurement=procurement, user=buyer)
    by_kind = {s["kind"]: s for s in signals}
    assert by_kind["same_author"]["bids"] == ["A", "C"]
    assert by_kind["same_author"]["evidence"] == "张三"
    assert "第四十条" in by_kind["same_author"]["citation"]
    assert by_kind["same_email"]["bids"] == ["A", "B"]
    # never disqualifying: A, B and C stay valid in the tender review
    from vendors import comparison

    review = comparison.build_comparison(procurement=procurement, user=buyer).tender
    assert {b.label: b.valid for b in review.bids} == {
        "A": True,
        "B": True,
        "C": True,
        "O": False,
    }


def test_a_signal_names_its_bids_in_bid_order_not_text_order():
    # bids 9 and 10 share a phone: the engine's ids sort as text ("10" < "9"); the
    # committee reads them in bid order (a journey saw "Cirrus, Aurora" once ids
    # crossed a digit)
    assert committee_collusion.in_bid_order(("10", "9")) == [9, 10]
    assert committee_collusion.in_bid_order(("2", "11", "100")) == [2, 11, 100]
