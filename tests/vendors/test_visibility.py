"""Blind grading and the sealed envelope, one rule (vendors.visibility) on every surface:
the leaks of issue 10, each reproduced, and what each persona still sees."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.vendors.blind_support import QUOKKA, ZEBRA, blind_sealed_bids
from vendors import visibility
from vendors.services import evaluation


@pytest.fixture
def sealed(procurement, buyer, admin_user):
    return blind_sealed_bids(procurement=procurement, buyer=buyer, admin=admin_user)


EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _html(client, url) -> tuple[int, str]:
    response = client.get(url, **EN)
    return response.status_code, response.content.decode()


def test_a_blind_evaluator_cannot_open_the_page_of_a_vendor_that_bid(
    client_for, it_lead, buyer, sealed
):
    zebra_vendor = sealed["vendors"][0]
    url = reverse("vendors:vendor-detail", args=[zebra_vendor.pk])
    assert client_for(it_lead).get(url).status_code == 404
    status, html = _html(client_for(it_lead), reverse("vendors:vendor-list"))
    assert status == 200 and ZEBRA not in html and "Quokka" not in html
    # the buyer manages vendors and is never blind
    status, html = _html(client_for(buyer), url)
    assert status == 200 and ZEBRA in html
    assert (
        reverse(
            "vendors:bid-detail",
            args=[sealed["bids"][0].procurement_id, sealed["bids"][0].pk],
        )
        in html
    )


def test_a_vendor_invited_to_a_blind_procurement_is_not_in_the_directory(
    client_for, procurement, it_lead, buyer, sealed
):
    from vendors.portal.invitations import invite

    invitation = invite(
        procurement,
        buyer,
        vendor_name="Wombat Invited Ltd",
        email="rfp@wombat.example",
        request_base_url="http://testserver/",
    )
    assert invitation.vendor not in visibility.visible_vendors(it_lead)
    assert invitation.vendor in visibility.visible_vendors(buyer)
    status, html = _html(client_for(it_lead), reverse("vendors:vendor-list"))
    assert status == 200 and "Wombat" not in html


def test_a_blind_evaluator_gets_no_case_studies_or_bid_ids_of_a_vendor_that_bid(
    api_for, it_lead, buyer, sealed
):
    zebra_vendor = sealed["vendors"][0]
    url = f"/api/v1/vendors/{zebra_vendor.pk}/case-studies/"
    assert api_for(it_lead).get(url).status_code == 404
    assert (
        api_for(it_lead).get(f"/api/v1/vendors/{zebra_vendor.pk}/").status_code == 404
    )
    names = [
        v["name"] for v in api_for(it_lead).get("/api/v1/vendors/").json()["results"]
    ]
    assert ZEBRA not in names and QUOKKA not in names
    buyer_view = api_for(buyer).get(url).json()["results"]
    assert buyer_view[0]["bid_ids"] == [sealed["bids"][0].pk]


def test_the_bids_api_withholds_case_study_ids_and_names_from_a_blind_viewer(
    api_for, it_lead, manager, buyer, procurement, sealed
):
    url = f"/api/v1/procurements/{procurement.pk}/bids/"
    for user in (it_lead, manager):
        response = api_for(user).get(url, **EN)
        body, data = response.content.decode(), response.json()["results"]
        assert {b["vendor"]["id"] for b in data} == {None}
        assert [b["case_studies"] for b in data] == [[], []]
        assert ZEBRA not in body and "Quokka" not in body, body
        assert {b["vendor"]["name"] for b in data} == {"Vendor 1", "Vendor 2"}
    data = api_for(buyer).get(url).json()["results"]
    assert data[0]["vendor"]["name"] == ZEBRA and data[0]["case_studies"]
    assert ZEBRA in data[0]["proposal_text"]


def test_a_blind_managers_decision_select_names_no_vendor(
    client_for, manager, procurement, sealed
):
    status, html = _html(
        client_for(manager), reverse("vendors:comparison", args=[procurement.pk])
    )
    assert status == 200
    assert 'name="bid"' in html, "the manager should see the decision form"
    assert ZEBRA not in html and "Quokka" not in html
    assert ">Vendor 1<" in html.replace("</option>", "<")


def test_a_sealed_evaluator_sees_no_price_share_in_the_pitfalls(
    client_for, api_for, it_lead, buyer, procurement, sealed
):
    api_url = f"/api/v1/procurements/{procurement.pk}/comparison/"

    def reasons(user, **headers):
        entries = api_for(user).get(api_url, **headers).json()
        return [p["reason"] for entry in entries for p in entry["pitfalls"]]

    assert any("97% of the hardware cost" in r for r in reasons(buyer, **EN))
    assert any("占硬件成本的 97%" in r for r in reasons(buyer))
    assert not any("hardware cost" in r for r in reasons(it_lead, **EN))
    assert not any("硬件成本" in r for r in reasons(it_lead))
    for name in ("comparison", "bids"):
        url = reverse(f"vendors:{name}", args=[procurement.pk])
        status, html = _html(client_for(it_lead), url)
        assert status == 200 and "hardware cost" not in html
        assert "硬件成本" not in client_for(it_lead).get(url).content.decode()


@pytest.mark.parametrize("persona", ["it_lead", "manager"])
def test_attachments_are_sealed_for_a_blind_or_price_sealed_viewer(
    request, client_for, api_for, buyer, procurement, sealed, persona
):
    user = request.getfixturevalue(persona)
    bid = sealed["bids"][0]
    attachment = bid.attachments.first()
    download = reverse(
        "vendors:attachment-download", args=[procurement.pk, bid.pk, attachment.pk]
    )
    assert client_for(user).get(download).status_code == 403
    status, html = _html(
        client_for(user), reverse("vendors:bid-detail", args=[procurement.pk, bid.pk])
    )
    assert status == 200 and download not in html and "zebracorp_quote" not in html
    api = api_for(user)
    assert (
        api.get(
            f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/attachments/"
        ).status_code
        == 403
    )
    assert (
        api.get(f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/").json()[
            "attachments"
        ]
        == []
    )
    zh = client_for(user).get(
        reverse("vendors:bid-detail", args=[procurement.pk, bid.pk])
    )
    assert "1 个附件已封存" in zh.content.decode()
    # the buyer downloads it
    assert client_for(buyer).get(download).status_code == 200


def test_a_submitted_evaluator_on_a_sealed_only_procurement_downloads_attachments(
    client_for, it_lead, buyer, procurement, sealed
):
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=False
    )
    bid = sealed["bids"][0]
    download = reverse(
        "vendors:attachment-download",
        args=[procurement.pk, bid.pk, bid.attachments.first().pk],
    )
    assert client_for(it_lead).get(download).status_code == 403
    evaluation.submit_technical_scores(procurement=procurement, evaluator=it_lead)
    assert client_for(it_lead).get(download).status_code == 200


def test_a_blind_viewer_reads_free_text_with_vendor_names_redacted(
    client_for, api_for, it_lead, buyer, procurement, sealed
):
    zebra, quokka = sealed["bids"]
    for bid in (zebra, quokka):
        status, html = _html(
            client_for(it_lead),
            reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]),
        )
        assert status == 200
        assert ZEBRA not in html and "Quokka" not in html and "zebracorp" not in html
        assert "proposes:" in html and "built by" in html
    scores = api_for(it_lead).get(
        f"/api/v1/procurements/{procurement.pk}/bids/{quokka.pk}/scores/"
    )
    assert "Quokka" not in scores.content.decode()
    assert scores.json()[0]["note"].endswith("answered every question")
    decision = api_for(it_lead).get(f"/api/v1/procurements/{procurement.pk}/decision/")
    assert ZEBRA not in decision.content.decode()
    # the buyer reads the originals
    status, html = _html(
        client_for(buyer),
        reverse("vendors:bid-detail", args=[procurement.pk, zebra.pk]),
    )
    assert "Zebracorp proposes" in html and "zebracorp-lines.xlsx" in html


def test_scoring_closed_lifts_blind_grading_everywhere(
    client_for, api_for, it_lead, buyer, procurement, sealed
):
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, scoring_closed=True
    )
    zebra_vendor = sealed["vendors"][0]
    status, html = _html(
        client_for(it_lead), reverse("vendors:vendor-detail", args=[zebra_vendor.pk])
    )
    assert status == 200 and ZEBRA in html
    data = api_for(it_lead).get(f"/api/v1/procurements/{procurement.pk}/bids/").json()
    assert data["results"][0]["vendor"]["name"] == ZEBRA


@pytest.mark.parametrize(
    ("name", "fragments"),
    [
        ("Zebracorp", ["Zebracorp"]),
        ("Quokka Systems Ltd", ["Quokka Systems Ltd", "Quokka Systems", "Quokka"]),
        ("华为技术有限公司", ["华为技术有限公司", "华为技术", "华为"]),
        (
            "卡多多服务器 GPU Box Ltd",
            [
                "卡多多服务器 GPU Box Ltd",
                "卡多多服务器",
                "卡多多",
                "GPU Box Ltd",
                "GPU Box",
            ],
        ),
    ],
)
def test_a_vendor_is_named_by_its_name_its_halves_and_its_short_forms(name, fragments):
    assert visibility.name_fragments(name) == fragments


def test_redaction_replaces_every_form_of_a_bidders_name_and_nothing_else():
    shown = visibility.Visibility(
        blind=True,
        labels={},
        names=visibility.name_pattern(["Quokka Systems", "承诺科技 Promise Tech"]),
    )
    text = (
        "Quokka's team (QUOKKA SYSTEMS) sent quokka-proposal.pdf; 承诺科技 too. "
        "Recompute the totals; PromiseAI stays."
    )
    with translation.override("en"):
        redacted = shown.redact(text)
    assert redacted == (
        "[vendor]'s team ([vendor]) sent [vendor]-proposal.pdf; [vendor] too. "
        "Recompute the totals; PromiseAI stays."
    )
    assert visibility.Visibility(names=shown.names).redact(text) == text  # not blind
    assert shown.redact_tree({"a": [text, 3, None]})["a"][1:] == [3, None]
