"""The portal's pages: a link sees only its own procurement's RFP and its own
submissions; bad links are a translated 403; submitting, feedback, evidence, questions,
throttling and the language switch."""

from __future__ import annotations

import datetime
import html

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import ProcurementFactory, pdf_bytes
from tests.vendors.portal_support import (  # noqa: F401
    BAD_ROWS,
    FIELDS,
    GOOD_ROWS,
    HONEST,
    WRONG_CLAIM,
    catalog_fixture,
    invitation_fixture,
    invite,
    rfp_fixture,
    token_fixture,
    workbook,
)
from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import RfpQuestion, RfpSettings, Submission
from vendors.portal import submissions
from vendors.portal.tokens import SALT, make_token


def _page(client, token, lang="en"):
    response = client.get(
        reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE=lang
    )
    return response, html.unescape(response.content.decode())


def _post_submission(client, token, rows=GOOD_ROWS, text=HONEST, lang="en", **fields):
    data = {**FIELDS, **fields, "proposal_text": text}
    if rows is not None:
        data["workbook"] = workbook(rows)
    return client.post(
        reverse("vendors:portal-submit", args=[token]),
        data,
        HTTP_ACCEPT_LANGUAGE=lang,
    )


def test_the_page_shows_the_rfp_and_nothing_of_other_vendors(
    client, org, procurement, invitation, token
):
    rival = make_vendor(org, "Rival Compute Ltd")
    make_bid(procurement, rival, proposal_text="RIVAL SECRET PROPOSAL")
    other_invitation = invite(procurement, make_vendor(org, "Third Vendor"))
    submissions.submit(
        other_invitation, fields=FIELDS, proposal_text="THIRD VENDOR SECRET TEXT"
    )
    response, page = _page(client, token)
    assert response.status_code == 200
    assert procurement.name in page
    assert "Quokka Systems" in page
    assert "Supplier portal" in page
    for secret in ("Rival Compute", "RIVAL SECRET", "Third Vendor", "THIRD VENDOR"):
        assert secret not in page
    assert "Procurements" not in page  # no buyer navigation
    assert "Nothing submitted yet." in page
    assert response["Cache-Control"].startswith("max-age=0")


def test_a_link_for_procurement_a_cannot_reach_procurement_b(
    client, org, invitation, token
):
    other = ProcurementFactory(organisation=org, name="Procurement B secret")
    RfpSettings.objects.create(
        procurement=other, deadline=timezone.now() + datetime.timedelta(days=3)
    )
    b_invitation = invite(other, invitation.vendor)
    # the same invitation id and nonce, re-signed for B: refused
    forged = signing.dumps(
        {"i": invitation.pk, "p": other.pk, "n": invitation.nonce}, salt=SALT
    )
    response, page = _page(client, forged)
    assert response.status_code == 403
    assert "Procurement B" not in page
    # B's real link shows B only
    response, page = _page(client, make_token(b_invitation))
    assert "Procurement B secret" in page and invitation.procurement.name not in page


@pytest.mark.parametrize(
    ("change", "en", "zh"),
    [
        ("tamper", "This portal link is not valid.", "门户链接无效"),
        ("expire", "This portal link has expired.", "门户链接已过期"),
        ("revoke", "This invitation was withdrawn by the buyer", "采购方已撤回此邀请"),
    ],
)
def test_bad_links_are_a_translated_403(client, invitation, token, change, en, zh):
    if change == "tamper":
        token = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    elif change == "expire":
        invitation.expires_at = timezone.now() - datetime.timedelta(minutes=1)
        invitation.save()
    else:
        invitation.revoked = True
        invitation.save()
    response, page = _page(client, token, "en")
    assert response.status_code == 403
    assert en in page
    assert invitation.procurement.name not in page
    response, page = _page(Client(), token, "zh-hans")
    assert response.status_code == 403
    assert zh in page
    response = Client().post(reverse("vendors:portal-submit", args=[token]), {**FIELDS})
    assert response.status_code == 403
    assert not Submission.objects.exists()


def test_bad_row_then_fixed_resubmission_through_the_page(client, invitation, token):
    response = _post_submission(client, token, rows=BAD_ROWS)
    assert response.status_code == 302
    _response, page = _page(client, token)
    assert "Version 1 received." in page
    assert "Row 3, Quantity: Must be a number above 0 (got “十三”)." in page
    assert "its workbook could not be imported" in page
    response = _post_submission(client, token, rows=GOOD_ROWS)
    assert response.status_code == 302
    _response, page = _page(client, token)
    assert "Version 2" in page and "Version 1" in page
    assert "its workbook could not be imported" not in page
    assert list(invitation.submissions.values_list("version", flat=True)) == [1, 2]


