"""The portal's services: versions, the submission window, validation, the workbook,
feedback (row errors, spec claims, missing items, plan minimums) and evidence."""

from __future__ import annotations

import datetime
import threading
from dataclasses import replace

import pytest
from django.db import connection
from django.utils import timezone, translation

from tests.factories import pdf_bytes
from tests.vendors.portal_support import (  # noqa: F401
    BAD_ROWS,
    FIELDS,
    GOOD_ROWS,
    HONEST,
    WRONG_CLAIM,
    catalog_fixture,
    invitation_fixture,
    rfp_fixture,
    token_fixture,
    workbook,
)
from tests.vendors.test_comparison import PLAN
from vendors.models import Bid, Submission
from vendors.portal import feedback, submissions
from vendors.portal.submissions import PortalError
from vendors.services import plan_facts


def _submit(invitation, rows=GOOD_ROWS, text=HONEST, **fields):
    return submissions.submit(
        invitation,
        fields={**FIELDS, **fields},
        proposal_text=text,
        workbook=workbook(rows) if rows is not None else None,
    )


def test_each_submit_adds_the_next_version_and_keeps_the_old_ones(invitation):
    first = _submit(invitation)
    second = _submit(invitation, gpu_count=72)
    assert (first.version, second.version) == (1, 2)
    stored = list(invitation.submissions.order_by("version"))
    assert [s.fields["gpu_count"] for s in stored] == [64, 72]
    assert stored[0].line_items[0] == {
        "category": "gpu_servers",
        "description": "8x H100 SXM server",
        "quantity": "8",
        "unit_price": "2000000",
        "recurring": False,
        "year_from": None,  # the line's term and scope (issue 24), not in the sheet
        "year_to": None,
        "scope": [],
    }
    assert stored[0].fields["warranty_years"] == "3"
    assert stored[0].fields["response_hours"] == {"sev1": 1.0}
    assert not Bid.objects.exists()  # a submission is not a bid


def test_a_revision_without_a_workbook_keeps_the_latest_lines(invitation):
    _submit(invitation)
    revised = _submit(invitation, rows=None, text=HONEST + " Revised.")
    assert revised.version == 2
    assert len(revised.line_items) == 2
    assert revised.workbook_name == "bid.xlsx"
    assert revised.feedback["complete"] is True


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submits_get_distinct_versions(
    catalog, org, procurement, rfp, invitation, settings
):
    settings.PORTAL_CHECKS_PENDING_PER_LINK = 3  # the queue's bound: test_portal_intake
    errors = []

    def run():
        try:
            _submit(invitation, rows=None)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(invitation.submissions.values_list("version", flat=True)) == [
        1,
        2,
        3,
    ]


def test_late_submission_is_refused_with_the_deadline(invitation, rfp):
    rfp.deadline = timezone.make_aware(datetime.datetime(2026, 3, 1, 18, 0))
    rfp.save()
    with translation.override("en"), pytest.raises(PortalError) as caught:
        _submit(invitation)
    assert caught.value.code == "late"
    assert "The submission deadline was March 1, 2026, 6 p.m. (CST)" in str(
        caught.value.message
    )
    assert "revisions are closed" in caught.value.message
    assert not Submission.objects.exists()
    with translation.override("zh-hans"), pytest.raises(PortalError) as caught:
        _submit(invitation)
    assert "提交截止时间为" in caught.value.message


def test_no_deadline_and_opened_rfps_refuse(invitation, rfp):
    rfp.deadline = None
    rfp.save()
    with pytest.raises(PortalError) as caught:
        _submit(invitation)
    assert caught.value.code == "no_deadline"
    rfp.deadline = timezone.now() + datetime.timedelta(days=1)
    rfp.opened_at = timezone.now()
    rfp.save()
    with pytest.raises(PortalError) as caught:
        _submit(invitation)
    assert caught.value.code == "opened"
    assert not Submission.objects.exists()


