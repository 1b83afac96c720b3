"""The checklist templates in the browser: list, editor, lock, copy, roles."""

import pytest
from django.urls import reverse

from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import (
    ChecklistCriterion,
    ChecklistSection,
    ChecklistTemplate,
    checklist_default,
)
from vendors.services import checklists, evaluation


@pytest.fixture
def template(org):
    return checklists.ensure_default_template(organisation=org)


def editor_post(template, **changes):
    """The editor's form as the browser posts it, with ``changes`` applied."""
    data = {"name": template.name}
    sections = list(template.sections.prefetch_related("criteria"))
    data["section_count"] = str(len(sections))
    for i, s in enumerate(sections):
        data[f"s{i}_code"] = s.code
        data[f"s{i}_title"] = s.display_title
        data[f"s{i}_weight"] = str(s.weight)
        if s.auto_price:
            data[f"s{i}_auto"] = "1"
        criteria = list(s.criteria.all())
        data[f"s{i}_ccount"] = str(len(criteria))
        for j, c in enumerate(criteria):
            data[f"s{i}_c{j}_code"] = c.code
            data[f"s{i}_c{j}_text"] = c.display_text
            data[f"s{i}_c{j}_weight"] = str(c.weight)
    data.update(changes)
    return data


def test_checklist_list_shows_the_default_and_links_from_the_vendors_page(
    client_for, viewer, template
):
    client = client_for(viewer)
    html = client.get(reverse("vendors:checklist-list")).content.decode()
    assert "采购指南评审清单" in html  # the default's name, translated
    assert reverse("vendors:checklist-edit", args=[template.pk]) in html
    vendors_html = client.get(reverse("vendors:vendor-list")).content.decode()
    assert reverse("vendors:checklist-list") in vendors_html


def test_buyer_edits_titles_weights_and_adds_and_removes_criteria(
    client_for, buyer, template
):
    # section 0 is "architecture" with 3 criteria; remove the second, rename the
    # first, add one, and change the section weight.
    data = editor_post(
        template,
        s0_title="Architecture fit",
        s0_weight="25",
        s0_c0_text="Asked about our scenario in a workshop",
        s0_c1_remove="1",
        s0_new_text="Checked our power budget",
        s0_new_weight="2",
    )
    response = client_for(buyer).post(
        reverse("vendors:checklist-edit", args=[template.pk]), data
    )
    assert response.status_code == 302
    section = template.sections.get(code="architecture")
    assert (section.title, section.weight) == ("Architecture fit", 25)
    assert [(c.code, c.text, c.weight) for c in section.criteria.all()] == [
        ("arch_scenario", "Asked about our scenario in a workshop", 1),
        ("arch_balance", "Balanced compute / network / storage design", 1),
        ("architecture_1", "Checked our power budget", 2),
    ]
    # An edited title is shown as typed; untouched default titles stay msgids.
    assert section.display_title == "Architecture fit"
    cost = template.sections.get(code="cost")
    assert cost.title == "Cost transparency"
    assert cost.display_title == "成本透明度"


def test_editor_validation_is_the_services_and_keeps_the_posted_rows(
    client_for, buyer, template
):
    data = editor_post(template, s1_title="  ", s0_new_text="Kept on error")
    response = client_for(buyer).post(
        reverse("vendors:checklist-edit", args=[template.pk]), data
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'role="alert"' in html
    assert "Kept on error" in html
    assert template.sections.get(code="cost").title == "Cost transparency"


def test_api_refuses_the_same_invalid_checklist(api_for, buyer, template):
    response = api_for(buyer).patch(
        f"/api/v1/checklist-templates/{template.pk}/",
        {
            "sections": [
                {"code": "a", "title": "A", "weight": "0", "criteria": []},
                {"code": "b", "title": "B", "weight": "0", "criteria": []},
            ]
        },
        format="json",
    )
    assert response.status_code == 400
    assert "sections" in response.json()
    assert template.sections.count() == 7


def test_viewer_reads_the_editor_but_cannot_save(client_for, viewer, template):
    client = client_for(viewer)
    url = reverse("vendors:checklist-edit", args=[template.pk])
    html = client.get(url).content.decode()
    assert "架构设计" in html and " disabled" in html
    response = client.post(url, editor_post(template, s0_title="Hacked"))
    assert response.status_code == 403
    assert template.sections.get(code="architecture").title == "Architecture"
    assert (
        client.post(reverse("vendors:checklist-copy", args=[template.pk])).status_code
        == 403
    )
    assert ChecklistTemplate.objects.count() == 1


def test_outsider_gets_404_for_another_organisations_checklist(
    client_for, outsider, template
):
    client = client_for(outsider)
    for name in ("vendors:checklist-edit",):
        assert client.get(reverse(name, args=[template.pk])).status_code == 404
    for name in ("vendors:checklist-copy", "vendors:checklist-delete"):
        assert client.post(reverse(name, args=[template.pk])).status_code == 404
    assert ChecklistTemplate.objects.filter(pk=template.pk).exists()


def test_scored_checklist_is_locked_and_copy_makes_an_editable_version(
    client_for, buyer, it_lead, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    row = evaluation.evaluation_settings_for(procurement=procurement)
    criterion = ChecklistCriterion.objects.get(
        section__template=row.template, code="arch_data"
    )
    evaluation.record_score(bid=bid, criterion=criterion, evaluator=it_lead, points=4)
    client = client_for(buyer)
    url = reverse("vendors:checklist-edit", args=[row.template_id])
    html = client.get(url).content.decode()
    assert "lock-note" in html
    assert reverse("vendors:checklist-copy", args=[row.template_id]) in html
    client.post(url, editor_post(row.template, s0_title="Changed"))
    assert ChecklistSection.objects.get(
        template=row.template, code="architecture"
    ).title == ("Architecture")
    response = client.post(reverse("vendors:checklist-copy", args=[row.template_id]))
    copy = ChecklistTemplate.objects.exclude(pk=row.template_id).get()
    assert response["Location"] == reverse("vendors:checklist-edit", args=[copy.pk])
    assert copy.sections.count() == 7
    assert copy.sections.get(code="architecture").title == "Architecture"
    assert not checklists.template_locked(template=copy)


def test_translated_default_title_posted_back_is_stored_as_the_msgid(
    client_for, buyer, template
):
    client_for(buyer).post(
        reverse("vendors:checklist-edit", args=[template.pk]),
        editor_post(template, s0_weight="30"),
    )
    section = template.sections.get(code="architecture")
    assert section.title == checklist_default.DEFAULT_SECTION_TITLES["architecture"]
    assert section.weight == 30
    assert template.sections.get(code="cases").criteria.first().text == (
        "Similar workload and scale"
    )
    template.refresh_from_db()
    assert template.name == checklist_default.TEMPLATE_NAME


def test_comparison_page_links_the_checklist_editor(
    client_for, buyer, org, procurement
):
    make_bid(procurement, make_vendor(org))
    row = evaluation.evaluation_settings_for(procurement=procurement)
    html = (
        client_for(buyer)
        .get(reverse("vendors:comparison", args=[procurement.pk]))
        .content.decode()
    )
    assert reverse("vendors:checklist-edit", args=[row.template_id]) in html
