from django.core.management import call_command
from django.urls import reverse

from clusterbuy.models import Membership, Organisation, Procurement, Stage, StageChange


def test_user_of_another_organisation_gets_404_for_procurement_page(
    client_for, outsider, procurement
):
    client = client_for(outsider)
    for name in ("procurement-detail", "procurement-edit"):
        response = client.get(reverse(name, args=[procurement.pk]))
        assert response.status_code == 404, name


def test_user_of_another_organisation_gets_404_in_api_and_changes_nothing(
    api_for, outsider, procurement
):
    api = api_for(outsider)
    url = f"/api/v1/procurements/{procurement.pk}/"
    assert api.get(url).status_code == 404
    assert api.patch(url, {"name": "hijacked"}, format="json").status_code == 404
    assert api.delete(url).status_code == 404
    procurement.refresh_from_db()
    assert procurement.name == "LLM training cluster"
    assert api.get("/api/v1/procurements/").json()["count"] == 0


def test_viewer_cannot_create_or_edit(client_for, api_for, viewer, procurement):
    api = api_for(viewer)
    response = api.post("/api/v1/procurements/", {"name": "x"}, format="json")
    assert response.status_code == 403
    response = api.patch(
        f"/api/v1/procurements/{procurement.pk}/", {"name": "y"}, format="json"
    )
    assert response.status_code == 403
    assert Procurement.objects.count() == 1
    client = client_for(viewer)
    assert client.get(reverse("procurement-create")).status_code == 403
    assert (
        client.post(reverse("procurement-edit", args=[procurement.pk])).status_code
        == 403
    )
    # Viewers read.
    assert (
        client.get(reverse("procurement-detail", args=[procurement.pk])).status_code
        == 200
    )


def test_api_rejects_bad_input_with_field_messages(api_for, it_lead):
    api = api_for(it_lead)
    response = api.post("/api/v1/procurements/", {}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()
    response = api.post(
        "/api/v1/procurements/",
        {
            "name": "Bad",
            "horizon_years": 9,
            "currency": "EUR",
            "budget_min": "500",
            "budget_max": "100",
        },
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) >= {"horizon_years", "currency"}
    response = api.post(
        "/api/v1/procurements/",
        {"name": "Bad", "budget_min": "500", "budget_max": "100"},
        format="json",
    )
    assert response.status_code == 400
    assert "budget_max" in response.json()
    assert Procurement.objects.count() == 0


def test_duplicate_name_is_a_clear_400_not_a_500(api_for, it_lead, procurement):
    response = api_for(it_lead).post(
        "/api/v1/procurements/", {"name": procurement.name}, format="json"
    )
    assert response.status_code == 400
    assert "name" in response.json()


def test_api_creates_lists_and_filters_by_stage(api_for, it_lead, org):
    api = api_for(it_lead)
    response = api.post(
        "/api/v1/procurements/",
        {"name": "推理集群", "budget_max": "12000000.00", "horizon_years": 4},
        format="json",
    )
    assert response.status_code == 201, response.content
    created = Procurement.objects.get(pk=response.json()["id"])
    assert created.organisation == org and created.currency == "CNY"
    assert api.get("/api/v1/procurements/?stage=1").json()["count"] == 1
    assert api.get("/api/v1/procurements/?stage=2").json()["count"] == 0


def test_form_shows_field_errors_and_keeps_data(client_for, it_lead, procurement):
    client = client_for(it_lead)
    response = client.post(
        reverse("procurement-edit", args=[procurement.pk]),
        {
            "name": "",
            "currency": "CNY",
            "horizon_years": 5,
            "deployment_site": "on_prem",
            "data_sensitivity": "normal",
            "ops_staff_count": 1,
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    procurement.refresh_from_db()
    assert procurement.name == "LLM training cluster"


def test_stage_advances_only_when_checklist_passes_and_is_audited(
    api_for, it_lead, procurement, monkeypatch
):
    # Only the core's own checks (budget, team); the apps' checks have their own tests.
    from clusterbuy import registry

    monkeypatch.setattr(registry, "_stage_checks", {})
    api = api_for(it_lead)
    url = f"/api/v1/procurements/{procurement.pk}/stage/"
    response = api.post(url, {"to_stage": 2}, format="json")
    assert response.status_code == 400
    assert "to_stage" in response.json()
    procurement.budget_max = 1_000_000
    procurement.ops_staff_count = 2
    procurement.save()
    response = api.post(url, {"to_stage": 2, "note": "budget approved"}, format="json")
    assert response.status_code == 201, response.content
    procurement.refresh_from_db()
    assert procurement.stage == Stage.SHORTLIST
    change = StageChange.objects.filter(procurement=procurement).first()
    assert (change.from_stage, change.to_stage, change.changed_by) == (1, 2, it_lead)
    # Skipping a stage is refused.
    assert api.post(url, {"to_stage": 4}, format="json").status_code == 400


def test_procurement_list_renders_in_chinese_and_english(
    client_for, it_lead, procurement
):
    client = client_for(it_lead)
    zh = client.get(reverse("procurement-list"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "采购项目" in zh.content.decode()
    client.cookies["django_language"] = "en"
    en = client.get(reverse("procurement-list"))
    body = en.content.decode()
    assert "Procurements" in body and "采购项目" not in body
    assert procurement.name in body


def test_createorg_is_idempotent(db):
    for _ in range(2):
        call_command(
            "createorg", "Idem Org", admin="idem-admin", password="pw-123456789"
        )
    assert Organisation.objects.filter(name="Idem Org").count() == 1
    assert (
        Membership.objects.filter(user__username="idem-admin", role="admin").count()
        == 1
    )


def test_load_demo_is_idempotent(db):
    call_command("load_demo")
    call_command("load_demo")
    assert Procurement.objects.count() == 1
    assert Membership.objects.count() == 5


def test_api_docs_and_schema_render(client):
    assert client.get("/api/v1/schema/").status_code == 200
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    assert "swagger" in response.content.decode().lower()


def test_admin_manages_api_tokens_for_members(client_for, admin_user, it_lead, api_for):
    client = client_for(admin_user)
    response = client.post(reverse("api-tokens"), {"username": it_lead.username})
    key = response.context["new_token"].key
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/procurements/").status_code == 200
    client.post(reverse("api-tokens"), {"revoke": str(it_lead.pk)})
    assert api.get("/api/v1/procurements/").status_code == 401


def test_token_page_is_for_admins_only(client_for, it_lead):
    assert client_for(it_lead).get(reverse("api-tokens")).status_code == 403


def test_the_procurement_holds_where_the_hardware_is_bought(
    client_for, it_lead, procurement
):
    """One home for the region: the procurement form edits it, the overview shows it,
    and the questionnaire reads it (tests/sizing/test_procurement_facts.py)."""
    client = client_for(it_lead)
    client.cookies["django_language"] = "en"
    form = {
        "name": "LLM training cluster",
        "currency": "CNY",
        "horizon_years": 5,
        "deployment_site": "on_prem",
        "data_sensitivity": "normal",
        "ops_staff_count": 1,
    }
    url = reverse("procurement-edit", args=[procurement.pk])
    refused = client.post(url, {**form, "region": "mars"})
    assert refused.context["form"].errors["region"]
    assert client.post(url, {**form, "region": "global"}).status_code == 302
    procurement.refresh_from_db()
    assert procurement.region == "global"
    page = client.get(reverse("procurement-detail", args=[procurement.pk]))
    assert 'id="procurement-region">Outside China<' in page.content.decode()
