import math

import pytest

from tco.models import RunStatus, TcoRun, TcoScenario

ESTIMATE = "/api/v1/tco/estimate"
RUNS = "/api/v1/tco/runs/"


def test_estimate_returns_the_hand_computed_figures(api_for, viewer, hand_inputs):
    response = api_for(viewer).post(ESTIMATE, hand_inputs, format="json")

    assert response.status_code == 200
    r = response.json()["result"]
    # hardware capex = 1,000,000 + 200,000 + 100,000 = 1,300,000 (paid at month 0)
    assert r["capex_total"] == 1_300_000
    # energy/yr = 10 kW x 0.5 x 1.2 x 8760 h x 1.0 = 52,560
    # staff/yr = 1 x 100,000; failures/yr = 1,300,000 x 0.05 x 0.5 = 32,500
    # support = 0 (3-year warranty covers the 3-year horizon)
    assert r["years"][1]["energy"] == 52_560
    assert r["years"][1]["failures"] == 32_500
    assert r["years"][1]["support"] == 0
    # residual = 1,300,000 x 0.2 = 260,000
    # total = 1,300,000 + 3 x 185,060 - 260,000 = 1,595,180
    assert r["total_cost"] == 1_595_180
    # NPV = 1,300,000 + 185,060 x (1/1.1 + 1/1.21 + 1/1.331) - 260,000/1.331
    #     = 1,300,000 + 460,216.83 - 195,341.85 = 1,564,874.98
    assert r["npv_cost"] == 1_564_874.98
    # useful GPU-hours = 8 x 8760 x 0.5 x 3 = 105,120; 1,595,180 / 105,120 = 15.1748
    assert r["useful_gpu_hours"] == 105_120
    assert r["cost_per_gpu_hour"] == 15.1748
    # on-demand = 105,120 x 20 = 2,102,400; spot pays 8 x 1.25 = 10 per useful hour
    assert r["cloud"]["on_demand"]["total"] == 2_102_400
    assert r["cloud"]["spot"]["total"] == 1_051_200
    # break-even: 1,300,000 + 15,421.67 m <= 58,400 m  ->  m >= 30.25 -> month 31
    assert r["break_even_month"] == {"on_demand": 31, "reserved": None, "spot": None}
    # hybrid = 0.5 x 1,595,180 + 0.5 x 1,051,200 = 1,323,190
    assert r["hybrid"]["total"] == 1_323_190


def test_estimate_fills_defaults_and_lists_them(api_for, viewer):
    response = api_for(viewer).post(ESTIMATE, {"gpu_count": 8}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["inputs"]["pue"] == 1.3
    assert body["inputs"]["it_power_kw"] == pytest.approx(10.2)
    assert "pue" in body["defaults_used"] and "gpu_count" not in body["defaults_used"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"electricity_price_per_kwh": -0.1}, "electricity_price_per_kwh"),
        ({"cloud_spot_per_gpu_hour": -1}, "cloud_spot_per_gpu_hour"),
        (
            {"capex": [{"category": "network", "description": "", "amount": -5}]},
            "capex.0.amount",
        ),
        ({"pue": 0.9}, "pue"),
        ({"utilization": 1.5}, "utilization"),
        ({"hybrid_cloud_share": -0.1}, "hybrid_cloud_share"),
        ({"horizon_years": 6}, "horizon_years"),
        ({"horizon_years": 2}, "horizon_years"),
        ({"discount_rate": "NaN"}, "discount_rate"),
        ({"pue": "abc"}, "pue"),
        ({"colour": 1}, "colour"),
        ({"user_fields": [{"a": 1}]}, "user_fields"),
        ({"capex": "lots"}, "capex"),
        ({"gpu_count": 1e308}, "gpu_count"),  # issue 10: was an OverflowError 500
        ({"staff_fte": 1e308}, "staff_fte"),  # issue 10: was inf in the response
    ],
)
def test_estimate_rejects_bad_inputs_with_the_field(api_for, viewer, change, field):
    response = api_for(viewer).post(ESTIMATE, {"gpu_count": 8, **change}, format="json")

    assert response.status_code == 400
    assert field in response.json()
    assert response.json()[field]  # a message (list) or per-item messages (dict)


