# ruff: noqa: F811 (the fixtures imported from the support modules)
"""The acceptance API (issue 26): the plan created (201) and read, results pushed as
multipart logs (201 with tool, verdicts and stragglers; 400 saying why, nothing
saved), roles, and another organisation's procurement answering 404."""

import io

import pytest

from tests.vendors.acceptance_support import (  # noqa: F401 (fixture)
    ALLTOALL_2NODE,
    NCCL_2NODE,
    decided,
    legacy_unchecked,
    sample,
    wrong_elements,
)
from tests.vendors.test_prescoring import planned  # noqa: F401 (fixture)
from vendors.models import AcceptanceAttempt, AcceptancePlan, AuditEntry


def url(procurement, tail=""):
    return f"/api/v1/procurements/{procurement.pk}/acceptance/{tail}"


def upload(api, procurement, data, **fields):
    log = io.BytesIO(data)
    log.name = "all_reduce.txt"
    return api.post(
        url(procurement, "results/"), {"file": log, **fields}, format="multipart"
    )


@pytest.fixture
def planned_api(decided, api_for, procurement, it_lead):
    api = api_for(it_lead)
    response = api.post(url(procurement), {}, format="json")
    assert response.status_code == 201, response.content
    return api


def test_post_creates_the_plan_and_get_returns_its_clauses(
    planned_api, procurement, decided
):
    body = planned_api.get(url(procurement)).json()
    assert body["basis"] == "bid" and body["bid"] == decided.pk
    clauses = {c["key"]: c for c in body["clauses"]}
    fabric = clauses["nccl_all_reduce_fabric"]
    assert fabric["required"] == 423.0 and fabric["unit"] == "GB/s"
    assert fabric["comparison"] == ">=" and fabric["status"] == "pending"
    assert fabric["command"].startswith("mpirun -np 16 -N 8 all_reduce_perf")
    assert fabric["source"]
    assert clauses["service_response_sev1"]["category"] == "service"


def test_a_log_pushed_answers_201_with_the_verdicts(planned_api, procurement):
    response = upload(
        planned_api,
        procurement,
        sample(NCCL_2NODE),
        clause="nccl_all_reduce_fabric",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["tool"] == "nccl" and body["attempt"] == 1
    assert body["stragglers"] == []
    [verdict] = body["verdicts"]
    assert {k: verdict[k] for k in ("clause", "measured", "required", "unit")} == {
        "clause": "nccl_all_reduce_fabric",
        "measured": 463.9,
        "required": 423.0,
        "unit": "GB/s",
    }
    assert verdict["passed"] is True
    status = {
        c["key"]: c["status"]
        for c in planned_api.get(url(procurement)).json()["clauses"]
    }
    assert status["nccl_all_reduce_fabric"] == "passed"


def test_a_failing_log_is_a_failed_verdict(planned_api, procurement):
    response = upload(
        planned_api,
        procurement,
        wrong_elements(sample(NCCL_2NODE)),
        clause="nccl_all_reduce_fabric",
    )
    assert response.status_code == 201
    [verdict] = response.json()["verdicts"]
    assert verdict["passed"] is False and "#wrong" in verdict["reason"]


@pytest.mark.parametrize(
    "data",
    [sample(NCCL_2NODE)[:2500], b"hello, this is not a test log\n" * 5, b""],
)
def test_an_unreadable_truncated_or_foreign_log_answers_400_and_saves_nothing(
    planned_api, procurement, data
):
    audit = AuditEntry.objects.count()
    response = upload(planned_api, procurement, data, clause="nccl_all_reduce_fabric")
    assert response.status_code == 400
    assert response.json()["file"][0]
    assert not AcceptanceAttempt.objects.exists()
    assert AuditEntry.objects.count() == audit


def test_a_log_that_tells_its_collective_needs_no_clause(planned_api, procurement):
    response = upload(planned_api, procurement, sample(ALLTOALL_2NODE))
    assert response.status_code == 201, response.content
    [verdict] = response.json()["verdicts"]
    assert (verdict["clause"], verdict["measured"], verdict["passed"]) == (
        "nccl_all_to_all_fabric",
        24.97,
        False,
    )


def test_an_ambiguous_text_log_asks_for_the_clause(planned_api, procurement):
    response = upload(
        planned_api, procurement, legacy_unchecked(sample(ALLTOALL_2NODE))
    )
    assert response.status_code == 400
    assert "nccl_all_to_all_fabric" in response.json()["clause"][0]
    assert not AcceptanceAttempt.objects.exists()


def test_a_viewer_and_a_manager_cannot_push_results(
    planned_api, api_for, procurement, viewer, manager
):
    for user in (viewer, manager):
        response = upload(
            api_for(user),
            procurement,
            sample(NCCL_2NODE),
            clause="nccl_all_reduce_fabric",
        )
        assert response.status_code == 403
    assert not AcceptanceAttempt.objects.exists()


def test_the_manager_signs_and_the_it_lead_cannot(
    planned_api, api_for, procurement, manager
):
    upload(
        planned_api, procurement, sample(NCCL_2NODE), clause="nccl_all_reduce_fabric"
    )
    assert planned_api.post(url(procurement, "sign/")).status_code == 403
    response = api_for(manager).post(url(procurement, "sign/"))
    assert response.status_code == 200 and response.json()["signed_at"]
    pdf = api_for(manager).get(
        url(procurement, "certificate.pdf"), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    again = upload(
        planned_api, procurement, sample(NCCL_2NODE), clause="nccl_all_reduce_fabric"
    )
    assert again.status_code == 409


def test_another_organisation_gets_404_and_changes_nothing(
    planned_api, api_for, procurement, outsider
):
    api = api_for(outsider)
    assert api.get(url(procurement)).status_code == 404
    assert api.post(url(procurement), {}, format="json").status_code == 404
    response = upload(
        api, procurement, sample(NCCL_2NODE), clause="nccl_all_reduce_fabric"
    )
    assert response.status_code in (403, 404)
    assert api.get(url(procurement, "certificate.pdf")).status_code == 404
    assert api.post(url(procurement, "sign/")).status_code in (403, 404)
    assert not AcceptanceAttempt.objects.exists()
    assert AcceptancePlan.objects.get().signed_at is None


def test_get_before_a_plan_is_404(decided, api_for, procurement, it_lead):
    assert api_for(it_lead).get(url(procurement)).status_code == 404
