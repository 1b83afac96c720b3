"""The vendor's policy declarations and 投标函 contact facts in its portal submission
(issue 25): declared with evidence by purpose, validated by field (page in zh and en,
API 400), carried into the bid at opening (claims, BidContact, attachment purposes);
the buyer accepts a declaration only with its evidence, and only an accepted,
evidenced declaration earns a deduction; the portal's phones give a same_phone
signal."""

from __future__ import annotations

import datetime
import html
from decimal import Decimal as D

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from clusterbuy.services import ServiceError
from tests.factories import pdf_bytes
from tests.vendors import tender_support
from tests.vendors.portal_support import (  # noqa: F401
    FIELDS,
    GOOD_ROWS,
    HONEST,
    catalog_fixture,
    invitation_fixture,
    invite,
    rfp_fixture,
    token_fixture,
    workbook,
)
from tests.vendors.tender_support import attach_evidence, priced_bid, set_regime
from tests.vendors.test_support import make_vendor
from vendors import comparison
from vendors.models import Bid, BidContact, RfpSettings, Submission
from vendors.portal import opening, submissions
from vendors.portal.tokens import make_token
from vendors.services import committee_collusion, declarations

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world

DECLARED = {
    "declares_sme": True,
    "declares_domestic": True,
    "domestic_cost_share_pct": "62.5",
}
CONTACT = {
    "contact_person": "Li Wei",
    "phone": "+86 138 0013 8000",
    "email": "li.wei@quokka.example",
    "bond_account": "6222 0000 1111 2222",
}


def _open(procurement, user):
    """The deadline passes a minute after the versions were received; then open."""
    now = timezone.now()
    Submission.objects.update(received_at=now - datetime.timedelta(minutes=2))
    RfpSettings.objects.filter(procurement=procurement).update(
        deadline=now - datetime.timedelta(minutes=1)
    )
    return opening.open_submissions(procurement, user)


def _submit(invitation, *, contact=CONTACT, declared=DECLARED):
    return submissions.submit(
        invitation,
        fields=FIELDS,
        proposal_text=HONEST,
        workbook=workbook(GOOD_ROWS),
        declarations=declared,
        contact=contact,
    )


def test_the_opening_carries_declarations_contact_and_evidence_purposes(
    invitation, procurement, admin_user
):
    submissions.add_evidence(
        invitation,
        SimpleUploadedFile("sme-letter.pdf", pdf_bytes()),
        purpose="sme",
    )
    submissions.add_evidence(invitation, SimpleUploadedFile("case.pdf", pdf_bytes()))
    version = _submit(invitation)
    assert version.declarations == {
        "sme": True,
        "domestic": True,
        "domestic_cost_share_pct": "62.50",
    }
    assert version.contact == CONTACT
    _open(procurement, admin_user)
    bid = Bid.objects.get(procurement=procurement)
    assert (bid.sme_claimed, bid.domestic_claimed) == (True, True)
    assert bid.domestic_cost_share_pct == D("62.50")
    # claims only: the buyer has accepted nothing yet
    assert (bid.sme_declared, bid.domestic_product) == (False, False)
    contact = BidContact.objects.get(bid=bid)
    assert (contact.contact_person, contact.phone, contact.email) == (
        "Li Wei",
        "+86 138 0013 8000",
        "li.wei@quokka.example",
    )
    assert contact.bond_account == "6222 0000 1111 2222"
    purposes = dict(bid.attachments.values_list("original_name", "purpose"))
    assert purposes == {
        "sme-letter.pdf": "sme",
        "case.pdf": "general",
        "bid.xlsx": "general",
    }


def test_contact_facts_from_the_portal_give_a_same_phone_signal(
    invitation, procurement, org, admin_user
):
    other = invite(procurement, make_vendor(org, "Wombat Compute"))
    _submit(invitation)
    # the same mobile number written another way (+86 dropped, dashes)
    _submit(
        other,
        contact={"contact_person": "Zhang San", "phone": "138-0013-8000"},
        declared={},
    )
    _open(procurement, admin_user)
    bids = {b.vendor.name: b for b in Bid.objects.filter(procurement=procurement)}
    labels = {b.pk: name for name, b in bids.items()}
    signals = committee_collusion.signals_for(
        procurement=procurement, labels=labels, prices={}
    )
    phones = [s for s in signals if s["kind"] == "same_phone"]
    assert len(phones) == 1
    assert sorted(phones[0]["bid_ids"]) == sorted(b.pk for b in bids.values())
    assert phones[0]["evidence"] == "+86 138 0013 8000"
    assert not [s for s in signals if s["kind"] == "same_contact"]


