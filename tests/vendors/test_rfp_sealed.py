"""Sealed until opening: before an administrator opens the RFP, no buyer role sees
anything of a submission, on any surface: pages, API, exports, the comparison (page
and JSON), counts, the Django admin."""

from __future__ import annotations

import io
import re

import openpyxl
import pytest
from django.urls import reverse

from tests.vendors.rfp_support import SEALED_MARKERS, sealed_rfp, shown_times
from vendors.models import Bid
from vendors.portal import opening

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ROLES = ("admin_user", "buyer", "manager", "it_lead", "viewer")


@pytest.fixture
def sealed(procurement):
    return sealed_rfp(procurement)


@pytest.fixture
def everyone(request):
    return [request.getfixturevalue(name) for name in ROLES]


def _assert_sealed(text: str, made: dict, where: str) -> None:
    for marker in SEALED_MARKERS:
        assert marker not in text, f"{marker} leaks on {where}"
    for at in made["times"]:
        for shown in shown_times(at):
            assert shown not in text, f"submission time {shown} leaks on {where}"


def test_no_page_shows_anything_of_a_sealed_submission(
    client_for, procurement, sealed, everyone
):
    pages = [
        reverse("vendors:rfp-invitations", args=[procurement.pk]),
        reverse("procurement-detail", args=[procurement.pk]),
        reverse("vendors:bids", args=[procurement.pk]),
        reverse("vendors:comparison", args=[procurement.pk]),
        reverse("procurement-list"),
        reverse("vendors:vendor-list"),
        reverse(
            "vendors:vendor-detail", args=[sealed["invitations"]["Zebracorp"].vendor_id]
        ),
    ]
    for user in everyone:
        client = client_for(user)
        for url in pages:
            response = client.get(url, **EN)
            assert response.status_code == 200, (url, user)
            html = response.content.decode()
            _assert_sealed(html, sealed, f"{url} for {user.username}")
        html = client.get(pages[0], **EN).content.decode()
        assert not re.search(r"(?i)\bversion\b|\bsubmitted\b", html), user
        bids_html = client.get(pages[2], **EN).content.decode()
        assert "No bids yet." in bids_html
        assert "0 vendors with a bid" in bids_html


def test_the_invitations_page_lists_invitations_only(
    client_for, procurement, sealed, buyer
):
    html = (
        client_for(buyer)
        .get(reverse("vendors:rfp-invitations", args=[procurement.pk]), **EN)
        .content.decode()
    )
    # the three invitations look alike: the one without a submission is not told apart
    for email in (
        "bids@zebracorp.example",
        "bids@quokka.example",
        "bids@latecomer.example",
    ):
        assert email in html
    assert "no submission" not in html and "latest" not in html
    assert not re.search(r"/bids/\d+/", html)


def test_no_api_or_export_shows_anything_of_a_sealed_submission(
    api_for, client_for, procurement, sealed, everyone
):
    base = f"/api/v1/procurements/{procurement.pk}"
    for user in everyone:
        api = api_for(user)
        bids = api.get(f"{base}/bids/")
        assert bids.status_code == 200 and bids.json()["count"] == 0
        comparison = api.get(f"{base}/comparison/")
        assert comparison.status_code == 200 and comparison.json() == []
        sealed_list = api.get(f"{base}/rfp/submissions/", **EN)
        assert sealed_list.status_code == 409
        assert sealed_list.json() == {
            "detail": "The submissions are sealed until the opening."
        }
        zh = api.get(f"{base}/rfp/submissions/")
        assert zh.json() == {"detail": "开标前提交内容保持密封。"}
        for response in (bids, comparison, sealed_list):
            _assert_sealed(response.content.decode(), sealed, f"API for {user}")
        export = client_for(user).get(
            reverse("vendors:comparison-export", args=[procurement.pk, "xlsx"]), **EN
        )
        assert export.status_code == 200
        workbook = openpyxl.load_workbook(io.BytesIO(export.content))
        cells = " ".join(
            str(cell)
            for sheet in workbook.worksheets
            for row in sheet.iter_rows(values_only=True)
            for cell in row
            if cell is not None
        )
        _assert_sealed(cells, sealed, f"xlsx export for {user}")
        for name in ("Zebracorp", "Quokka"):
            assert name not in cells
    invitations = api_for(everyone[1]).get(f"{base}/rfp/invitations/")
    assert invitations.status_code == 200
    assert set(invitations.json()[0]) == {
        "id",
        "vendor",
        "email",
        "expires_at",
        "revoked",
        "created_at",
        "last_sent_at",
    }
    _assert_sealed(invitations.content.decode(), sealed, "invitations API")


def test_the_django_admin_does_not_offer_submissions(client_for, admin_user, sealed):
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.save()
    client = client_for(admin_user)
    index = client.get("/admin/", **EN).content.decode()
    assert "/admin/vendors/bid/" in index  # the admin works, bids are there
    assert "/admin/vendors/submission/" not in index
    assert "/admin/vendors/submissionevidence/" not in index
    assert client.get("/admin/vendors/submission/").status_code == 404
    assert client.get("/admin/vendors/submissionevidence/").status_code == 404
    for version in sealed["versions"]:
        url = f"/admin/vendors/submission/{version.pk}/change/"
        assert client.get(url).status_code == 404


def test_after_opening_the_bids_appear_everywhere(
    api_for, client_for, procurement, sealed, admin_user, buyer
):
    opening.open_submissions(procurement, admin_user)
    assert Bid.objects.filter(procurement=procurement).count() == 2
    base = f"/api/v1/procurements/{procurement.pk}"
    assert api_for(buyer).get(f"{base}/bids/").json()["count"] == 2
    html = (
        client_for(buyer)
        .get(reverse("vendors:bids", args=[procurement.pk]), **EN)
        .content.decode()
    )
    assert "Zebracorp" in html and "Quokka Systems" in html
    assert "2 vendors with a bid" in html