def test_estimate_rejects_a_json_nan_literal_with_the_field(api_for, viewer):
    client = api_for(viewer)
    response = client.post(ESTIMATE, '{"pue": NaN}', content_type="application/json")

    assert response.status_code == 400
    # The key stays the field path; the message is in the request's language and
    # says what is allowed (PUE: 1 to 5).
    assert response.json()["pue"] == [
        "请输入有限的数（不能是 NaN 或无穷大）。允许范围：1 至 5 之间的数。"
    ]
    english = client.post(
        ESTIMATE,
        '{"pue": NaN}',
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.json()["pue"] == [
        "Enter a finite number (no NaN or infinity). Allowed: a number from 1 to 5."
    ]


def test_estimate_needs_a_login(client):
    assert client.post(ESTIMATE, {}, content_type="application/json").status_code in (
        401,
        403,
    )


def test_posting_a_run_answers_202_with_location(
    api_for,
    buyer,
    procurement,
    hand_inputs,
    fake_pdf,
    few_draws,
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_for(buyer).post(
            RUNS, {"procurement": procurement.pk, "inputs": hand_inputs}, format="json"
        )

    assert response.status_code == 202
    run = TcoRun.objects.get()
    assert response["Location"] == f"/api/v1/tco/runs/{run.pk}/"
    assert response.json()["status"] == "queued"
    detail = api_for(buyer).get(response["Location"]).json()
    assert detail["status"] == "succeeded"
    assert detail["progress_pct"] == 100
    assert detail["result"]["result"]["total_cost"] == 1_595_180
    assert detail["report_url"] == f"/api/v1/tco/runs/{run.pk}/report.pdf"


def test_posting_a_run_with_bad_inputs_is_400_and_stores_nothing(
    api_for, buyer, procurement
):
    response = api_for(buyer).post(
        RUNS, {"procurement": procurement.pk, "inputs": {"pue": 0.5}}, format="json"
    )

    assert response.status_code == 400
    assert "pue" in response.json()["inputs"]
    assert not TcoRun.objects.exists() and not TcoScenario.objects.exists()


def test_viewer_cannot_start_a_run(api_for, viewer, procurement, hand_inputs):
    response = api_for(viewer).post(
        RUNS, {"procurement": procurement.pk, "inputs": hand_inputs}, format="json"
    )

    assert response.status_code == 403
    assert not TcoRun.objects.exists()


def test_outsider_cannot_run_on_another_organisations_procurement(
    api_for, outsider, procurement, hand_inputs
):
    response = api_for(outsider).post(
        RUNS, {"procurement": procurement.pk, "inputs": hand_inputs}, format="json"
    )

    assert response.status_code == 404
    assert not TcoRun.objects.exists()


@pytest.fixture
def finished_run(scenario, it_lead, fake_pdf, few_draws):
    from tco import services

    run = services.request_tco_run(scenario=scenario, user=it_lead, enqueue=False)
    return services.execute_tco_run(run_id=run.pk)


def test_report_pdf_downloads_for_a_manager(api_for, manager, finished_run):
    response = api_for(manager).get(f"{RUNS}{finished_run.pk}/report.pdf")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_report_pdf_is_404_until_the_run_has_a_pdf(api_for, manager, scenario, it_lead):
    from tco import services

    run = services.request_tco_run(scenario=scenario, user=it_lead, enqueue=False)

    assert api_for(manager).get(f"{RUNS}{run.pk}/report.pdf").status_code == 404


def test_viewer_reads_the_run_but_cannot_download_the_pdf(
    api_for, viewer, finished_run
):
    client = api_for(viewer)

    assert client.get(f"{RUNS}{finished_run.pk}/").status_code == 200
    assert client.get(f"{RUNS}{finished_run.pk}/report.pdf").status_code == 403


def test_outsider_gets_404_for_run_and_report(api_for, outsider, finished_run):
    client = api_for(outsider)

    assert client.get(f"{RUNS}{finished_run.pk}/").status_code == 404
    assert client.get(f"{RUNS}{finished_run.pk}/report.pdf").status_code == 404
    listed = client.get(RUNS).json()
    assert (listed["results"] if isinstance(listed, dict) else listed) == []


def test_scenarios_can_be_listed_and_created(
    api_for, buyer, viewer, procurement, hand_inputs
):
    url = f"/api/v1/procurements/{procurement.pk}/tco-scenarios/"
    created = api_for(buyer).post(
        url, {"name": "A", "inputs": hand_inputs}, format="json"
    )

    assert created.status_code == 201
    assert created.json()["inputs"]["pue"] == 1.2
    assert (
        api_for(viewer)
        .post(url, {"name": "B", "inputs": {}}, format="json")
        .status_code
        == 403
    )
    listed = api_for(viewer).get(url).json()
    names = [
        s["name"] for s in (listed["results"] if isinstance(listed, dict) else listed)
    ]
    assert names == ["A"]


def test_run_state_is_consistent(finished_run):
    assert finished_run.status == RunStatus.SUCCEEDED
    assert math.isclose(finished_run.result["result"]["total_cost"], 1_595_180)


def _queued_run(scenario, user):
    from tco import services

    return services.request_tco_run(scenario=scenario, user=user, enqueue=False)


def test_cancelling_a_queued_run_through_the_api_ends_it_as_the_page_does(
    api_for, buyer, scenario, it_lead
):
    run = _queued_run(scenario, it_lead)

    response = api_for(buyer).post(f"{RUNS}{run.pk}/cancel/", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == run.pk and body["status"] == "failed"
    assert body["error_message"] == "Cancelled by paula-buyer."
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error_message == "Cancelled by paula-buyer."
    assert run.finished_at is not None


def test_cancelling_a_finished_run_is_409_and_keeps_its_result(
    api_for, buyer, finished_run
):
    response = api_for(buyer).post(
        f"{RUNS}{finished_run.pk}/cancel/", HTTP_ACCEPT_LANGUAGE="en"
    )

    assert response.status_code == 409
    assert response.json() == {
        "detail": "The run had already finished.",
        "status": "succeeded",
    }
    finished_run.refresh_from_db()
    assert finished_run.status == RunStatus.SUCCEEDED
    assert finished_run.error_message == ""
    assert finished_run.result["result"]["total_cost"] == 1_595_180


def test_a_viewer_and_an_outsider_cannot_cancel_a_run(
    api_for, viewer, outsider, scenario, it_lead
):
    run = _queued_run(scenario, it_lead)

    assert api_for(viewer).post(f"{RUNS}{run.pk}/cancel/").status_code == 403
    assert api_for(outsider).post(f"{RUNS}{run.pk}/cancel/").status_code == 404
    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED and run.finished_at is None


def test_the_cancel_endpoint_is_in_the_openapi_schema(api_for, buyer):
    schema = api_for(buyer).get("/api/v1/schema/", {"format": "json"}).json()

    post = schema["paths"]["/api/v1/tco/runs/{id}/cancel/"]["post"]
    assert {"200", "403", "404", "409"} <= set(post["responses"])
    assert "already finished" in post["responses"]["409"]["description"]
    assert "Cancel a queued or running run" in post["description"]
