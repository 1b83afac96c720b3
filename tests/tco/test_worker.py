"""A TCO run executed by a real Celery worker process through Redis."""

import pytest

from tco.models import TcoRun
from tests.conftest import wait_for
from tests.tco.conftest import HAND_INPUTS


@pytest.mark.services
def test_a_real_worker_runs_the_analysis_and_writes_the_pdf(
    celery_worker, api_for, manager, procurement
):
    client = api_for(manager)
    response = client.post(
        "/api/v1/tco/runs/",
        {"procurement": procurement.pk, "inputs": HAND_INPUTS, "lang": "en"},
        format="json",
    )
    assert response.status_code == 202
    location = response["Location"]

    body = wait_for(
        lambda: (
            (b := client.get(location).json())["status"] in ("succeeded", "failed")
            and b
        ),
        timeout_s=120,
        interval_s=0.5,
    )

    assert body["status"] == "succeeded", body["error_message"]
    assert body["attempts"] == 1
    assert body["result"]["result"]["total_cost"] == 1_595_180
    pdf = client.get(body["report_url"])
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    run = TcoRun.objects.get(pk=body["id"])
    assert run.pdf.name == f"tco/run-{run.pk}-en.pdf"
