"""Issue 24: when the procurement's data must stay on-premises (data_sensitivity
requires local deployment), the cloud comparison of a TCO run is caveated."""

from django.urls import reverse

from tco import services
from tco.models import RunStatus


def _run_page(procurement, scenario, it_lead, client_for):
    run = services.request_tco_run(
        scenario=scenario, user=it_lead, lang="en", enqueue=False
    )
    run = services.execute_tco_run(run_id=run.pk)
    assert run.status == RunStatus.SUCCEEDED, run.error_message
    url = reverse("tco:run", args=[procurement.pk, run.pk])
    return client_for(it_lead).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_cloud_options_are_caveated_for_on_prem_only_data(
    procurement, scenario, it_lead, client_for, few_draws
):
    procurement.data_sensitivity = "medical_imaging"
    procurement.save()
    page = _run_page(procurement, scenario, it_lead, client_for)
    assert 'id="cloud-excluded"' in page
    assert "for reference only and are not an alternative" in page


def test_no_caveat_when_the_data_may_go_to_the_cloud(
    procurement, scenario, it_lead, client_for, few_draws
):
    procurement.data_sensitivity = "normal"
    procurement.save()
    assert 'id="cloud-excluded"' not in _run_page(
        procurement, scenario, it_lead, client_for
    )