def test_contact_and_declaration_errors_are_field_errors_and_store_nothing(
    invitation,
):
    with translation.override("en"), pytest.raises(submissions.PortalError) as refused:
        _submit(
            invitation,
            contact={"phone": "call me", "email": "li.wei@"},
            declared={"declares_domestic": True},
        )
    assert set(refused.value.errors) == {"phone", "email", "domestic_cost_share_pct"}
    assert refused.value.errors["domestic_cost_share_pct"] == [
        "Give the domestic share of the product cost."
    ]
    assert refused.value.errors["email"] == ["Enter a valid e-mail address."]
    assert not Submission.objects.exists()


def _post_page(client, token, lang, **extra):
    data = {**FIELDS, "proposal_text": HONEST, "workbook": workbook(GOOD_ROWS)}
    data.update(extra)
    response = client.post(
        reverse("vendors:portal-submit", args=[token]), data, HTTP_ACCEPT_LANGUAGE=lang
    )
    return response, html.unescape(response.content.decode())


def test_the_page_shows_the_field_errors_in_english_and_chinese(invitation, token):
    bad = {"phone": "12", "email": "nobody", "declares_domestic": "on"}
    response, page = _post_page(Client(), token, "en", **bad)
    assert response.status_code == 200
    assert (
        "Enter a phone number: 7 to 20 digits, with spaces, brackets, dashes or a "
        "leading + only." in page
    )
    assert "Enter a valid e-mail address." in page
    assert "Give the domestic share of the product cost." in page
    response, page = _post_page(Client(), token, "zh-hans", **bad)
    assert response.status_code == 200
    assert (
        "请输入电话号码：7 至 20 位数字，只可含空格、括号、连字符或开头的 +。" in page
    )
    assert "请输入有效的电子邮件地址。" in page
    assert "请填写本国产品成本占比。" in page
    assert not Submission.objects.exists()


def test_the_page_asks_for_declarations_contact_and_warns_of_missing_evidence(
    invitation, token
):
    response, _page = _post_page(Client(), token, "en", declares_sme="on", **CONTACT)
    assert response.status_code == 302
    page = html.unescape(
        Client()
        .get(reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE="en")
        .content.decode()
    )
    assert 'id="declarations"' in page and 'id="bid-contact"' in page
    assert 'value="+86 138 0013 8000"' in page  # the revision starts from it
    assert 'data-gap="sme"' in page
    assert "no small-enterprise declaration is attached under Evidence" in page
    zh = html.unescape(
        Client()
        .get(reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE="zh-hans")
        .content.decode()
    )
    assert "政策声明" in zh and "投标函联系人" in zh
    assert "未在“证明材料”中附上中小企业声明函" in zh
    submissions.add_evidence(
        invitation, SimpleUploadedFile("letter.pdf", pdf_bytes()), purpose="sme"
    )
    page = (
        Client()
        .get(reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE="en")
        .content.decode()
    )
    assert 'data-gap="sme"' not in page
    assert 'data-purpose="sme"' in page


