"""The opening: administrators only, after the deadline, two different administrators
when the RFP asks for it, once; each invitation's latest version becomes a bid with
its line items and evidence, every version points at it, and it is audited."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import localtime

from clusterbuy.models import Role
from clusterbuy.services import ConflictError, ServiceError
from tests.factories import member
from tests.vendors.rfp_support import (
    LATE,
    QUOKKA,
    QUOKKA_TEXT,
    ZEBRA,
    ZEBRA_V2_TEXT,
    sealed_rfp,
)
from vendors.models import AuditAction, AuditEntry, Bid, Submission
from vendors.portal import opening

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def second_admin(org):
    return member(org, Role.ADMIN, "adam-admin")


def test_opening_before_the_deadline_is_refused(
    api_for, client_for, procurement, admin_user
):
    sealed_rfp(procurement, deadline_passed=False)
    with pytest.raises(ServiceError) as refused:
        opening.open_submissions(procurement, admin_user)
    assert refused.value.message == "截止时间过后才能开标。"
    response = api_for(admin_user).post(
        f"/api/v1/procurements/{procurement.pk}/rfp/open/", **EN
    )
    assert response.status_code == 400
    assert response.json() == {
        "non_field_errors": ["The submissions can be opened only after the deadline."]
    }
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(admin_user).get(page, **EN).content.decode()
    assert "The submissions can be opened only after the deadline." in html
    assert 'class="primary" disabled>Open the submissions' in html
    assert not Bid.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditAction.OPENING).exists()


def test_only_an_administrator_opens(
    api_for, client_for, procurement, buyer, manager, it_lead
):
    sealed_rfp(procurement)
    for user in (buyer, manager, it_lead):
        with pytest.raises(PermissionDenied):
            opening.open_submissions(procurement, user)
        url = f"/api/v1/procurements/{procurement.pk}/rfp/open/"
        assert api_for(user).post(url).status_code == 403
        page = reverse("vendors:rfp-open", args=[procurement.pk])
        assert client_for(user).post(page).status_code == 403
    html = (
        client_for(buyer)
        .get(reverse("vendors:rfp-invitations", args=[procurement.pk]), **EN)
        .content.decode()
    )
    assert "Only an administrator can open the submissions." in html
    assert not Bid.objects.exists()
    assert procurement.rfp.opened_at is None


def test_opening_turns_each_latest_version_into_a_bid(api_for, procurement, admin_user):
    made = sealed_rfp(procurement)
    result = opening.open_submissions(procurement, admin_user)

    assert result.opened and result.submissions == 3
    assert result.without_submission == [LATE]
    bids = {b.vendor.name: b for b in Bid.objects.filter(procurement=procurement)}
    assert set(bids) == {ZEBRA, QUOKKA}
    zebra, quokka = bids[ZEBRA], bids[QUOKKA]
    # the latest version (v2: 64 GPUs), never the draft (v1: 32 GPUs)
    assert zebra.gpu_count == 64 and zebra.proposal_text == ZEBRA_V2_TEXT
    assert zebra.created_by == admin_user
    assert zebra.peak_power_kw == 81.6 and zebra.scheduler == "slurm"
    assert [
        (li.category, li.quantity, li.unit_price, li.recurring)
        for li in zebra.line_items.order_by("position")
    ] == [
        ("gpu_servers", Decimal(8), Decimal(9876543), False),
        ("network", Decimal(1), Decimal(1200000), False),
        ("software", Decimal(1), Decimal(100000), True),
    ]
    assert quokka.gpu_count == 48 and quokka.proposal_text == QUOKKA_TEXT
    # the kept evidence and the workbook, not the removed evidence
    assert sorted(
        (a.original_name, a.kind, a.uploaded_by_id) for a in zebra.attachments.all()
    ) == [
        ("zebra-evidence.pdf", "pdf", admin_user.pk),
        ("zebra-quote.xlsx", "xlsx", admin_user.pk),
    ]
    first = zebra.attachments.get(kind="pdf")
    assert first.file.read().startswith(b"%PDF-") and first.size_bytes > 0
    assert quokka.attachments.count() == 0
    # every version of an invitation points at its bid
    assert {
        (s.invitation.vendor.name, s.version): s.bid_id
        for s in Submission.objects.select_related("invitation__vendor")
    } == {(ZEBRA, 1): zebra.pk, (ZEBRA, 2): zebra.pk, (QUOKKA, 1): quokka.pk}
    rfp = made["rfp"]
    rfp.refresh_from_db()
    assert rfp.opened_by == admin_user and rfp.opened_at is not None

    entry = AuditEntry.objects.get(action=AuditAction.OPENING)
    assert entry.actor == admin_user and entry.target == "opened"
    recorded = json.loads(entry.new_value)
    assert recorded["opened_by"] == "alice-admin"
    assert recorded["submissions"] == 3 and recorded["bids"] == 2
    assert recorded["invitations"] == 3
    assert recorded["without_submission"] == [LATE]
    assert recorded["opened_at"] == rfp.opened_at.isoformat()

    # and the comparison now holds the two bids
    data = api_for(admin_user).get(f"/api/v1/procurements/{procurement.pk}/comparison/")
    assert data.status_code == 200
    assert sorted(e["bid"] for e in data.json()) == sorted([zebra.pk, quokka.pk])


def test_opening_twice_is_refused(api_for, procurement, admin_user, second_admin):
    sealed_rfp(procurement)
    opening.open_submissions(procurement, admin_user)
    with pytest.raises(ConflictError):
        opening.open_submissions(procurement, second_admin)
    response = api_for(admin_user).post(
        f"/api/v1/procurements/{procurement.pk}/rfp/open/", **EN
    )
    assert response.status_code == 409
    assert response.json()["detail"] == "The submissions are already open."
    assert Bid.objects.count() == 2
    assert AuditEntry.objects.filter(action=AuditAction.OPENING).count() == 1


def test_a_two_person_opening_needs_a_second_administrator(
    api_for, client_for, procurement, admin_user, second_admin
):
    sealed_rfp(procurement, two_person=True)
    url = f"/api/v1/procurements/{procurement.pk}/rfp/open/"
    first = api_for(admin_user).post(url)
    assert first.status_code == 200 and first.json()["opened"] is False
    procurement.rfp.refresh_from_db()
    assert procurement.rfp.opening_requested_by == admin_user
    assert procurement.rfp.opened_at is None and not Bid.objects.exists()

    again = api_for(admin_user).post(url, **EN)
    assert again.status_code == 400
    assert again.json()["non_field_errors"] == [
        "You asked for this opening: a second administrator must confirm it."
    ]
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(admin_user).get(page, **EN).content.decode()
    assert "waiting for a second administrator" in html
    assert "Asked by alice-admin" in html
    # one full stop: the English time ends in "a.m."/"p.m." already
    assert ".." not in html.split("Asked by", 1)[1].split("</p>", 1)[0]
    assert "disabled>Confirm the opening" in html
    html = client_for(second_admin).get(page, **EN).content.decode()
    assert 'class="primary">Confirm the opening' in html

    posted = client_for(second_admin).post(
        reverse("vendors:rfp-open", args=[procurement.pk])
    )
    assert posted.status_code == 302
    procurement.rfp.refresh_from_db()
    assert procurement.rfp.opened_by == second_admin
    assert Bid.objects.count() == 2
    entries = AuditEntry.objects.filter(action=AuditAction.OPENING).order_by("id")
    assert [(e.target, e.actor.username) for e in entries] == [
        ("requested", "alice-admin"),
        ("opened", "adam-admin"),
    ]
    assert json.loads(entries[1].new_value)["requested_by"] == "alice-admin"


def test_after_opening_the_page_and_api_list_every_version_with_its_bid(
    api_for, client_for, procurement, admin_user, buyer
):
    made = sealed_rfp(procurement)
    opening.open_submissions(procurement, admin_user)
    zebra = Bid.objects.get(vendor__name=ZEBRA)
    quokka = Bid.objects.get(vendor__name=QUOKKA)
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(buyer).get(page, **EN).content.decode()
    bid_url = reverse("vendors:bid-detail", args=[procurement.pk, zebra.pk])
    assert html.count(bid_url) == 2  # versions 2 and 1
    assert "no submission" in html  # the latecomer
    for at in made["times"]:
        with translation.override("en"):
            assert date_format(localtime(at), "SHORT_DATETIME_FORMAT") in html

    data = (
        api_for(buyer)
        .get(f"/api/v1/procurements/{procurement.pk}/rfp/submissions/")
        .json()
    )
    by_vendor = {row["vendor"]["name"]: row for row in data}
    assert by_vendor[ZEBRA]["bid"] == zebra.pk
    assert [v["version"] for v in by_vendor[ZEBRA]["versions"]] == [2, 1]
    assert {v["bid"] for v in by_vendor[ZEBRA]["versions"]} == {zebra.pk}
    assert by_vendor[QUOKKA]["bid"] == quokka.pk
    assert by_vendor[LATE] == {
        "invitation": made["invitations"][LATE].pk,
        "vendor": {"id": made["invitations"][LATE].vendor_id, "name": LATE},
        "bid": None,
        "revoked": False,
        "versions": [],
    }


def test_a_revoked_invitation_is_not_opened_and_is_named(
    api_for, client_for, procurement, admin_user, buyer
):
    from vendors.portal.invitations import revoke

    made = sealed_rfp(procurement)
    quokka_invitation = made["invitations"][QUOKKA]
    revoke(quokka_invitation, buyer)  # it had submitted version 1
    result = opening.open_submissions(procurement, admin_user)

    assert [b.vendor.name for b in result.bids] == [ZEBRA]
    assert result.submissions == 2  # Zebra's two versions, not Quokka's
    assert result.revoked_not_opened == [QUOKKA]
    assert result.without_submission == [LATE]
    assert not Bid.objects.filter(vendor__name=QUOKKA).exists()
    assert Submission.objects.get(invitation=quokka_invitation).bid_id is None
    entry = AuditEntry.objects.get(action=AuditAction.OPENING, target="opened")
    recorded = json.loads(entry.new_value)
    assert recorded["revoked_not_opened"] == [QUOKKA]
    assert (recorded["invitations"], recorded["bids"], recorded["submissions"]) == (
        3,
        1,
        2,
    )

    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(buyer).get(page, **EN).content.decode()
    row = html[html.index('<tr class="revoked">') :].split("</tr>", 1)[0]
    assert QUOKKA in row and "revoked, not opened" in row
    # Zebra's version 1 and Quokka's were sent at the same minute: shown once
    with translation.override("en"):
        assert html.count(date_format(made["times"][2], "SHORT_DATETIME_FORMAT")) == 1
    zh = client_for(buyer).get(page, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "已吊销，未开标" in zh
    data = (
        api_for(buyer)
        .get(f"/api/v1/procurements/{procurement.pk}/rfp/submissions/")
        .json()
    )
    by_vendor = {row["vendor"]["name"]: row for row in data}
    assert by_vendor[QUOKKA]["revoked"] is True
    assert (by_vendor[QUOKKA]["bid"], by_vendor[QUOKKA]["versions"]) == (None, [])


def test_a_submission_after_the_deadline_is_not_opened(procurement, admin_user):
    from datetime import timedelta

    from tests.vendors.rfp_support import submit

    made = sealed_rfp(procurement)
    late = made["rfp"].deadline + timedelta(minutes=5)
    submit(
        made["invitations"][QUOKKA],
        version=2,
        text="QUOKKA-TOO-LATE",
        gpu_count=8,
        price="1",
        at=late,
    )
    opening.open_submissions(procurement, admin_user)
    quokka = Bid.objects.get(vendor__name=QUOKKA)
    assert quokka.proposal_text == QUOKKA_TEXT and quokka.gpu_count == 48


def test_a_vendor_with_a_keyed_bid_stops_the_opening_with_its_name(
    procurement, admin_user
):
    from vendors.services import bids

    made = sealed_rfp(procurement)
    bids.create_bid(
        procurement=procurement,
        vendor=made["invitations"][QUOKKA].vendor,
        accelerator="h100-sxm-80gb",
        gpu_count=8,
    )
    with pytest.raises(ServiceError) as refused:
        opening.open_submissions(procurement, admin_user)
    assert QUOKKA in refused.value.message
    # all or nothing: no bid of Zebracorp either, still sealed
    assert list(Bid.objects.values_list("vendor__name", flat=True)) == [QUOKKA]
    made["rfp"].refresh_from_db()
    assert made["rfp"].opened_at is None
    assert not Submission.objects.filter(bid__isnull=False).exists()


def test_a_version_written_past_the_portal_stops_the_opening_by_name(
    procurement, admin_user
):
    made = sealed_rfp(procurement)
    latest = made["versions"][2]  # Quokka's only version
    latest.line_items = [{"category": "network", "quantity": "-1", "unit_price": "1"}]
    latest.save()
    with pytest.raises(ServiceError) as refused:
        opening.open_submissions(procurement, admin_user)
    assert refused.value.message == (
        "无法开启 Quokka Systems 的提交：其报价明细无法读取"
    )
    assert not Bid.objects.exists()
    made["rfp"].refresh_from_db()
    assert made["rfp"].opened_at is None
