"""Text fit for documents (issue 23): a control character is refused where text comes
in (a field error naming the field, in forms and serializers), and every document
writer (DOCX, XLSX, PDF, e-mail headers) survives any text already stored.

Before: a procurement named with \\x0b or \\x14 was saved (200) and then the RFP pack
DOCX and ZIP and the comparison XLSX answered 500; a name with CR/LF made every
invitation e-mail 500."""

from __future__ import annotations

import io

import docx
import openpyxl
import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusterbuy.models import Procurement
from clusterbuy.text import (
    first_control_character,
    one_line,
    printable,
    printable_tree,
)
from tests.vendors.portal_support import (  # noqa: F401
    catalog_fixture,
    invitation_fixture,
    rfp_fixture,
    token_fixture,
)
from tests.vendors.rfp_support import BASE_URL
from tests.vendors.test_support import make_bid, make_vendor
from vendors import comparison
from vendors.comparison import documents as exports
from vendors.portal import invitations
from vendors.rfp.docx import rfp_docx
from vendors.rfp.pack import rfp_pack

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HOSTILE = "GPU\x0bcluster\x14 \x01\x1f\x7f\x85\ufffe\r\nBcc: x@evil.example\u2028end"
#: Any text, with the control and separator characters drawn often.
hostile_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(
            list("\x00\x01\x08\x0b\x0c\x0e\x14\x1b\x1f\x7f\x85\x9f\t\n\r")
            + ["\u2028", "\u2029", "\ufffe", "\uffff", "=", "+", "@"]
        ),
    ),
    max_size=60,
)
PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


# --- at the boundary ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"), [("GPU\x0bcluster", "U+000B"), ("GPU\x14", "U+0014")]
)
def test_a_control_character_in_a_name_is_a_field_error(
    api_for, client_for, it_lead, procurement, name, code
):
    url = f"/api/v1/procurements/{procurement.pk}/"
    response = api_for(it_lead).patch(url, {"name": name}, format="json", **EN)
    assert response.status_code == 400  # was 200, and the documents 500 later
    [message] = response.json()["name"]
    assert message.startswith(f"Remove the control character {code}")
    page = client_for(it_lead).post(
        reverse("procurement-create"), {"name": name, "horizon_years": 5}, **EN
    )
    assert f"Remove the control character {code}" in page.content.decode()
    assert Procurement.objects.get(pk=procurement.pk).name == "LLM training cluster"
    assert not Procurement.objects.filter(name=name).exists()


def test_a_line_break_in_a_name_is_refused_but_kept_in_long_text(
    api_for, it_lead, procurement
):
    url = f"/api/v1/procurements/{procurement.pk}/"
    response = api_for(it_lead).patch(
        url, {"name": "Cluster\r\nBcc: x@evil.example"}, format="json", **EN
    )
    assert response.status_code == 400
    assert response.json() == {
        "name": ["Keep this on one line: remove the line breaks and tabs."]
    }
    text = "Line one\n\tindented line two\r\nthree"
    response = api_for(it_lead).patch(url, {"description": text}, format="json", **EN)
    assert response.status_code == 200
    assert Procurement.objects.get(pk=procurement.pk).description == text
    response = api_for(it_lead).patch(
        url, {"description": "bell\x07"}, format="json", **EN
    )
    assert response.status_code == 400
    assert "U+0007" in response.json()["description"][0]


def test_the_portal_question_refuses_a_control_character(invitation, token):
    from rest_framework.test import APIClient

    response = APIClient().post(
        f"/api/v1/portal/{token}/questions/",
        {"question": "When\x1b[31m?"},
        format="json",
        **EN,
    )
    assert response.status_code == 400
    assert response.json()["question"][0].startswith(
        "Remove the control character U+001B"
    )
    with translation.override("zh-hans"):
        from clusterbuy.text import control_character_message

        assert "U+001B" in control_character_message("\x1b")
        assert "控制字符" in control_character_message("\x1b")


# --- at the writers, for text already stored -----------------------------------------


def _stored_hostile_name(procurement) -> None:
    Procurement.objects.filter(pk=procurement.pk).update(
        name=HOSTILE, description="desc\x0bription\n\tkept"
    )
    procurement.refresh_from_db()


