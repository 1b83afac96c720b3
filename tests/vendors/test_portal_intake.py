"""The portal's intake as an attack surface (issue 23): a submission is received at
once and checked off the web workers, in a bounded queue; the deadline is judged at
receipt and the opening takes the version the portal shows as the latest; every
upload is checked by content; storage is bounded per link, vendor and procurement;
a JSON body of the wrong shape is a 400."""

from __future__ import annotations

import datetime
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils import timezone, translation
from rest_framework.test import APIClient

from clusterbuy.services import ConflictError, ServiceError
from tests.factories import ProcurementFactory, pdf_bytes
from tests.vendors.portal_support import (  # noqa: F401
    FIELDS,
    GOOD_ROWS,
    HONEST,
    catalog_fixture,
    invitation_fixture,
    invite,
    rfp_fixture,
    token_fixture,
    workbook,
)
from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import Bid, RfpSettings, Submission, SubmissionEvidence
from vendors.portal import checking, opening, submissions
from vendors.portal.submissions import PortalError
from vendors.portal.tokens import make_token
from vendors.services.attachments import add_attachment, content_kind

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _url(token, rest=""):
    return f"/api/v1/portal/{token}/{rest}"


def _post(api, token, rows=GOOD_ROWS, **extra):
    data = {"fields": json.dumps(FIELDS), "proposal_text": HONEST}
    if rows is not None:
        data["workbook"] = workbook(rows)
    return api.post(_url(token, "submissions/"), data, format="multipart", **EN)


@pytest.fixture(name="no_worker")
def no_worker_fixture(monkeypatch):
    """The checks are sent but no worker has taken them yet (ids in the list)."""
    sent: list[int] = []
    monkeypatch.setattr(submissions, "send_check", lambda s: sent.append(s.pk))
    return sent


# --- 5. a JSON body of the wrong shape -------------------------------------------


@pytest.mark.parametrize("body", ["[]", '[{"gpu_count": 8}]', '"text"', "42", "null"])
@pytest.mark.parametrize("rest", ["submissions/", "questions/"])
def test_a_json_body_that_is_not_an_object_is_a_400(invitation, token, body, rest):
    response = APIClient().post(
        _url(token, rest), body, content_type="application/json", **EN
    )
    assert response.status_code == 400  # a top-level array answered 500
    assert response.json()["detail"].startswith("The JSON body must be an object")
    assert not Submission.objects.exists()


# --- 3. one content check for every upload path ----------------------------------


def _zip_named_xlsx(*, valid_workbook: bool) -> bytes:
    """A ZIP with the parts a content sniffer looks for, and ``payload.exe``."""
    out = io.BytesIO()
    if valid_workbook:
        out.write(workbook(GOOD_ROWS).read())
    with zipfile.ZipFile(out, "a" if valid_workbook else "w") as archive:
        if not valid_workbook:
            archive.writestr("[Content_Types].xml", "<Types/>")
            archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr("payload.exe", b"MZ\x90\x00" + b"\x00" * 64)
    return out.getvalue()


@pytest.mark.parametrize("valid_workbook", [False, True])
def test_a_zip_holding_an_exe_is_refused_on_every_path(
    invitation, token, buyer, procurement, valid_workbook
):
    data = _zip_named_xlsx(valid_workbook=valid_workbook)
    assert content_kind(data) is None
    response = APIClient().post(
        _url(token, "submissions/"),
        {
            "fields": json.dumps(FIELDS),
            "workbook": SimpleUploadedFile("bid.xlsx", data),
        },
        format="multipart",
        **EN,
    )
    assert response.status_code == 400  # was 201, then served as a spreadsheet
    assert response.json() == {
        "workbook": ["The workbook must be an XLSX file: fill in the bid template."]
    }
    page = f"/portal/{token}/submit/"
    html = (
        APIClient()
        .post(
            page,
            {**FIELDS, "workbook": SimpleUploadedFile("bid.xlsx", data)},
            format="multipart",
            **EN,
        )
        .content.decode()
    )
    assert "The workbook must be an XLSX file" in html
    evidence = APIClient().post(
        _url(token, "evidence/"),
        {"file": SimpleUploadedFile("case.xlsx", data)},
        format="multipart",
        **EN,
    )
    assert evidence.status_code == 400
    bid = make_bid(procurement, make_vendor(procurement.organisation, "Buyer Co"))
    with pytest.raises(ServiceError):
        add_attachment(bid=bid, user=buyer, upload=SimpleUploadedFile("q.xlsx", data))
    assert not Submission.objects.exists()
    assert not SubmissionEvidence.objects.exists()


def test_a_real_workbook_and_pdf_pass_the_content_check():
    assert content_kind(workbook(GOOD_ROWS).read()) == "xlsx"
    assert content_kind(pdf_bytes()) == "pdf"
    assert content_kind(b"%PDF-1.7 junk") is None