def test_the_api_answers_400_with_the_field_messages(invitation, token):
    api = APIClient()
    response = api.post(
        f"/api/v1/portal/{token}/submissions/",
        {
            "fields": FIELDS,
            "proposal_text": HONEST,
            "declarations": {"declares_domestic": True, "domestic_cost_share_pct": 120},
            "contact": {"phone": "phone: ask", "email": "x@y"},
        },
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["domestic_cost_share_pct"] == [
        "Ensure this value is less than or equal to 100."
    ]
    assert body["email"] == ["Enter a valid e-mail address."]
    assert body["phone"][0].startswith("Enter a phone number")
    response = api.post(
        f"/api/v1/portal/{token}/submissions/",
        {"fields": FIELDS, "contact": "not an object"},
        format="json",
    )
    assert response.status_code == 400 and "contact" in response.json()
    response = api.post(
        f"/api/v1/portal/{token}/submissions/",
        {"fields": FIELDS, "proposal_text": HONEST, "declarations": DECLARED},
        format="json",
    )
    assert response.status_code == 202
    assert response.json()["declarations"]["domestic_cost_share_pct"] == "62.50"
    assert not Submission.objects.filter(version=2).exists()


def test_evidence_through_the_api_keeps_its_purpose(invitation, token):
    api = APIClient()
    url = f"/api/v1/portal/{token}/evidence/"
    upload = SimpleUploadedFile("made-here.pdf", pdf_bytes())
    response = api.post(url, {"file": upload, "purpose": "domestic"})
    assert response.status_code == 201 and response.json()["purpose"] == "domestic"
    upload = SimpleUploadedFile("x.pdf", pdf_bytes())
    response = api.post(url, {"file": upload, "purpose": "price_justification"})
    assert response.status_code == 400 and "purpose" in response.json()


# --- the buyer's acceptance and the deduction ----------------------------------------


def test_a_deduction_only_for_a_declaration_accepted_with_its_evidence(
    tender_world, buyer, org
):
    """Government procurement: SME 10 % (one after the other with the domestic 20 %).
    A 30 M: SME letter attached and accepted -> 27 M, the base; B 30 M: flag set past
    the service, no letter -> no deduction, 27 M / 30 M x 30 = 27 points; C 33 M:
    declared and evidenced but not accepted -> 33 M, 27/33 x 30 = 24.5454... points."""
    a = priced_bid(tender_world, org, "A", 30_000_000, sme=True)
    b = priced_bid(tender_world, org, "B", 30_000_000)
    Bid.objects.filter(pk=b.pk).update(sme_declared=True)
    c = priced_bid(tender_world, org, "C", 33_000_000)
    Bid.objects.filter(pk=c.pk).update(sme_claimed=True)
    attach_evidence(c, "sme")
    set_regime(tender_world, buyer, "gov_procurement")
    review = comparison.build_comparison(procurement=tender_world, user=buyer).tender
    by_id = {r.bid_id: r for r in review.bids}
    assert by_id[a.pk].evaluated_cny == D("27000000.00")
    assert [(d["kind"], d["amount_cny"]) for d in by_id[a.pk].deductions] == [
        ("sme", D("3000000.00"))
    ]
    assert by_id[a.pk].declaration_evidence == {"sme": [a.attachments.get().pk]}
    assert (by_id[b.pk].evaluated_cny, by_id[b.pk].deductions) == (D(30_000_000), [])
    assert by_id[c.pk].evaluated_cny == D(33_000_000)
    assert by_id[a.pk].price_points == D(30)
    assert by_id[b.pk].price_points == D(27)
    assert by_id[c.pk].price_points.quantize(D("0.0001")) == D("24.5455")


def test_accepting_a_declaration_without_evidence_is_refused_everywhere(
    tender_world, buyer, org, api_for, client_for
):
    a = priced_bid(tender_world, org, "A", 30_000_000)
    b = priced_bid(tender_world, org, "B", 31_000_000)
    attach_evidence(b, "sme", "b-letter.pdf")
    with pytest.raises(ServiceError) as refused:
        declarations.set_bid_declarations(bid=a, user=buyer, sme_declared=True)
    assert refused.value.field == "sme_declared"
    url = f"/api/v1/procurements/{tender_world.pk}/bids/{a.pk}/declarations/"
    response = api_for(buyer).put(
        url, {"domestic_product": True}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert response.json()["domestic_product"] == [
        "The domestic-product declaration cannot be accepted: no domestic-product "
        "proof is attached to the bid."
    ]
    # the page: all or nothing, the row's error, the ticks as posted
    page_url = reverse("vendors:tender-declarations", kwargs={"pk": tender_world.pk})
    response = client_for(buyer).post(
        page_url, {f"sme_{a.pk}": "on", f"sme_{b.pk}": "on"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    row = body[body.index(f'<tr data-bid="{a.pk}"') :]
    assert "no small-enterprise declaration is attached to the bid." in row[:800]
    assert "b-letter.pdf" in body
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.sme_declared, b.sme_declared) == (False, False)
    zh = client_for(buyer).post(
        page_url, {f"sme_{a.pk}": "on"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert "不能接受中小企业声明：投标未附中小企业声明函。" in zh.content.decode()
    response = client_for(buyer).post(page_url, {f"sme_{b.pk}": "on"})
    assert response.status_code == 302
    b.refresh_from_db()
    assert b.sme_declared is True


def test_declarations_of_another_organisation_are_404(
    tender_world, org, api_for, outsider
):
    bid = priced_bid(tender_world, org, "A", 30_000_000)
    attach_evidence(bid, "sme")
    url = f"/api/v1/procurements/{tender_world.pk}/bids/{bid.pk}/declarations/"
    response = api_for(outsider).put(url, {"sme_declared": True}, format="json")
    assert response.status_code == 404
    bid.refresh_from_db()
    assert bid.sme_declared is False


def test_a_portal_link_reaches_only_its_own_invitation(
    invitation, procurement, org, token
):
    other = invite(procurement, make_vendor(org, "Wombat Compute"))
    _submit(other)
    page = Client().get(reverse("vendors:portal", args=[token])).content.decode()
    assert "li.wei@quokka.example" not in page
    assert make_token(other) != token


def test_the_buyers_contact_api_applies_the_same_phone_and_email_rules(
    tender_world, org, api_for, buyer, outsider
):
    bid = priced_bid(tender_world, org, "A", 30_000_000)
    url = f"/api/v1/procurements/{tender_world.pk}/bids/{bid.pk}/contact/"
    response = api_for(buyer).put(
        url, {"phone": "ask Li"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert response.json()["phone"][0].startswith("Enter a phone number: 7 to 20")
    assert not BidContact.objects.filter(bid=bid).exclude(phone="").exists()
    response = api_for(outsider).put(url, {"phone": "010 6555 0101"}, format="json")
    assert response.status_code == 404
    response = api_for(buyer).put(url, {"phone": "(010) 6555-0101"}, format="json")
    assert response.status_code == 200 and response.json()["phone"] == "(010) 6555-0101"
