"""The buyer's redaction step before an answered question is published (issue 23,
item 9: answered questions were published verbatim, so a vendor naming itself or
another reached every competitor)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.vendors.portal_support import (  # noqa: F401 (fixtures)
    catalog_fixture,
    invite,
    rfp_fixture,
)
from tests.vendors.test_support import make_vendor
from vendors.models import RfpQuestion
from vendors.portal import questions

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ASKED = "Zebracorp here: may our ZX-8 racks exceed Quokka's 40 kW like at Zebracorp HQ?"


@pytest.fixture
def asked(catalog, org, procurement, rfp):
    zebra = invite(procurement, make_vendor(org, "Zebracorp"))
    quokka = invite(procurement, make_vendor(org, "Quokka Systems"))
    question = RfpQuestion.objects.create(
        procurement=procurement, invitation=zebra, question=ASKED
    )
    return zebra, quokka, question


def test_the_redaction_masks_every_vendors_name_for_review(
    api_for, procurement, buyer, it_lead, asked
):
    _zebra, _quokka, question = asked
    url = (
        f"/api/v1/procurements/{procurement.pk}/rfp/questions/{question.pk}/redaction/"
    )
    assert api_for(it_lead).post(url, {"answer": "x"}, **EN).status_code == 403
    body = (
        api_for(buyer)
        .post(url, {"answer": "Up to 60 kW, as Zebracorp asked."}, format="json", **EN)
        .json()
    )
    assert body == {
        "published_question": "[vendor] here: may our ZX-8 racks exceed [vendor]'s "
        "40 kW like at [vendor] HQ?",
        "answer": "Up to 60 kW, as [vendor] asked.",
        "masked": ["Quokka", "Zebracorp"],
    }
    question.refresh_from_db()
    assert question.answered_at is None  # nothing written


def test_an_answer_without_review_is_published_masked(
    api_for, procurement, buyer, asked
):
    zebra, quokka, question = asked
    url = f"/api/v1/procurements/{procurement.pk}/rfp/questions/{question.pk}/"
    response = api_for(buyer).patch(
        url, {"answer": "Yes, Zebracorp: 60 kW."}, format="json", **EN
    )
    assert response.status_code == 200
    assert response.json()["answer"] == "Yes, [vendor]: 60 kW."
    # The other vendor reads the redacted question; the asker reads its own.
    theirs = questions.questions_for(quokka)[0]
    assert "Zebracorp" not in theirs["question"] and "Quokka" not in theirs["question"]
    assert questions.questions_for(zebra)[0]["question"] == ASKED


def test_the_reviewed_texts_are_published_as_edited(
    api_for, client_for, procurement, buyer, asked
):
    _zebra, quokka, question = asked
    review = client_for(buyer).post(
        reverse("vendors:rfp-question-review", args=[procurement.pk, question.pk]),
        {"answer": "Up to 60 kW."},
        **EN,
    )
    html = review.content.decode()
    assert review.status_code == 200
    assert "[vendor] here: may our ZX-8 racks" in html
    assert '<span class="badge warn">Zebracorp</span>' in html
    # The buyer also removes the server model, which names the vendor.
    edited = "May a vendor's racks exceed 40 kW?"
    posted = client_for(buyer).post(
        reverse("vendors:rfp-questions", args=[procurement.pk, question.pk]),
        {"answer": "Up to 60 kW.", "published_question": edited},
    )
    assert posted.status_code == 302
    question.refresh_from_db()
    assert question.published_question == edited and question.question == ASKED
    assert questions.questions_for(quokka)[0]["question"] == edited
    empty = api_for(buyer).patch(
        f"/api/v1/procurements/{procurement.pk}/rfp/questions/{question.pk}/",
        {"answer": "Yes.", "published_question": ""},
        format="json",
    )
    assert empty.status_code == 400 and "published_question" in empty.json()
