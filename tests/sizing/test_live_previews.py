"""Live previews work with the form still incomplete (issue 13): the workload's name
is required to save, not to preview."""

import pytest

from sizing import services


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.fixture
def procurement(procurement):
    procurement.region = "global"
    procurement.save()
    return procurement


def test_workload_preview_needs_no_name(client_for, it_lead, procurement, catalog):
    response = client_for(it_lead).post(
        f"/procurements/{procurement.pk}/requirements/workloads/preview/",
        {
            "name": "",
            "kind": "training",
            "model_preset": "llama-2-7b",
            "precision": "bf16",
            "seq_len": "4096",
            "tokens_b": "100",
            "gpu_count": "8",
        },
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<strong>8</strong> × <code>" in html  # a preview, not an error
    assert "errorlist" not in html


def test_workload_preview_is_not_triggered_by_the_form_itself(
    client_for, it_lead, procurement, catalog
):
    # A form that triggers htmx is checked by the browser first (htmx validates a
    # form it sends): with the name required nothing would be sent.
    html = (
        client_for(it_lead)
        .get(f"/procurements/{procurement.pk}/requirements/workloads/new/")
        .content.decode()
    )

    assert '<form method="post" id="workload-form" data-kind="">' in html
    assert 'hx-trigger="input from:#workload-form delay:400ms"' in html
    assert 'hx-include="#workload-form"' in html


def test_requirements_page_links_the_quick_calculator_with_its_procurement(
    client_for, it_lead, procurement, catalog
):
    html = (
        client_for(it_lead)
        .get(f"/procurements/{procurement.pk}/requirements/")
        .content.decode()
    )

    assert f'href="/quick/?procurement={procurement.pk}"' in html
