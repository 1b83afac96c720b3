"""/api/v1/portal/{token}/: the signed link is the only credential; the same rules as
the pages (versions, late refusal, row errors, spec claims, uploads, throttling)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

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
from vendors.models import RfpQuestion, Submission, SubmissionEvidence
from vendors.portal import submissions
from vendors.portal.tokens import make_token

JSON_FIELDS = {
    **{k: v for k, v in FIELDS.items() if k != "sev1_hours"},
    "response_hours": {"sev1": 1, "sev2": 4},
    "frameworks": ["PyTorch", "vLLM"],
    "support_channels": ["phone", "ticket"],
}


def _url(token, rest=""):
    return f"/api/v1/portal/{token}/{rest}"


def _post(api, token, rows=GOOD_ROWS, text=HONEST, lang="en", **fields):
    data = {"fields": json.dumps({**JSON_FIELDS, **fields}), "proposal_text": text}
    if rows is not None:
        data["workbook"] = workbook(rows)
    return api.post(
        _url(token, "submissions/"), data, format="multipart", HTTP_ACCEPT_LANGUAGE=lang
    )


def test_get_shows_the_rfp_and_only_own_submissions(
    org, procurement, invitation, token
):
    make_bid(procurement, make_vendor(org, "Rival Compute"))
    rival = invite(procurement, make_vendor(org, "Rival Two"))
    submissions.submit(rival, fields=FIELDS, proposal_text="RIVAL TEXT")
    api = APIClient()
    assert _post(api, token).status_code == 202
    response = api.get(_url(token), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    data = response.json()
    assert data["rfp"]["procurement"] == procurement.name
    assert data["rfp"]["vendor"] == "Quokka Systems"
    assert data["rfp"]["open_for_submissions"] is True
    assert [s["version"] for s in data["submissions"]] == [1]
    assert data["submissions"][0]["fields"]["response_hours"] == {
        "sev1": 1.0,
        "sev2": 4.0,
    }
    assert data["submissions"][0]["fields"]["frameworks"] == ["PyTorch", "vLLM"]
    text = response.content.decode()
    assert "Rival" not in text and "RIVAL" not in text
    assert response["Cache-Control"] == "no-store"


def test_json_body_is_accepted_too(invitation, token):
    response = APIClient().post(
        _url(token, "submissions/"),
        {"fields": JSON_FIELDS, "proposal_text": HONEST},
        format="json",
    )
    assert response.status_code == 202, response.json()
    assert response.json()["version"] == 1
    assert response.json()["feedback"]["missing"][0]["code"] == "no_line_items"


@pytest.mark.parametrize("change", ["tamper", "expire", "revoke", "other_procurement"])
def test_bad_links_are_refused_and_change_nothing(org, invitation, token, change):
    if change == "tamper":
        token = token.replace(token[-5:], "xxxxx")
        code = "invalid"
    elif change == "expire":
        invitation.expires_at = timezone.now() - datetime.timedelta(seconds=1)
        invitation.save()
        code = "expired"
    elif change == "revoke":
        invitation.revoked = True
        invitation.save()
        code = "revoked"
    else:  # a valid link of procurement B does not reach A's data, nor the reverse
        other = ProcurementFactory(organisation=org, name="B")
        invitation.procurement = other
        token = make_token(invitation)
        code = "invalid"
    api = APIClient()
    response = api.get(_url(token), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert response.json()["code"] == code
    assert _post(api, token).status_code == 403
    response = api.post(_url(token, "questions/"), {"question": "hi"})
    assert response.status_code == 403
    assert not Submission.objects.exists() and not RfpQuestion.objects.exists()


def test_late_submission_is_409_with_the_message(invitation, token, rfp):
    rfp.deadline = timezone.now() - datetime.timedelta(minutes=5)
    rfp.save()
    response = _post(APIClient(), token)
    assert response.status_code == 409
    assert response.json()["code"] == "late"
    assert "revisions are closed" in response.json()["detail"]
    assert not Submission.objects.exists()


def test_invalid_fields_answer_400_by_field(invitation, token):
    response = _post(APIClient(), token, gpu_count=-1, support_channels=["pigeon"])
    assert response.status_code == 400
    assert set(response.json()) == {"gpu_count", "support_channels"}
    response = APIClient().post(
        _url(token, "submissions/"),
        {"fields": "[1, 2]"},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {"fields": ["Give the bid fields as a JSON object."]}
    assert not Submission.objects.exists()


def test_bad_row_then_clean_resubmission_and_a_flagged_claim(invitation, token):
    api = APIClient()
    first = _post(api, token, rows=BAD_ROWS).json()
    assert first["version"] == 1
    assert first["feedback"]["complete"] is False
    assert first["feedback"]["import_errors"][0]["message"] == (
        "Row 3, Quantity: Must be a number above 0 (got “十三”)."
    )
    second = _post(api, token, rows=GOOD_ROWS, text=WRONG_CLAIM).json()
    assert second["version"] == 2
    assert second["feedback"]["complete"] is True
    assert second["feedback"]["import_errors"] == []
    mismatches = [
        c for c in second["feedback"]["spec_claims"] if c["status"] == "mismatch"
    ]
    assert {c["kind"] for c in mismatches} == {"memory_gb", "memory_type"}


def test_uploads_are_checked_by_type_size_and_count(settings, invitation, token):
    api = APIClient()
    response = api.post(
        _url(token, "evidence/"),
        {"file": SimpleUploadedFile("x.pdf", b"MZ\x90\x00 not a pdf")},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {"file": ["Only PDF and XLSX files can be attached."]}
    settings.PORTAL_UPLOAD_MAX_BYTES = 1000
    response = _post(api, token)
    assert response.status_code == 400
    assert list(response.json()) == ["workbook"]
    settings.PORTAL_UPLOAD_MAX_BYTES = 10 * 1024 * 1024
    response = api.post(
        _url(token, "evidence/"),
        {"file": SimpleUploadedFile("case.pdf", pdf_bytes())},
        format="multipart",
    )
    assert response.status_code == 201
    evidence_id = response.json()["id"]
    assert api.get(_url(token, "evidence/")).json()[0]["original_name"] == "case.pdf"
    assert api.delete(_url(token, f"evidence/{evidence_id}/")).status_code == 204
    assert api.delete(_url(token, f"evidence/{evidence_id}/")).status_code == 404
    assert SubmissionEvidence.objects.get().removed is True
    assert not Submission.objects.exists()


def test_questions_are_anonymised(org, procurement, invitation, token):
    other = invite(procurement, make_vendor(org, "Someone Else"))
    RfpQuestion.objects.create(
        procurement=procurement,
        invitation=other,
        question="Delivery site?",
        answer="Shanghai.",
        answered_at=timezone.now(),
    )
    api = APIClient()
    response = api.post(_url(token, "questions/"), {"question": "Payment terms?"})
    assert response.status_code == 201
    rows = api.get(_url(token, "questions/")).json()
    assert [(r["question"], r["mine"]) for r in rows] == [
        ("Delivery site?", False),
        ("Payment terms?", True),
    ]
    assert set(rows[0]) == {"question", "answer", "asked_at", "answered_at", "mine"}
    assert api.post(_url(token, "questions/"), {"question": ""}).status_code == 400


def test_throttling_answers_429(settings, invitation, token):
    cache.clear()
    settings.PORTAL_THROTTLE_RATES = {"token": "3/min", "address": "100/min"}
    api = APIClient()
    statuses = [api.get(_url(token)).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    cache.clear()


def test_the_schema_documents_the_portal(api_for, buyer):
    response = api_for(buyer).get("/api/v1/schema/", {"format": "json"})
    paths = response.json()["paths"]
    assert "/api/v1/portal/{token}/submissions/" in paths
    assert (
        "multipart/form-data"
        in (
            paths["/api/v1/portal/{token}/submissions/"]["post"]["requestBody"][
                "content"
            ]
        )
    )
    assert paths["/api/v1/portal/{token}/evidence/{evidence_pk}/"]["delete"]


def test_hostile_fields_text_is_a_400_not_a_500(invitation, token):
    api = APIClient()
    for text in ("[" * 5000, '{"gpu_count": ' + "1" * 50 + "}", "not json"):
        response = api.post(
            _url(token, "submissions/"),
            {"fields": text},
            format="multipart",
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code == 400, text[:20]
    assert not Submission.objects.exists()