# --- 3. storage quotas -------------------------------------------------------------


def test_storage_is_bounded_per_link_with_a_clear_message(
    settings, invitation, token, no_worker
):
    size = len(workbook(GOOD_ROWS).read())
    settings.PORTAL_CHECKS_PENDING_PER_LINK = 10
    settings.PORTAL_STORAGE_MAX_BYTES_PER_LINK = 2 * size + size // 2
    api = APIClient()
    assert [_post(api, token).status_code for _ in range(2)] == [202, 202]
    refused = _post(api, token)
    assert refused.status_code == 400
    [message] = refused.json()["workbook"]
    with translation.override("en"):
        used, limit = filesizeformat(2 * size), filesizeformat(2 * size + size // 2)
    assert message == (
        f"This invitation's storage is full: {used} of {limit} used, and this file "
        f"needs {filesizeformat(size)}. Remove evidence you no longer need, or ask "
        "the buyer."
    )
    # a revision without a new workbook stores nothing, so it still goes through
    assert _post(api, token, rows=None).status_code == 202
    settings.PORTAL_STORAGE_MAX_BYTES_PER_LINK = 2 * size + 10
    evidence = api.post(
        _url(token, "evidence/"),
        {"file": SimpleUploadedFile("case.pdf", pdf_bytes())},
        format="multipart",
        **EN,
    )
    assert evidence.status_code == 400
    assert "storage is full" in evidence.json()["file"][0]
    stored = Submission.objects.order_by("version").values_list("workbook_bytes")
    assert [bool(n) for (n,) in stored] == [True, True, False]


def test_storage_is_bounded_per_vendor_and_per_procurement(
    settings, org, procurement, invitation, no_worker
):
    size = len(workbook(GOOD_ROWS).read())
    other = invite(procurement, make_vendor(org, "Wombat Compute"))
    submissions.submit(invitation, fields=FIELDS, workbook=workbook(GOOD_ROWS))
    settings.PORTAL_STORAGE_MAX_BYTES_PER_PROCUREMENT = size + size // 2
    with translation.override("en"), pytest.raises(PortalError) as refused:
        submissions.submit(other, fields=FIELDS, workbook=workbook(GOOD_ROWS))
    assert refused.value.code == "quota"
    assert refused.value.message.startswith("This RFP's storage is full")
    settings.PORTAL_STORAGE_MAX_BYTES_PER_PROCUREMENT = 100 * size
    settings.PORTAL_STORAGE_MAX_BYTES_PER_VENDOR = size + size // 2
    # the same vendor invited to a second procurement shares its vendor quota
    again = invite(
        ProcurementFactory(organisation=org, created_by=procurement.created_by),
        invitation.vendor,
    )
    RfpSettings.objects.create(
        procurement=again.procurement,
        deadline=timezone.now() + datetime.timedelta(days=3),
    )
    with translation.override("zh-hans"), pytest.raises(PortalError) as refused:
        submissions.submit(again, fields=FIELDS, workbook=workbook(GOOD_ROWS))
    assert refused.value.code == "quota"
    assert "贵公司" in refused.value.message


# --- 1. checked off the web workers, in a bounded queue -----------------------------


def test_the_api_answers_202_with_a_receipt_and_the_check_runs_later(
    invitation, token, no_worker
):
    api = APIClient()
    response = _post(api, token)
    assert response.status_code == 202
    body = response.json()
    assert (body["receipt"], body["version"], body["status"]) == (1, 1, "checking")
    assert body["line_items"] == [] and body["received_at"]
    polled = api.get(_url(token, "submissions/1/")).json()
    assert polled["status"] == "checking"
    assert checking.check_submission(submission_id=no_worker[0]) is True
    assert checking.check_submission(submission_id=no_worker[0]) is False  # twice
    polled = api.get(_url(token, "submissions/1/")).json()
    assert polled["status"] == "ready"
    assert [row["category"] for row in polled["line_items"]] == [
        "gpu_servers",
        "support",
    ]
    assert polled["feedback"]["complete"] is True
    assert api.get(_url(token, "submissions/9/")).status_code == 404


def test_the_page_shows_received_checking_then_the_result(invitation, token, no_worker):
    client = APIClient()
    response = client.post(
        f"/portal/{token}/submit/",
        {**FIELDS, "proposal_text": HONEST, "workbook": workbook(GOOD_ROWS)},
        format="multipart",
        follow=True,
        **EN,
    )
    html = response.content.decode()
    assert "Version 1 received. It is being checked" in html
    assert "received, checking…" in html
    assert f'hx-get="/portal/{token}/versions/1/"' in html
    assert 'hx-trigger="every 2s"' in html
    checking.check_submission(submission_id=no_worker[0])
    card = client.get(f"/portal/{token}/versions/1/", **EN).content.decode()
    assert "hx-get" not in card  # polling stops once the result is in
    assert "2 line items" in card and "no problems found" in card
    zh = client.get(f"/portal/{token}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "已收到，检查中" not in zh.content.decode()  # checked now


def test_the_queue_is_bounded_per_link_and_per_procurement(
    settings, org, procurement, invitation, token, no_worker
):
    settings.PORTAL_CHECKS_PENDING_PER_LINK = 2
    settings.PORTAL_CHECKS_PENDING_PER_PROCUREMENT = 3
    api = APIClient()
    statuses = [_post(api, token).status_code for _ in range(3)]
    assert statuses == [202, 202, 429]
    busy = _post(api, token)
    assert busy["Retry-After"] == "30"
    assert busy.json()["code"] == "busy"
    other = make_token(invite(procurement, make_vendor(org, "Wombat Compute")))
    assert [_post(api, other).status_code for _ in range(2)] == [202, 429]
    assert "Many submissions are being checked" in _post(api, other).json()["detail"]
    checking.check_submission(submission_id=no_worker[0])
    assert _post(api, token).status_code == 202  # room again
    assert Submission.objects.count() == 4


def test_a_lost_check_is_resent_by_the_sweep(invitation, no_worker):
    submission = submissions.submit(invitation, fields=FIELDS)
    assert submission.status == Submission.Status.CHECKING
    assert checking.sweep_checks() == 0  # not stale yet
    later = timezone.now() + datetime.timedelta(seconds=checking.STALE_CHECK_S + 1)
    assert checking.sweep_checks(now=later) == 1
    assert no_worker == [submission.pk, submission.pk]


def test_a_revision_without_workbook_waits_for_the_lines_of_the_one_before(
    invitation, no_worker
):
    first = submissions.submit(invitation, fields=FIELDS, workbook=workbook(GOOD_ROWS))
    second = submissions.submit(invitation, fields=FIELDS)
    assert checking.check_submission(submission_id=second.pk) is True
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == second.status == Submission.Status.READY
    assert second.line_items == first.line_items and len(second.line_items) == 2
    assert second.workbook.name == first.workbook.name
    assert second.workbook_bytes == 0


# --- 2. the deadline judged at receipt ----------------------------------------------


def _opened_text(procurement) -> str:
    return Bid.objects.get(procurement=procurement).proposal_text


def test_a_version_received_before_the_deadline_is_the_one_opened(
    procurement, rfp, invitation, admin_user
):
    submissions.submit(invitation, fields=FIELDS, proposal_text="version one")
    # A slow workbook began arriving 3 s before the deadline and was stored after it
    # (the request's start is `now`; the row is written later, past the deadline).
    rfp.deadline = timezone.now() - datetime.timedelta(seconds=1)
    rfp.save(update_fields=["deadline"])
    received = rfp.deadline - datetime.timedelta(seconds=3)
    second = submissions.submit(
        invitation,
        fields=FIELDS,
        proposal_text="version two",
        workbook=workbook(GOOD_ROWS),
        now=received,
    )
    assert (second.version, second.received_at) == (2, received)
    assert second.submitted_at > rfp.deadline
    opening.open_submissions(procurement, admin_user)
    assert _opened_text(procurement) == "version two"  # was version one
    portal_latest = submissions.submissions_of(invitation)[0]
    assert portal_latest.version == 2 and portal_latest.bid.proposal_text == (
        "version two"
    )


def test_a_version_received_after_the_deadline_is_refused(rfp, invitation):
    late = rfp.deadline + datetime.timedelta(seconds=1)
    with pytest.raises(PortalError) as refused:
        submissions.submit(invitation, fields=FIELDS, now=late)
    assert refused.value.code == "late"
    assert not Submission.objects.exists()


def test_the_opening_waits_for_a_version_still_being_checked(
    procurement, rfp, invitation, admin_user, no_worker
):
    submissions.submit(invitation, fields=FIELDS, proposal_text="version one")
    checking.check_submission(submission_id=no_worker[0])
    submissions.submit(
        invitation,
        fields=FIELDS,
        proposal_text="version two",
        now=timezone.now() - datetime.timedelta(seconds=5),
    )
    rfp.deadline = timezone.now() - datetime.timedelta(seconds=1)
    rfp.save(update_fields=["deadline"])
    with translation.override("en"), pytest.raises(ConflictError) as refused:
        opening.open_submissions(procurement, admin_user)
    assert refused.value.message == (
        "1 submission received before the deadline is still being checked: "
        "open again in a minute."
    )
    assert not Bid.objects.exists()
    checking.check_submission(submission_id=no_worker[1])
    opening.open_submissions(procurement, admin_user)
    assert _opened_text(procurement) == "version two"
