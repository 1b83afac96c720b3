"""Fixtures of the TCO app tests: a hand-checkable scenario and quick runs."""

import pytest

#: Every figure of this scenario is computed by hand in test_api.py.
HAND_INPUTS = {
    "horizon_years": 3,
    "currency": "CNY",
    "discount_rate": 0.10,
    "electricity_escalation": 0,
    "staff_escalation": 0,
    "capex": [
        {
            "category": "gpu_servers",
            "description": "1 x 8-GPU server",
            "amount": 1_000_000,
        },
        {"category": "network", "description": "switch", "amount": 200_000},
        {"category": "storage", "description": "NVMe", "amount": 100_000},
    ],
    "gpu_count": 8,
    "it_power_kw": 10,
    "load_factor": 0.5,
    "pue": 1.2,
    "electricity_price_per_kwh": 1.0,
    "colocation_per_kw_month": 0,
    "support_rate": 0.1,
    "warranty_years": 3,
    "software_per_year": 0,
    "staff_fte": 1,
    "staff_cost_per_fte_year": 100_000,
    "annual_failure_rate": 0.05,
    "replacement_cost_share": 0.5,
    "residual_value_rate": 0.2,
    "utilization": 0.5,
    "cloud_on_demand_per_gpu_hour": 20,
    "cloud_reserved_per_gpu_hour": 10,
    "cloud_spot_per_gpu_hour": 8,
    "spot_overhead": 0.25,
    "hybrid_cloud_share": 0.5,
}


@pytest.fixture
def hand_inputs():
    return {**HAND_INPUTS, "capex": [dict(c) for c in HAND_INPUTS["capex"]]}


@pytest.fixture
def fake_pdf(monkeypatch):
    """Skip WeasyPrint where a test is not about the PDF (it takes seconds)."""
    from tco import report

    monkeypatch.setattr(
        report, "build_tco_report", lambda *, run, analysis: b"%PDF-1.7 fake"
    )


@pytest.fixture
def few_draws(monkeypatch):
    from tco import services

    monkeypatch.setattr(services, "MONTE_CARLO_DRAWS", 500)


@pytest.fixture
def scenario(procurement, it_lead, hand_inputs):
    from tco import services

    return services.save_scenario(
        procurement=procurement, user=it_lead, name="Baseline", inputs=hand_inputs
    )


@pytest.fixture(autouse=True)
def _private_media_root(request, settings, tmp_path):
    """PDF names repeat across parallel test databases (run-1-en.pdf): keep each
    test's files apart, except with the real worker, which writes to the shared root."""
    if "celery_worker" not in request.fixturenames:
        settings.MEDIA_ROOT = str(tmp_path / "media")