def test_feedback_renders_in_chinese_and_english(client, invitation, token):
    _post_submission(client, token, text=WRONG_CLAIM, storage_tb="")
    _response, page = _page(client, token, "en")
    assert "Memory per GPU: 141 GB (datasheet: 80 GB (H100 SXM5 80GB))" in page
    assert "2 claims contradict the datasheet" in page
    assert "Not stated: Storage capacity (TB). The RFP asks for it." in page
    zh_client = Client()
    _response, page = _page(zh_client, token, "zh-hans")
    assert "每卡显存：141 GB（数据表：80 GB (H100 SXM5 80GB)）" in page
    assert "未说明：存储容量（TB）。招标文件要求提供此项。" in page
    assert "版本 1" in page


def test_invalid_fields_are_shown_by_field_and_store_nothing(client, invitation, token):
    response = _post_submission(client, token, gpu_count=0)
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in page
    assert not Submission.objects.exists()


def test_late_submission_through_the_page_says_the_deadline(
    client, invitation, token, rfp
):
    rfp.deadline = timezone.now() - datetime.timedelta(hours=1)
    rfp.save()
    response = _post_submission(client, token)
    page = html.unescape(response.content.decode())
    assert response.status_code == 200  # the page again: a 4xx is a console error
    assert "The submission deadline was" in page
    assert "revisions are closed" in page
    assert not Submission.objects.exists()
    _response, page = _page(client, token)
    assert 'id="submit"' not in page  # no form once closed


def test_evidence_upload_type_and_size_through_the_page(
    client, settings, invitation, token
):
    url = reverse("vendors:portal-evidence", args=[token])
    response = client.post(
        url,
        {"file": SimpleUploadedFile("notes.txt", b"plain text")},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "Only PDF and XLSX files can be attached." in response.content.decode()
    settings.PORTAL_UPLOAD_MAX_BYTES = 200
    response = client.post(
        url,
        {"file": SimpleUploadedFile("c.pdf", pdf_bytes())},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "Files are limited to" in response.content.decode()
    settings.PORTAL_UPLOAD_MAX_BYTES = 10 * 1024 * 1024
    response = client.post(url, {"file": SimpleUploadedFile("case.pdf", pdf_bytes())})
    assert response.status_code == 302
    evidence = invitation.evidence.get()
    _response, page = _page(client, token)
    assert "case.pdf" in page
    client.post(reverse("vendors:portal-evidence-remove", args=[token, evidence.pk]))
    _response, page = _page(client, token)
    assert "case.pdf" not in page


def test_questions_show_own_and_answered_ones_anonymised(
    client, org, procurement, invitation, token
):
    other = invite(procurement, make_vendor(org, "Other Vendor Co"))
    RfpQuestion.objects.create(
        procurement=procurement,
        invitation=other,
        question="Is liquid cooling acceptable?",
        answer="Yes, direct-to-chip.",
        answered_at=timezone.now(),
    )
    RfpQuestion.objects.create(
        procurement=procurement, invitation=other, question="UNANSWERED RIVAL QUESTION"
    )
    response = client.post(
        reverse("vendors:portal-question", args=[token]),
        {"question": "May we offer H200 instead?"},
    )
    assert response.status_code == 302
    _response, page = _page(client, token)
    assert "May we offer H200 instead?" in page and "your question" in page
    assert "Is liquid cooling acceptable?" in page and "Yes, direct-to-chip." in page
    assert "UNANSWERED RIVAL QUESTION" not in page
    assert "Other Vendor Co" not in page
    assert page.count("your question") == 1


def test_throttling_answers_429_per_token_and_per_address(
    client, settings, invitation, token
):
    from django.core.cache import cache

    cache.clear()
    settings.PORTAL_THROTTLE_RATES = {"token": "2/min", "address": "100/min"}
    assert _page(client, token)[0].status_code == 200
    assert _page(client, token)[0].status_code == 200
    response, page = _page(client, token)
    assert response.status_code == 429
    assert "Too many requests" in page
    assert int(response["Retry-After"]) >= 1
    cache.clear()
    settings.PORTAL_THROTTLE_RATES = {"token": "100/min", "address": "2/min"}
    _page(client, token)
    _page(client, "some-other-token")
    assert _page(client, "yet-another-token")[0].status_code == 429
    cache.clear()


def test_language_switch_keeps_the_vendor_on_the_portal(client, invitation, token):
    url = reverse("vendors:portal", args=[token])
    response = client.post(
        reverse("set_language"), {"language": "zh-hans", "next": url}
    )
    assert response.status_code == 302 and response["Location"] == url
    response = client.get(url)
    page = html.unescape(response.content.decode())
    assert "供应商门户" in page and "截止时间" in page
    response = client.post(reverse("set_language"), {"language": "en", "next": url})
    page = html.unescape(client.get(url).content.decode())
    assert "Supplier portal" in page and "Deadline" in page
