"""RFP versions: the first invitation publishes version 1, frozen (the pack and the
portal serve it, never the live plan); a change afterwards is a numbered addendum with
its diff, e-mailed to every invited vendor and acknowledged in the portal; an addendum
less than the notice days before the deadline moves it (政府采购法实施条例 第三十一条:
"不足15日的…应当顺延提交投标文件的截止时间"); a published deadline is never shortened and
nothing changes after it; the opening rule is the published one (issue 23 item 1)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from clusterbuy.models import Role, Stage, StageChange
from clusterbuy.services import ServiceError
from sizing import services as sizing_services
from tests.factories import member
from tests.vendors.rfp_pack_support import rfp_plan  # noqa: F401 (fixture)
from tests.vendors.rfp_support import BASE_URL, link_in, token_of
from vendors.models import (
    AddendumNotice,
    AuditAction,
    AuditEntry,
    RfpPackFile,
    RfpSettings,
    RfpVersion,
    Submission,
)
from vendors.portal import invitations, notices, opening
from vendors.rfp import publication, services
from vendors.rfp.content import rfp_content

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
VENDORS = ("Zebracorp", "Quokka Systems", "Latecomer Ltd")


@pytest.fixture
def t0():
    return timezone.now().replace(second=0, microsecond=0)


@pytest.fixture
def published(procurement, buyer, t0):
    """Deadline 20 days after t0, two-person opening; three vendors invited at t0."""
    RfpSettings.objects.create(
        procurement=procurement,
        deadline=t0 + timedelta(days=20),
        two_person_opening=True,
    )
    rows = [
        invitations.invite(
            procurement,
            buyer,
            vendor_name=name,
            email=f"bids@{name.split()[0].lower()}.example",
            request_base_url=BASE_URL,
            now=t0,
        )
        for name in VENDORS
    ]
    mail.outbox.clear()
    return rows


@pytest.fixture
def second_admin(org):
    return member(org, Role.ADMIN, "adam-admin")


def _addendum(procurement, user, **kwargs):
    kwargs.setdefault("note", "Storage figure corrected.")
    return publication.issue_addendum(
        procurement, user, request_base_url=BASE_URL, **kwargs
    )


def test_first_invitation_publishes_version_one_and_moves_to_stage_two(
    procurement, published, buyer, t0
):
    versions = list(RfpVersion.objects.filter(procurement=procurement))
    assert [(v.number, v.kind) for v in versions] == [(1, "publication")]
    v1 = versions[0]
    assert v1.deadline == t0 + timedelta(days=20)
    assert v1.two_person_opening is True
    assert v1.published_at == t0 and v1.published_by == buyer
    assert v1.facts["settings"]["deadline"] == (t0 + timedelta(days=20)).isoformat()
    procurement.refresh_from_db()
    assert procurement.stage == Stage.SHORTLIST
    change = StageChange.objects.get(procurement=procurement)
    assert (change.from_stage, change.to_stage) == (1, 2)
    targets = AuditEntry.objects.filter(
        procurement=procurement, action=AuditAction.RFP
    ).values_list("target", flat=True)
    assert list(targets) == ["version 1 published"]  # once, not per invitation


def test_published_settings_change_only_through_an_addendum(
    procurement, published, buyer, api_for
):
    with pytest.raises(ServiceError) as refused:
        services.update_rfp_settings(procurement, buyer, two_person_opening=False)
    assert refused.value.field == "two_person_opening"
    response = api_for(buyer).put(
        f"/api/v1/procurements/{procurement.pk}/rfp/",
        {"two_person_opening": False},
        format="json",
        **EN,
    )
    assert response.status_code == 400
    assert response.json() == {
        "two_person_opening": [
            "The RFP is published to the invited vendors: this changes only "
            "through an addendum."
        ]
    }
    assert RfpSettings.objects.get(procurement=procurement).two_person_opening


def test_rule_frozen_one_admin_cannot_open_alone(
    procurement, published, admin_user, second_admin, api_for, t0
):
    """Issue 23, item 1: ask to open, switch the rule off, open alone -> refused."""
    after = t0 + timedelta(days=20, hours=1)
    opening.request_opening(procurement, admin_user, now=after)
    response = api_for(admin_user).put(
        f"/api/v1/procurements/{procurement.pk}/rfp/",
        {"two_person_opening": False},
        format="json",
        **EN,
    )
    assert response.status_code == 400
    assert list(response.json()) == ["two_person_opening"]
    with pytest.raises(ServiceError) as refused:
        _addendum(procurement, admin_user, two_person_opening=False, now=after)
    assert refused.value.field == "deadline"
    assert "deadline has passed" in refused.value.message
    with pytest.raises(ServiceError):
        opening.open_submissions(procurement, admin_user, now=after)
    assert not RfpSettings.objects.get(procurement=procurement).is_open
    result = opening.open_submissions(procurement, second_admin, now=after)
    assert result.opened
    procurement.refresh_from_db()
    assert procurement.stage == Stage.TECHNICAL_EXCHANGE


def test_addendum_inside_the_notice_period_moves_the_deadline_and_reaches_everyone(
    procurement, published, buyer, client, t0
):
    issued = t0 + timedelta(days=10, seconds=30)
    result = _addendum(
        procurement,
        buyer,
        two_person_opening=False,
        note="Opening by one administrator.",
        now=issued,
    )
    # 10 days before a deadline of t0+20d: moved to 15 days after the addendum,
    # rounded up to the minute (t0 + 25 d + 1 min).
    expected = t0 + timedelta(days=25, minutes=1)
    assert result.deadline_moved
    assert result.version.number == 2
    assert result.version.deadline == expected
    assert result.version.requested_deadline == t0 + timedelta(days=20)
    row = RfpSettings.objects.get(procurement=procurement)
    assert row.deadline == expected and row.two_person_opening is False
    changes = {(c["section"], c["old"], c["new"]) for c in result.version.changes}
    assert (
        "opening",
        "Two administrators: one asks to open, another confirms.",
        "One administrator opens.",
    ) in changes
    assert {c["section"] for c in result.version.changes} == {"deadline", "opening"}
    # one bilingual e-mail per invited vendor, each with its own link
    assert result.notified == 3
    assert sorted(m.to[0] for m in mail.outbox) == [
        "bids@latecomer.example",
        "bids@quokka.example",
        "bids@zebracorp.example",
    ]
    for message in mail.outbox:
        assert "Addendum 2 to the RFP" in message.subject
        assert "招标文件第 2 号澄清/修改" in message.subject
        assert "Opening by one administrator." in message.body
    notices_rows = AddendumNotice.objects.filter(version=result.version)
    assert notices_rows.count() == 3
    # every link still works past the moved deadline
    for invitation in published:
        invitation.refresh_from_db()
        assert invitation.expires_at == expected + timedelta(days=30)
    # the vendor reads and acknowledges it in the portal
    link = link_in(mail.outbox[0]).removeprefix("http://testserver")
    page = client.get(link, **EN).content.decode()
    assert "Addendum 2" in page and "Acknowledge addendum 2" in page
    token = token_of(link)
    response = client.post(reverse("vendors:portal-acknowledge", args=[token, 2]), **EN)
    assert response.status_code == 302
    acknowledged = notices_rows.exclude(acknowledged_at=None)
    assert acknowledged.count() == 1
    assert AuditEntry.objects.filter(target="addendum 2 acknowledged").count() == 1
    assert AuditEntry.objects.filter(target="addendum 2").count() == 1


def test_addendum_far_enough_ahead_keeps_the_deadline(
    procurement, published, buyer, t0
):
    result = _addendum(
        procurement, buyer, publish_weights=True, now=t0 + timedelta(days=2)
    )
    assert not result.deadline_moved
    assert result.version.deadline == t0 + timedelta(days=20)  # 18 days left >= 15


def test_a_deadline_extension_alone_does_not_move_it_again(
    procurement, published, buyer, t0
):
    later = t0 + timedelta(days=21)
    result = _addendum(procurement, buyer, deadline=later, now=t0 + timedelta(days=19))
    assert not result.deadline_moved
    assert result.version.deadline == later


def test_a_change_that_does_not_affect_bids_keeps_the_deadline(
    procurement, published, buyer, t0
):
    result = _addendum(
        procurement,
        buyer,
        instructions="Deliver to dock 3.",
        affects_bids=False,
        now=t0 + timedelta(days=19),
    )
    assert not result.deadline_moved


def test_a_published_deadline_is_never_shortened(procurement, published, buyer, t0):
    with pytest.raises(ServiceError) as refused:
        _addendum(
            procurement,
            buyer,
            deadline=t0 + timedelta(days=19),
            now=t0 + timedelta(days=1),
        )
    assert refused.value.field == "deadline"
    assert RfpVersion.objects.filter(procurement=procurement).count() == 1
    assert len(mail.outbox) == 0


def test_an_addendum_needs_its_reason(procurement, published, buyer, t0):
    with pytest.raises(ServiceError) as refused:
        _addendum(procurement, buyer, note="  ", now=t0 + timedelta(days=1))
    assert refused.value.field == "note"


def test_the_api_issues_an_addendum(procurement, published, buyer, api_for, viewer):
    url = f"/api/v1/procurements/{procurement.pk}/rfp/versions/"
    denied = api_for(viewer).post(url, {"note": "x"}, format="json")
    assert denied.status_code == 403
    assert RfpVersion.objects.filter(procurement=procurement).count() == 1
    response = api_for(buyer).post(
        url, {"note": "Weights published.", "publish_weights": True}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["number"] == 2 and body["note"] == "Weights published."
    assert [n["vendor"] for n in body["notices"]] == list(VENDORS)
    listed = api_for(buyer).get(url).json()
    assert [v["number"] for v in listed] == [1, 2]
    refused = api_for(buyer).post(url, {"note": ""}, format="json")
    assert refused.status_code == 400 and "note" in refused.json()


def test_recomputing_the_plan_leaves_the_published_minimums(
    procurement,
    rfp_plan,  # noqa: F811
    buyer,
    it_lead,
    client_for,
    t0,  # noqa: F811
):
    RfpSettings.objects.create(
        procurement=procurement, deadline=t0 + timedelta(days=30)
    )
    invitation = invitations.invite(
        procurement,
        buyer,
        vendor_name="Zebracorp",
        email="bids@zebra.example",
        request_base_url=BASE_URL,
        now=t0,
    )
    published_rows = rfp_content(procurement)["minimums"]
    storage = next(m for m in published_rows if m["code"] == "storage_tb")
    sizing_services.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h200-sxm-141gb",
        data_tb=200.0,
        growth_per_year=30,
        rack_power_limit_kw=40,
    )
    sizing_services.compute_sizing_plan(procurement=procurement, user=it_lead)
    assert rfp_content(procurement)["minimums"] == published_rows  # frozen
    live = publication.live_changes(procurement)
    changed = {c.item: (c.old, c.new) for c in live if c.section == "minimums"}
    assert changed[storage["label"]][0] == storage["shown"]
    assert changed[storage["label"]][1] != storage["shown"]
    page = client_for(buyer).get(reverse("vendors:rfp", args=[procurement.pk]), **EN)
    assert "The live plan differs from the published version." in page.content.decode()
    # a submission records the version it answered; after the addendum it is stale
    Submission.objects.create(invitation=invitation, version=1, rfp_version=1)
    result = _addendum(procurement, buyer, now=t0 + timedelta(days=1))
    assert not result.deadline_moved  # 29 days left
    new_storage = next(
        m for m in rfp_content(procurement)["minimums"] if m["code"] == "storage_tb"
    )
    assert new_storage["shown"] == changed[storage["label"]][1]
    assert publication.live_changes(procurement) == []


def test_the_pack_is_frozen_with_its_hashes(procurement, published, client_for, buyer):
    client = client_for(buyer)
    url = reverse("vendors:rfp-pack", args=[procurement.pk, "docx"])
    first = client.get(url, **EN).content
    second = client.get(url, **EN).content
    assert first == second
    stored = RfpPackFile.objects.get(language="en", fmt="docx")
    assert stored.sha256 == hashlib.sha256(first).hexdigest()
    assert stored.name == f"rfp-{procurement.pk}-en-v1.docx"
    archive = client.get(
        reverse("vendors:rfp-pack", args=[procurement.pk, "zip"]), **EN
    ).content
    names = zipfile.ZipFile(io.BytesIO(archive)).namelist()
    assert names == [
        f"rfp-{procurement.pk}-en-v1.pdf",
        f"rfp-{procurement.pk}-en-v1.docx",
        f"rfp-{procurement.pk}-en-v1-bid-line-items.xlsx",
    ]
    member_docx = zipfile.ZipFile(io.BytesIO(archive)).read(names[1])
    assert member_docx == first


def test_acknowledging_an_unknown_addendum_is_refused(published):
    with pytest.raises(ServiceError):
        notices.acknowledge_addendum(published[0], number=7)


def test_same_person_never_asks_and_confirms(procurement, published, admin_user, t0):
    after = t0 + timedelta(days=20, hours=1)
    opening.request_opening(procurement, admin_user, now=after)
    # even if the stored rule were switched off behind the service's back
    RfpSettings.objects.filter(procurement=procurement).update(two_person_opening=False)
    with pytest.raises(ServiceError):
        opening.open_submissions(procurement, admin_user, now=after)


def test_the_portal_api_lists_and_acknowledges_addenda(
    procurement, published, buyer, api_for, t0
):
    from rest_framework.test import APIClient

    _addendum(procurement, buyer, publish_weights=True, now=t0 + timedelta(days=1))
    token = token_of(link_in(mail.outbox[0]))
    client = APIClient()
    listed = client.get(f"/api/v1/portal/{token}/addenda/", HTTP_ACCEPT_LANGUAGE="en")
    assert listed.status_code == 200
    (row,) = listed.json()
    assert row["number"] == 2 and row["acknowledged_at"] is None
    assert row["deadline_moved"] is False
    assert [c["section"] for c in row["changes"]] == ["criteria"] * len(
        row["changes"]
    ) and row["changes"]
    acked = client.post(f"/api/v1/portal/{token}/addenda/2/acknowledge/")
    assert acked.status_code == 200 and acked.json()["acknowledged_at"]
    unknown = client.post(f"/api/v1/portal/{token}/addenda/9/acknowledge/")
    assert unknown.status_code == 400 and list(unknown.json()) == ["number"]
    forged = client.get("/api/v1/portal/not-a-token/addenda/")
    assert forged.status_code == 403
