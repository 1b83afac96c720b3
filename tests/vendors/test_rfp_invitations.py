"""Inviting vendors to an RFP: one bilingual e-mail with a working signed link, one
invitation per vendor, re-inviting, resending, revoking; answering questions; who may
do it; the page and the API."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone, translation

from clusterbuy.services import ServiceError
from tests.vendors.rfp_support import BASE_URL, link_in, token_of
from vendors.models import (
    AuditAction,
    AuditEntry,
    Invitation,
    RfpQuestion,
    RfpSettings,
    Vendor,
)
from vendors.portal import answers, invitations
from vendors.portal.submissions import time_text
from vendors.portal.tokens import SALT, PortalLinkError, invitation_for, make_token

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def deadline(procurement):
    at = timezone.now().replace(microsecond=0) + timedelta(days=14)
    RfpSettings.objects.create(procurement=procurement, deadline=at)
    return at


def _invite(procurement, user, **kwargs):
    kwargs.setdefault("email", "sales@zebra.example")
    return invitations.invite(procurement, user, request_base_url=BASE_URL, **kwargs)


def test_invite_sends_one_bilingual_email_with_a_working_link(
    client, procurement, buyer, deadline
):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["sales@zebra.example"]
    assert "Request for proposal: LLM training cluster" in message.subject
    assert "招标文件：LLM training cluster" in message.subject
    assert "Acme AI invites you" in message.body
    assert "Acme AI 邀请贵司" in message.body
    assert "Submission deadline:" in message.body and "提交截止时间：" in message.body
    # the deadline and the expiry with their zone, as the portal says them
    for language, label in (
        ("en", "Submission deadline: "),
        ("zh-hans", "提交截止时间："),
    ):
        with translation.override(language):
            assert f"{label}{time_text(deadline)}\n" in message.body
            assert f"{time_text(deadline + timedelta(days=30))}" in message.body
    assert ".." not in message.body  # not "4:40 a.m.." before a full stop
    link = link_in(message)
    assert link.startswith("http://testserver/portal/")
    assert message.body.count(link) == 2  # once in each language
    assert invitation_for(token_of(link)) == invitation
    assert client.get(link.removeprefix("http://testserver")).status_code == 200
    invitation.refresh_from_db()
    assert invitation.last_sent_at is not None
    assert invitation.expires_at == deadline + timedelta(days=30)
    assert invitation.vendor.organisation == procurement.organisation
    assert invitation.vendor.name == "Zebracorp"


def test_without_a_deadline_the_link_lasts_sixty_days_and_the_settings_are_created(
    procurement, buyer
):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    expected = timezone.now() + timedelta(days=60)
    assert abs(invitation.expires_at - expected) < timedelta(minutes=1)
    assert RfpSettings.objects.filter(procurement=procurement).count() == 1


def test_reinviting_updates_the_address_and_resends_without_a_second_invitation(
    procurement, buyer, deadline
):
    first = _invite(procurement, buyer, vendor_name="Zebracorp")
    again = _invite(
        procurement, buyer, vendor_name="zebracorp", email="new@zebra.example"
    )
    assert again.pk == first.pk
    assert Invitation.objects.filter(procurement=procurement).count() == 1
    assert Vendor.objects.filter(name__iexact="zebracorp").count() == 1
    assert again.email == "new@zebra.example"
    assert [m.to for m in mail.outbox] == [
        ["sales@zebra.example"],
        ["new@zebra.example"],
    ]
    # the link did not change: the first mail's link still works
    assert invitation_for(token_of(link_in(mail.outbox[0]))) == first


def test_revoking_kills_the_link_and_a_reinvitation_sends_a_new_one(
    procurement, buyer, deadline
):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    old_token = token_of(link_in(mail.outbox[0]))
    invitations.revoke(invitation, buyer)
    with pytest.raises(PortalLinkError) as refused:
        invitation_for(old_token)
    assert refused.value.code == "revoked"
    with pytest.raises(ServiceError):
        invitations.resend(invitation, buyer, request_base_url=BASE_URL)

    again = _invite(procurement, buyer, vendor=invitation.vendor)
    new_token = token_of(link_in(mail.outbox[-1]))
    assert new_token != old_token
    assert invitation_for(new_token) == again
    with pytest.raises(PortalLinkError) as refused:
        invitation_for(old_token)
    assert refused.value.code == "invalid"
    targets = list(
        AuditEntry.objects.filter(action=AuditAction.INVITATION)
        .order_by("id")
        .values_list("target", "actor__username")
    )
    assert targets == [
        ("invited", "paula-buyer"),
        ("revoked", "paula-buyer"),
        ("reinvited", "paula-buyer"),
    ]


def test_resend_mails_the_same_link_again(procurement, buyer, deadline, monkeypatch):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    # a second later (the link used to carry a timestamp, so a resend across a second
    # boundary mailed a different link)
    later = time.time() + 1.5
    monkeypatch.setattr(signing.time, "time", lambda: later)
    invitations.resend(invitation, buyer, request_base_url=BASE_URL)
    assert len(mail.outbox) == 2
    assert link_in(mail.outbox[0]) == link_in(mail.outbox[1])


def test_a_link_mailed_with_a_timed_signature_still_opens(procurement, buyer, deadline):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    timed = signing.dumps(
        {"i": invitation.pk, "p": procurement.pk, "n": invitation.nonce},
        salt=SALT,
        compress=False,
    )
    assert timed != make_token(invitation)
    assert invitation_for(timed) == invitation
    with pytest.raises(PortalLinkError) as refused:
        invitation_for(timed[:-2] + "xx")
    assert refused.value.code == "invalid"


@pytest.mark.parametrize(
    "values, field",
    [
        ({"vendor_name": "Zebracorp", "email": "not-an-address"}, "email"),
        ({"email": "a@b.example"}, "vendor"),
        (
            {
                "vendor_name": "Zebracorp",
                "email": "a@b.example",
                "expires_at": "2001-01-01T00:00:00Z",
            },
            "expires_at",
        ),
        ({"vendor": 999999, "email": "a@b.example"}, "vendor"),
        ({"vendor": 999999, "vendor_name": "X", "email": "a@b.example"}, "vendor"),
    ],
)
def test_the_api_answers_400_with_the_field_and_invites_nobody(
    api_for, procurement, buyer, values, field
):
    url = f"/api/v1/procurements/{procurement.pk}/rfp/invitations/"
    response = api_for(buyer).post(url, values, format="json", **EN)
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Invitation.objects.exists() and not mail.outbox


def test_the_api_invites_lists_resends_and_revokes(
    api_for, procurement, buyer, deadline
):
    url = f"/api/v1/procurements/{procurement.pk}/rfp/invitations/"
    vendor = Vendor.objects.create(
        organisation=procurement.organisation, name="Quokka Systems"
    )
    created = api_for(buyer).post(
        url, {"vendor": vendor.pk, "email": "q@quokka.example"}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["vendor"] == {"id": vendor.pk, "name": "Quokka Systems"}
    assert body["email"] == "q@quokka.example" and body["revoked"] is False
    listed = api_for(buyer).get(url).json()
    assert [row["id"] for row in listed] == [body["id"]]
    assert set(listed[0]) == {
        "id",
        "vendor",
        "email",
        "expires_at",
        "revoked",
        "created_at",
        "last_sent_at",
    }
    resent = api_for(buyer).post(f"{url}{body['id']}/resend/")
    assert resent.status_code == 200 and len(mail.outbox) == 2
    assert api_for(buyer).delete(f"{url}{body['id']}/").status_code == 204
    assert Invitation.objects.get().revoked is True


def test_roles_without_vendor_rights_cannot_invite_and_see_why(
    api_for, client_for, procurement, it_lead, manager, viewer, deadline
):
    url = f"/api/v1/procurements/{procurement.pk}/rfp/invitations/"
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    for user in (it_lead, manager, viewer):
        response = api_for(user).post(
            url, {"vendor_name": "Zebracorp", "email": "a@b.example"}, format="json"
        )
        assert response.status_code == 403
        posted = client_for(user).post(
            page, {"vendor_name": "Zebracorp", "email": "a@b.example"}
        )
        assert posted.status_code == 403
        html = client_for(user).get(page, **EN).content.decode()
        assert "cannot invite vendors or answer questions" in html
        assert "<fieldset disabled>" in html
    assert not Invitation.objects.exists() and not Vendor.objects.exists()
    assert not mail.outbox


def test_another_organisation_sees_and_changes_nothing(
    api_for, client_for, procurement, buyer, outsider, deadline
):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    base = f"/api/v1/procurements/{procurement.pk}/rfp"
    client = api_for(outsider)
    assert client.get(f"{base}/invitations/").status_code == 404
    assert client.delete(f"{base}/invitations/{invitation.pk}/").status_code == 404
    assert client.post(f"{base}/open/").status_code == 404
    assert client.get(f"{base}/questions/").status_code == 404
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    assert client_for(outsider).get(page).status_code == 404
    invitation.refresh_from_db()
    assert invitation.revoked is False


def test_the_page_invites_a_new_vendor_and_shows_form_errors(
    client_for, procurement, buyer, deadline
):
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    bad = client_for(buyer).post(
        page, {"vendor_name": "Zebracorp", "email": "nope"}, **EN
    )
    assert bad.status_code == 200 and not Invitation.objects.exists()
    assert "Enter a valid email address." in bad.content.decode()
    good = client_for(buyer).post(
        page, {"vendor_name": "Zebracorp", "email": "z@zebra.example"}, **EN
    )
    assert good.status_code == 302
    html = client_for(buyer).get(page, **EN).content.decode()
    assert "Zebracorp" in html and "z@zebra.example" in html
    assert "Resend" in html and "Revoke" in html
    assert len(mail.outbox) == 1


def test_the_page_is_in_chinese_by_default(client_for, procurement, buyer, deadline):
    _invite(procurement, buyer, vendor_name="Zebracorp")
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(buyer).get(page).content.decode()
    assert "邀请供应商" in html and "开标" in html


def test_the_buyer_answers_a_question_seeing_who_asked(
    api_for, client_for, procurement, buyer, it_lead, deadline
):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    question = RfpQuestion.objects.create(
        procurement=procurement,
        invitation=invitation,
        question="Is liquid cooling allowed?",
    )
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(buyer).get(page, **EN).content.decode()
    assert "Is liquid cooling allowed?" in html and "Zebracorp" in html
    url = f"/api/v1/procurements/{procurement.pk}/rfp/questions/{question.pk}/"
    assert api_for(it_lead).patch(url, {"answer": "No."}).status_code == 403
    empty = api_for(buyer).patch(url, {"answer": ""}, format="json")
    assert empty.status_code == 400 and "answer" in empty.json()
    answered = api_for(buyer).patch(url, {"answer": "Yes, up to 80 kW."})
    assert answered.status_code == 200
    assert answered.json()["answer"] == "Yes, up to 80 kW."
    assert answered.json()["answered_by"] == "paula-buyer"
    listed = api_for(buyer).get(f"/api/v1/procurements/{procurement.pk}/rfp/questions/")
    assert listed.json()[0]["vendor"]["name"] == "Zebracorp"
    question.refresh_from_db()
    assert question.answered_by == buyer and question.answered_at is not None
    posted = client_for(buyer).post(
        reverse("vendors:rfp-questions", args=[procurement.pk, question.pk]),
        {"answer": "Corrected: up to 60 kW."},
    )
    assert posted.status_code == 302
    question.refresh_from_db()
    assert question.answer == "Corrected: up to 60 kW."


def test_answer_question_refuses_another_role(procurement, buyer, viewer, deadline):
    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    question = RfpQuestion.objects.create(
        procurement=procurement, invitation=invitation, question="Q?"
    )
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        answers.answer_question(question, viewer, "A.")
    question.refresh_from_db()
    assert question.answer == ""


def test_blind_grading_hides_the_invited_vendors_from_roles_that_do_not_manage_them(
    api_for, client_for, procurement, buyer, it_lead, deadline
):
    from vendors.services import evaluation

    invitation = _invite(procurement, buyer, vendor_name="Zebracorp")
    RfpQuestion.objects.create(
        procurement=procurement, invitation=invitation, question="Q?"
    )
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(it_lead).get(page, **EN).content.decode()
    assert "Zebracorp" not in html and "sales@zebra.example" not in html
    assert "the invited vendors are hidden from your role" in html
    base = f"/api/v1/procurements/{procurement.pk}/rfp"
    assert api_for(it_lead).get(f"{base}/invitations/").status_code == 403
    questions = api_for(it_lead).get(f"{base}/questions/").json()
    assert questions[0]["vendor"] is None and questions[0]["question"] == "Q?"
    # the buyer manages the vendors and is never blind
    assert "Zebracorp" in client_for(buyer).get(page, **EN).content.decode()


def test_an_existing_vendor_and_a_new_name_at_once_is_refused(
    api_for, client_for, procurement, buyer
):
    vendor = Vendor.objects.create(organisation=procurement.organisation, name="Q")
    values = {"vendor": vendor.pk, "vendor_name": "Other", "email": "a@b.example"}
    url = f"/api/v1/procurements/{procurement.pk}/rfp/invitations/"
    response = api_for(buyer).post(url, values, format="json", **EN)
    assert response.status_code == 400
    assert response.json() == {
        "vendor_name": ["Choose an existing vendor or type a new name, not both."]
    }
    page = reverse("vendors:rfp-invitations", args=[procurement.pk])
    html = client_for(buyer).post(page, values, **EN).content.decode()
    assert "Choose an existing vendor or type a new name, not both." in html
    assert not Invitation.objects.exists() and not mail.outbox
