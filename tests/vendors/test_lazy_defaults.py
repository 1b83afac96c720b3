"""Reads do not write: the evaluation settings and the organisation's default checklist
are shown unsaved until a write path (a bid, a score, the settings, the weights, the
checklist editor) stores them."""

from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import ChecklistTemplate, EvaluationSettings, checklist_default
from vendors.services import checklists, evaluation


def _rows() -> tuple[int, int]:
    return EvaluationSettings.objects.count(), ChecklistTemplate.objects.count()


def _default_name(response) -> str:
    with translation.override(response["Content-Language"]):
        return escape(checklist_default.template_name(checklist_default.TEMPLATE_NAME))


def test_pages_of_a_fresh_procurement_write_nothing_and_show_the_default_checklist(
    client_for, api_for, buyer, procurement
):
    client, api = client_for(buyer), api_for(buyer)
    assert _rows() == (0, 0)
    for url in (
        reverse("vendors:bids", args=[procurement.pk]),
        reverse("vendors:comparison", args=[procurement.pk]),
        reverse("vendors:checklist-list"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert _default_name(response) in response.content.decode(), url
    p = f"/api/v1/procurements/{procurement.pk}"
    for url in (f"{p}/evaluation/", f"{p}/comparison/", "/api/v1/checklist-templates/"):
        assert api.get(url).status_code == 200, url
    assert _rows() == (0, 0)


def test_unsaved_default_has_the_buyers_guide_sections_as_they_would_be_stored(org):
    unsaved = checklists.default_template(organisation=org)
    stored = checklists.ensure_default_template(organisation=org)
    assert unsaved.pk is None and stored.pk is not None
    assert checklists.template_sections(unsaved) == checklists.template_sections(stored)


def test_pages_read_the_stored_default_checklist_without_creating_settings(
    client_for, buyer, org, procurement
):
    template = checklists.ensure_default_template(organisation=org)
    html = (
        client_for(buyer)
        .get(reverse("vendors:comparison", args=[procurement.pk]))
        .content.decode()
    )
    assert reverse("vendors:checklist-edit", args=[template.pk]) in html
    row = evaluation.evaluation_settings_for(procurement=procurement)
    assert (row.pk, row.template_id) == (None, template.pk)
    assert _rows() == (0, 1)


def test_opening_the_unsaved_default_in_the_editor_stores_it(client_for, buyer):
    response = client_for(buyer).post(
        reverse("vendors:checklist-list"), {"open_default": "1"}
    )
    template = ChecklistTemplate.objects.get()
    assert template.is_default and template.sections.count() == 7
    assert response["Location"] == reverse("vendors:checklist-edit", args=[template.pk])


def test_write_paths_store_the_settings_with_the_default_checklist(
    client_for, buyer, org, procurement
):
    client_for(buyer).post(
        reverse("vendors:evaluation-settings", args=[procurement.pk]),
        {"template": "", "blind_grading": "on"},
    )
    row = EvaluationSettings.objects.get(procurement=procurement)
    assert row.blind_grading and row.template.is_default
    assert _rows() == (1, 1)


def test_the_first_bid_stores_the_settings_its_evaluation_reads(org, procurement):
    make_bid(procurement, make_vendor(org))
    row = EvaluationSettings.objects.get(procurement=procurement)
    assert row.template == checklists.default_template(organisation=org)


def test_trying_weights_on_a_fresh_procurement_writes_nothing(
    client_for, buyer, procurement
):
    response = client_for(buyer).post(
        reverse("vendors:comparison-weights", args=[procurement.pk]),
        {"w_price": "30"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert reverse("vendors:checklist-list") in response.content.decode()
    assert _rows() == (0, 0)