def test_fields_are_validated_by_the_bid_forms_rules(invitation):
    with translation.override("en"), pytest.raises(PortalError) as caught:
        _submit(invitation, gpu_count=0, accelerator="warp-drive", storage_tb=-5)
    errors = caught.value.errors
    assert caught.value.code == "invalid"
    assert set(errors) == {"gpu_count", "accelerator", "storage_tb"}
    assert errors["gpu_count"] == ["Ensure this value is greater than or equal to 1."]
    assert not Submission.objects.exists()


def test_the_accelerator_may_be_named_as_the_catalog_shows_it(invitation):
    submission = _submit(invitation, accelerator="NVIDIA H200 SXM 141GB")
    assert submission.fields["accelerator"] == "h200-sxm-141gb"


def test_a_bad_row_is_stored_as_an_incomplete_version_then_fixed(invitation):
    with translation.override("en"):
        bad = _submit(invitation, rows=BAD_ROWS)
        shown = feedback.shown_feedback(bad.feedback)
    assert bad.version == 1 and bad.line_items == []
    assert bad.feedback["complete"] is False
    assert [e["message"] for e in shown["import_errors"]] == [
        "Row 3, Quantity: Must be a number above 0 (got “十三”)."
    ]
    with translation.override("zh-hans"):
        zh = feedback.shown_feedback(bad.feedback)
    assert zh["import_errors"][0]["message"].startswith("第 3 行")
    fixed = _submit(invitation, rows=GOOD_ROWS)
    assert fixed.version == 2
    assert fixed.feedback["complete"] is True
    assert fixed.feedback["import_errors"] == []
    assert len(fixed.line_items) == 2


def test_a_workbook_that_is_not_xlsx_is_refused_without_a_version(invitation):
    from django.core.files.uploadedfile import SimpleUploadedFile

    with pytest.raises(PortalError) as caught:
        submissions.submit(
            invitation,
            fields=FIELDS,
            workbook=SimpleUploadedFile("bid.xlsx", pdf_bytes()),
        )
    assert (caught.value.code, caught.value.field) == ("file_type", "workbook")
    assert not Submission.objects.exists()


def test_a_wrong_spec_claim_is_flagged(invitation):
    submission = _submit(invitation, text=WRONG_CLAIM)
    claims = {c["kind"]: c for c in submission.feedback["spec_claims"]}
    assert claims["memory_gb"]["status"] == "mismatch"
    assert claims["memory_gb"]["claimed"] == ["141 GB", "141 GB"]
    assert claims["memory_gb"]["datasheet"][0] == "80 GB (H100 SXM5 80GB)"
    assert claims["memory_type"]["status"] == "mismatch"
    with translation.override("en"):
        shown = feedback.shown_feedback(submission.feedback)
    assert shown["mismatches"] == 2
    assert shown["spec_claims"][0]["message"] == (
        "Memory per GPU: 141 GB (datasheet: 80 GB (H100 SXM5 80GB))"
    )
    honest = _submit(invitation, text=HONEST)
    assert {c["status"] for c in honest.feedback["spec_claims"]} == {"ok"}


def test_missing_items_are_listed(invitation):
    fields = {k: FIELDS[k] for k in ("accelerator", "gpu_count", "scheduler")}
    submission = submissions.submit(invitation, fields=fields, proposal_text="")
    missing = submission.feedback["missing"]
    assert {m.get("field") for m in missing if m["code"] == "field_missing"} == set(
        feedback.RFP_EXPECTED_FIELDS
    )
    assert {"code": "no_line_items"} in missing
    assert {"code": "no_proposal"} in missing
    with translation.override("en"):
        messages = [
            m["message"]
            for m in feedback.shown_feedback(submission.feedback)["missing"]
        ]
    assert "Not stated: Storage capacity (TB). The RFP asks for it." in messages
    assert "No line items: upload the bid template filled in." in messages


