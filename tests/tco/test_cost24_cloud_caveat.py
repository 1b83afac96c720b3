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


def _live_preview(procurement, user, client_for, lang):
    data = {
        "name": "",
        "capex-TOTAL_FORMS": "1",
        "capex-INITIAL_FORMS": "0",
        "capex-MIN_NUM_FORMS": "0",
        "capex-MAX_NUM_FORMS": "50",
        "capex-0-category": "gpu_servers",
        "capex-0-description": "servers",
        "capex-0-amount": "1000000",
        "gpu_count": "8",
    }
    url = reverse("tco:preview", args=[procurement.pk])
    return client_for(user).post(url, data, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_the_live_estimate_caveats_the_cloud_for_on_prem_only_data(
    procurement, it_lead, client_for
):
    procurement.data_sensitivity = "medical_imaging"
    procurement.save()
    page = _live_preview(procurement, it_lead, client_for, "en")
    assert 'id="preview-cloud-excluded"' in page
    assert "for reference only and are not an alternative" in page
    zh = _live_preview(procurement, it_lead, client_for, "zh-hans")
    assert 'id="preview-cloud-excluded"' in zh
    assert "for reference only" not in zh  # translated
    # the page's first estimate says the same
    tab = client_for(it_lead).get(
        reverse("tco:tab", args=[procurement.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert 'id="preview-cloud-excluded"' in tab.content.decode()


def test_the_live_estimate_has_no_caveat_when_the_cloud_is_allowed(
    procurement, it_lead, client_for
):
    procurement.data_sensitivity = "normal"
    procurement.save()
    page = _live_preview(procurement, it_lead, client_for, "en")
    assert 'id="preview-cloud-excluded"' not in page
