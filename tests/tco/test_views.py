import pytest
from django.conf import settings
from django.urls import reverse

from tco import services
from tco.models import RunStatus, TcoRun, TcoScenario


@pytest.fixture
def done_run(scenario, it_lead, fake_pdf, few_draws):
    run = services.request_tco_run(scenario=scenario, user=it_lead, enqueue=False)
    return services.execute_tco_run(run_id=run.pk)


def _form(**extra):
    data = {
        "name": "Plan B",
        "capex-TOTAL_FORMS": "3",
        "capex-INITIAL_FORMS": "0",
        "capex-MIN_NUM_FORMS": "0",
        "capex-MAX_NUM_FORMS": "50",
        "capex-0-category": "gpu_servers",
        "capex-0-description": "servers",
        "capex-0-amount": "1000000",
        "gpu_count": "8",
    }
    data.update(extra)
    return data


def test_tab_shows_the_form_with_defaults_and_reasons(client_for, viewer, procurement):
    response = client_for(viewer).get(reverse("tco:tab", args=[procurement.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'placeholder="1.3"' in html  # PUE default
    assert "PUE 不高于 1.3" in html  # its reason as help text (zh-hans page)
    assert f'hx-post="/procurements/{procurement.pk}/tco/preview/"' in html
    assert 'name="action" value="run"' not in html  # viewers cannot run


def test_preview_returns_the_deterministic_totals(client_for, it_lead, procurement):
    response = client_for(it_lead).post(
        reverse("tco:preview", args=[procurement.pk]), _form(name="")
    )

    assert response.status_code == 200
    estimate = services.estimate(
        inputs={
            "gpu_count": 8,
            "capex": [
                {"category": "gpu_servers", "description": "servers", "amount": 1e6}
            ],
        }
    )
    total = estimate["result"]["total_cost"]
    assert f"{total:,.0f}" in response.content.decode()


def test_preview_shows_the_engine_error_for_a_bad_value(
    client_for, it_lead, procurement
):
    response = client_for(it_lead).post(
        reverse("tco:preview", args=[procurement.pk]), _form(pue="0.8")
    )

    assert response.status_code == 200
    # the live estimate shows it in the field's own error slot (field by field)
    assert (
        '<p class="field-error" role="alert">PUE：必须是 1 至 5 之间的数。</p>'
        in response.content.decode()
    )
    client = client_for(it_lead)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.post(
        reverse("tco:preview", args=[procurement.pk]), _form(pue="0.8")
    )
    assert (
        '<p class="field-error" role="alert">PUE: Must be a number from 1 to 5.</p>'
        in english.content.decode()
    )


def test_saving_and_running_from_the_tab(
    client_for,
    buyer,
    procurement,
    fake_pdf,
    few_draws,
    django_capture_on_commit_callbacks,
):
    client = client_for(buyer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tco:tab", args=[procurement.pk]), _form(action="run")
        )

    run = TcoRun.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tco:run", args=[procurement.pk, run.pk])
    scenario = TcoScenario.objects.get()
    assert scenario.inputs["gpu_count"] == 8
    assert sorted(scenario.inputs["user_fields"]) == ["capex", "gpu_count"]
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b"<svg" in page.content


def test_bad_value_is_shown_on_its_field_and_nothing_is_saved(
    client_for, buyer, procurement
):
    response = client_for(buyer).post(
        reverse("tco:tab", args=[procurement.pk]), _form(utilization="1.5")
    )

    assert response.status_code == 200
    # Under the field itself (its label is beside it): the allowed range, in words.
    html = response.content.decode()
    assert "必须是 0 至 1 之间的比例（0.08 即 8 %）。" in html
    assert "utilization:" not in html and "must be a share" not in html
    assert not TcoScenario.objects.exists()


def test_viewer_cannot_save_or_start_a_run(client_for, viewer, procurement, scenario):
    client = client_for(viewer)

    assert (
        client.post(reverse("tco:tab", args=[procurement.pk]), _form()).status_code
        == 403
    )
    start = reverse("tco:run-start", args=[procurement.pk, scenario.pk])
    assert client.post(start).status_code == 403
    assert not TcoRun.objects.exists()


def test_viewer_sees_results_but_cannot_download_the_pdf(
    client_for, viewer, procurement, done_run
):
    client = client_for(viewer)

    page = client.get(reverse("tco:run", args=[procurement.pk, done_run.pk]))
    assert page.status_code == 200
    assert "1,595,180" in page.content.decode()
    assert b"download-pdf" not in page.content
    pdf = reverse("tco:run-pdf", args=[procurement.pk, done_run.pk])
    assert client.get(pdf).status_code == 403


def test_manager_downloads_the_pdf(client_for, manager, procurement, done_run):
    response = client_for(manager).get(
        reverse("tco:run-pdf", args=[procurement.pk, done_run.pk])
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"


def test_outsider_gets_404_everywhere(client_for, outsider, procurement, done_run):
    client = client_for(outsider)
    urls = [
        reverse("tco:tab", args=[procurement.pk]),
        reverse("tco:run", args=[procurement.pk, done_run.pk]),
        reverse("tco:run-progress", args=[procurement.pk, done_run.pk]),
        reverse("tco:run-pdf", args=[procurement.pk, done_run.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404, url
    assert (
        done_run.scenario.name
        not in client.get(reverse("tco:reports")).content.decode()
    )


def test_progress_partial_polls_until_done_then_refreshes(
    client_for, it_lead, procurement, scenario
):
    run = services.request_tco_run(scenario=scenario, user=it_lead, enqueue=False)
    client = client_for(it_lead)
    url = reverse("tco:run-progress", args=[procurement.pk, run.pk])

    polling = client.get(url, headers={"HX-Request": "true"})
    assert 'hx-trigger="every 1s"' in polling.content.decode()

    TcoRun.objects.filter(pk=run.pk).update(status=RunStatus.FAILED, error_message="x")
    done = client.get(url, headers={"HX-Request": "true"})
    assert done["HX-Refresh"] == "true"


def test_reports_page_lists_the_organisations_runs(client_for, manager, done_run):
    response = client_for(manager).get(reverse("tco:reports"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Baseline" in html
    assert (
        reverse("tco:run-pdf", args=[done_run.scenario.procurement_id, done_run.pk])
        in html
    )
