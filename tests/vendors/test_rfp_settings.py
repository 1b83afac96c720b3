"""The RFP settings: validated (a deadline in the future, nothing after opening),
audited, editable by procurement officers and administrators only, on the page and
through the API; another organisation sees nothing."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clusterbuy.services import ServiceError
from vendors.models import AuditAction, AuditEntry, RfpSettings
from vendors.rfp.services import rfp_settings_for, update_rfp_settings


def _future(days=14):
    return (timezone.now() + timedelta(days=days)).replace(second=30, microsecond=0)


def test_settings_are_created_on_first_use(db, procurement):
    row = rfp_settings_for(procurement)
    assert row.pk is not None
    assert rfp_settings_for(procurement).pk == row.pk
    assert (row.deadline, row.publish_weights, row.two_person_opening) == (
        None,
        False,
        False,
    )


def test_update_is_audited_field_by_field(db, procurement, buyer):
    deadline = _future()
    update_rfp_settings(
        procurement, buyer, deadline=deadline, publish_weights=True, instructions=""
    )
    entries = AuditEntry.objects.filter(procurement=procurement, action=AuditAction.RFP)
    assert {(e.target, e.new_value, e.actor_id) for e in entries} == {
        ("deadline", deadline.isoformat(), buyer.pk),
        ("publish_weights", "True", buyer.pk),
    }
    # saving the same values again records nothing
    update_rfp_settings(procurement, buyer, deadline=deadline, publish_weights=True)
    assert entries.count() == 2


def test_a_deadline_in_the_past_is_refused(db, procurement, buyer):
    with pytest.raises(ServiceError) as caught:
        update_rfp_settings(
            procurement, buyer, deadline=timezone.now() - timedelta(minutes=1)
        )
    assert caught.value.field == "deadline"
    assert not RfpSettings.objects.filter(deadline__isnull=False).exists()


def test_a_passed_deadline_may_stay_but_not_be_moved_into_the_past(
    db, procurement, buyer
):
    deadline = _future(1)
    update_rfp_settings(procurement, buyer, deadline=deadline)
    later = deadline + timedelta(days=2)
    # the deadline passed: saving other settings keeps it
    update_rfp_settings(
        procurement, buyer, now=later, deadline=deadline, two_person_opening=True
    )
    with pytest.raises(ServiceError):
        update_rfp_settings(
            procurement, buyer, now=later, deadline=deadline + timedelta(days=1)
        )
    # the form shows it to the minute: the same minute is the same deadline
    update_rfp_settings(
        procurement, buyer, now=later, deadline=deadline.replace(second=0)
    )
    assert RfpSettings.objects.get(procurement=procurement).deadline == deadline
    with pytest.raises(ServiceError) as caught:
        update_rfp_settings(procurement, buyer, now=later, deadline=None)
    assert caught.value.message == "截止时间已过：只能延长，不能删除。"  # default zh
    # extended into the future again: allowed
    update_rfp_settings(
        procurement, buyer, now=later, deadline=later + timedelta(days=3)
    )


def test_nothing_changes_after_opening(db, procurement, buyer, admin_user):
    row = rfp_settings_for(procurement)
    row.deadline = timezone.now() - timedelta(days=1)
    row.opened_at = timezone.now()
    row.opened_by = admin_user
    row.save()
    with pytest.raises(ServiceError) as caught:
        update_rfp_settings(procurement, buyer, deadline=_future())
    assert caught.value.field == "deadline"
    with pytest.raises(ServiceError):
        update_rfp_settings(procurement, buyer, publish_weights=True)
    assert not AuditEntry.objects.filter(action=AuditAction.RFP).exists()


# --- the page --------------------------------------------------------------------


def test_page_saves_the_settings(db, procurement, buyer, client_for):
    client = client_for(buyer)
    url = reverse("vendors:rfp", args=[procurement.pk])
    deadline = timezone.localtime(_future())
    response = client.post(
        url,
        {
            "deadline": deadline.strftime("%Y-%m-%dT%H:%M"),
            "publish_weights": "on",
            "instructions": "Bring a demo.",
        },
    )
    assert response.status_code == 302
    row = RfpSettings.objects.get(procurement=procurement)
    assert row.deadline == deadline.replace(second=0)
    assert row.publish_weights is True
    assert row.two_person_opening is False
    assert row.instructions == "Bring a demo."
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bring a demo." in page
    assert 'id="rfp-criteria"' in page and "20.0 %" in page


def test_page_shows_field_errors_and_saves_nothing(db, procurement, buyer, client_for):
    client = client_for(buyer)
    url = reverse("vendors:rfp", args=[procurement.pk])
    past = timezone.localtime(timezone.now() - timedelta(days=1))
    response = client.post(
        url,
        {"deadline": past.strftime("%Y-%m-%dT%H:%M")},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "The deadline must be in the future." in response.content.decode()
    garbled = client.post(url, {"deadline": "next tuesday"}, HTTP_ACCEPT_LANGUAGE="en")
    assert garbled.status_code == 200
    assert "Enter a valid date/time." in garbled.content.decode()
    assert not RfpSettings.objects.filter(deadline__isnull=False).exists()
    assert not AuditEntry.objects.filter(action=AuditAction.RFP).exists()


def test_page_in_chinese_without_a_plan(db, procurement, it_lead, client_for):
    response = client_for(it_lead).get(
        reverse("vendors:rfp", args=[procurement.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "尚无配置方案" in page
    assert "投标必须满足的最低要求" in page
    # the IT lead reads it but cannot change it, and is told why
    assert "只读" in page
    assert 'name="deadline"' not in page
    assert not RfpSettings.objects.exists()  # a read writes nothing


def test_roles_without_edit_vendors_cannot_post(db, procurement, it_lead, client_for):
    response = client_for(it_lead).post(
        reverse("vendors:rfp", args=[procurement.pk]), {"publish_weights": "on"}
    )
    assert response.status_code == 403
    assert not RfpSettings.objects.exists()


def test_another_organisation_gets_404_on_the_page(
    db, procurement, outsider, client_for
):
    client = client_for(outsider)
    url = reverse("vendors:rfp", args=[procurement.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"publish_weights": "on"}).status_code == 404
    assert not RfpSettings.objects.exists()


# --- the API ---------------------------------------------------------------------


def test_api_get_and_put(db, procurement, buyer, api_for):
    api = api_for(buyer)
    url = f"/api/v1/procurements/{procurement.pk}/rfp/"
    deadline = _future()
    response = api.put(
        url,
        {"deadline": deadline.isoformat(), "two_person_opening": True},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["settings"]["two_person_opening"] is True
    assert body["settings"]["is_open"] is False
    assert body["content"]["plan_available"] is False
    assert body["content"]["deadline"] == deadline.isoformat()
    assert body["content"]["criteria"][0]["weight_percent"] is None
    got = api.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert got["content"]["title"] == "招标文件：LLM training cluster"
    assert AuditEntry.objects.filter(
        action=AuditAction.RFP, target="two_person_opening"
    ).exists()


def test_api_bad_input_is_400_with_the_field(db, procurement, buyer, api_for):
    api = api_for(buyer)
    url = f"/api/v1/procurements/{procurement.pk}/rfp/"
    past = timezone.now() - timedelta(days=1)
    response = api.put(
        url, {"deadline": past.isoformat()}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert response.json() == {"deadline": ["The deadline must be in the future."]}
    garbled = api.put(
        url, {"deadline": "soon", "publish_weights": "maybe"}, format="json"
    )
    assert garbled.status_code == 400
    assert set(garbled.json()) == {"deadline", "publish_weights"}
    too_long = api.put(url, {"instructions": "x" * 100_000}, format="json")
    assert too_long.status_code == 400
    assert "instructions" in too_long.json()
    assert not RfpSettings.objects.filter(deadline__isnull=False).exists()
    assert not AuditEntry.objects.filter(action=AuditAction.RFP).exists()


def test_api_put_needs_edit_vendors(db, procurement, it_lead, api_for):
    api = api_for(it_lead)
    url = f"/api/v1/procurements/{procurement.pk}/rfp/"
    assert api.get(url).status_code == 200
    assert api.put(url, {"publish_weights": True}, format="json").status_code == 403
    assert not RfpSettings.objects.exists()


def test_api_another_organisation_gets_404(db, procurement, outsider, api_for):
    api = api_for(outsider)
    url = f"/api/v1/procurements/{procurement.pk}/rfp/"
    assert api.get(url).status_code == 404
    assert api.put(url, {"publish_weights": True}, format="json").status_code == 404
    assert not RfpSettings.objects.exists()