@pytest.mark.parametrize("fmt", ["docx", "zip", "pdf"])
def test_the_rfp_pack_is_written_whatever_the_stored_name(db, procurement, fmt):
    _stored_hostile_name(procurement)
    data, _type, _name = rfp_pack(procurement, fmt, language="en")
    if fmt == "docx":
        text = "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)
        assert "GPUcluster" in text and "\x0b" not in text
    assert data[:4] in (b"PK\x03\x04", b"%PDF")


def test_the_comparison_xlsx_is_written_whatever_the_stored_names(
    org, procurement, buyer
):
    make_bid(procurement, make_vendor(org, "Vendor\x14One"))
    _stored_hostile_name(procurement)
    result = comparison.build_comparison(procurement=procurement, user=buyer)
    book = openpyxl.load_workbook(io.BytesIO(exports.comparison_xlsx(result)))
    first = book.worksheets[0]["A1"].value
    assert first.startswith("GPUcluster") and first_control_character(first) is None


def test_the_invitation_email_is_sent_whatever_the_stored_name(procurement, buyer):
    from django.utils import timezone

    from vendors.models import RfpSettings

    RfpSettings.objects.create(
        procurement=procurement, deadline=timezone.now() + timezone.timedelta(days=3)
    )
    _stored_hostile_name(procurement)
    invitations.invite(
        procurement,
        buyer,
        email="sales@zebra.example",
        vendor_name="Zebracorp",
        request_base_url=BASE_URL,
    )
    [message] = mail.outbox
    assert "\n" not in message.subject and "\r" not in message.subject
    assert message.message()["Bcc"] is None  # no header smuggled in
    assert message.bcc == []
    assert "Request for proposal: GPU cluster" in message.subject  # \x0b: a space
    assert first_control_character(message.body) is None


# --- property tests: any text, each format ---------------------------------------


@PROPERTY
@given(text=hostile_text)
def test_printable_text_always_fits_a_docx(text):
    document = docx.Document()
    document.add_heading(printable(text), level=0)
    document.add_paragraph(printable(text))
    table = document.add_table(rows=1, cols=1)
    table.rows[0].cells[0].text = printable(text)
    out = io.BytesIO()
    document.save(out)
    back = docx.Document(io.BytesIO(out.getvalue()))
    assert first_control_character(back.paragraphs[-1].text) is None


@PROPERTY
@given(text=hostile_text)
def test_printable_text_always_fits_an_xlsx_cell_and_sheet_title(text):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = exports._sheet_title(text) or "Sheet"
    sheet["A1"] = exports._cell(text)
    out = io.BytesIO()
    book.save(out)
    value = openpyxl.load_workbook(io.BytesIO(out.getvalue())).active["A1"].value
    assert first_control_character(value or "") is None
    assert not str(value or "").startswith(("=", "+", "-", "@"))


@PROPERTY
@given(text=hostile_text)
def test_one_line_text_is_always_a_safe_email_subject(text):
    subject = one_line(text)
    assert not any(ch in subject for ch in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    message = EmailMessage(subject=f"[ClusterBuy] {subject}", body=printable(text))
    rendered = message.message()  # BadHeaderError on a CR or LF
    assert rendered["Subject"] is not None


@PROPERTY
@given(tree=st.recursive(hostile_text, lambda inner: st.lists(inner, max_size=3)))
def test_printable_tree_leaves_no_control_character(tree):
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)

    assert all(
        first_control_character(s) is None for s in strings(printable_tree(tree))
    )


@settings(max_examples=5, deadline=None)
@given(text=hostile_text)
def test_printable_text_always_renders_in_the_rfp_pdf(text):
    from vendors.rfp.pdf import rfp_pdf

    content = _minimal_rfp_content(text)
    assert rfp_pdf(content)[:4] == b"%PDF"
    assert rfp_docx(content)[:4] == b"PK\x03\x04"


def _minimal_rfp_content(text: str) -> dict:
    """The shape `content.rfp_content` returns, every text field ``text``."""
    return {
        "title": text,
        "deadline_shown": text,
        "procurement": {"name": text, "description": text},
        "requirement": [{"label": text, "value": text}],
        "workloads": [],
        "plan_available": False,
        "plan_message": text,
        "minimums": [],
        "questions": [{"text": text}],
        "pitfalls": [{"title": text, "text": text}],
        "criteria": [{"title": text, "criteria": [text], "weight_percent": 10}],
        "weights_published": True,
        "weights": [],
        "instructions": text,
    }