def test_plan_minimums_not_met_are_listed_in_the_packs_words(monkeypatch, invitation):
    plan = replace(PLAN, accelerator_name="NVIDIA H100 SXM5 80GB")
    monkeypatch.setattr(plan_facts, "plan_summary", lambda *, procurement: plan)
    submission = _submit(invitation, storage_tb=300, network_gbps_per_gpu=200)
    short = {
        m["item"]: m
        for m in submission.feedback["missing"]
        if m["code"] == "plan_minimum"
    }
    assert set(short) == {"storage_tb", "network_gbps_per_gpu"}
    assert short["storage_tb"]["status"] == "fail"
    assert (short["storage_tb"]["required"], short["storage_tb"]["offered"]) == (
        500,
        300,
    )
    # the pack's own label and stated requirement, kept in both languages
    assert short["storage_tb"]["stated"] == ["≥ 500 TB", "≥ 500 TB"]
    assert short["network_gbps_per_gpu"]["stated"][0] == "≥ 400 Gb/s"
    with translation.override("en"):
        shown = feedback.missing_message(short["storage_tb"])
    assert shown == (
        "Storage capacity (fail): the RFP requires ≥ 500 TB; "
        "40% below the plan (300 vs 500 TB)."
    )
    with translation.override("zh-hans"):
        shown = feedback.missing_message(short["storage_tb"])
    assert "≥ 500 TB" in shown
    assert shown.endswith("比方案低 40%（300 对 500 TB）。")


def test_feedback_kept_before_the_packs_wording_still_reads(invitation):
    entry = {
        "code": "plan_minimum",
        "item": "storage_tb",
        "status": "warn",
        "required": 500,
        "offered": 480,
        "unit": "TB",
        "note": ["", ""],
    }
    with translation.override("en"):
        assert feedback.missing_message(entry) == (
            "Storage capacity (warning): the RFP requires 500 TB, offered 480 TB."
        )


def test_evidence_is_checked_by_content_size_and_count(settings, invitation):
    from django.core.files.uploadedfile import SimpleUploadedFile

    added = submissions.add_evidence(
        invitation, SimpleUploadedFile("case.exe", pdf_bytes())
    )
    assert (added.kind, added.original_name) == ("pdf", "case.exe")
    assert added.file.name.endswith(".pdf")
    with pytest.raises(PortalError) as caught:
        submissions.add_evidence(
            invitation, SimpleUploadedFile("case.pdf", b"%PDF-1.4 not really")
        )
    assert caught.value.code == "file_type"
    settings.PORTAL_UPLOAD_MAX_BYTES = 100
    with pytest.raises(PortalError) as caught:
        submissions.add_evidence(invitation, SimpleUploadedFile("a.pdf", pdf_bytes()))
    assert caught.value.code == "too_large"
    settings.PORTAL_UPLOAD_MAX_BYTES = 10 * 1024 * 1024
    settings.PORTAL_EVIDENCE_MAX_FILES = 1
    with pytest.raises(PortalError) as caught:
        submissions.add_evidence(invitation, SimpleUploadedFile("b.pdf", pdf_bytes()))
    assert caught.value.code == "too_many"
    submissions.remove_evidence(invitation, added.pk)
    assert submissions.evidence_of(invitation) == []
    submissions.add_evidence(invitation, SimpleUploadedFile("b.pdf", pdf_bytes()))
    assert len(submissions.evidence_of(invitation)) == 1


def test_evidence_of_another_invitation_cannot_be_removed(org, procurement, invitation):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.vendors.portal_support import invite
    from tests.vendors.test_support import make_vendor

    other = invite(procurement, make_vendor(org, "Other Vendor"))
    theirs = submissions.add_evidence(other, SimpleUploadedFile("x.pdf", pdf_bytes()))
    with pytest.raises(PortalError) as caught:
        submissions.remove_evidence(invitation, theirs.pk)
    assert caught.value.code == "not_found"
    theirs.refresh_from_db()
    assert theirs.removed is False
