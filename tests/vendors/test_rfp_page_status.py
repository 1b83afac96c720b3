"""A buyer finds the RFP from the procurement (its tab) and reads where it stands:
invitations and the deadline, nothing of a submission before the opening, and after
the opening a way to the comparison."""

from __future__ import annotations

import html

from django.urls import reverse
from django.utils import timezone

from tests.vendors.rfp_support import LATE, ZEBRA_V2_TEXT, sealed_rfp
from vendors.models import RfpSettings, Submission
from vendors.portal import opening
from vendors.portal.invitations import revoke

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _status(client, procurement, **headers) -> str:
    page = client.get(reverse("vendors:rfp", args=[procurement.pk]), **(headers or EN))
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    start = text.index('id="rfp-status"')
    return text[start : text.index("</div>", start)]


def test_the_procurement_page_has_an_rfp_tab(client_for, procurement, buyer):
    page = client_for(buyer).get(
        reverse("procurement-detail", args=[procurement.pk]), **EN
    )
    rfp_url = reverse("vendors:rfp", args=[procurement.pk])
    assert f'<a href="{rfp_url}" class="">RFP</a>' in page.content.decode()


def test_before_the_deadline_counts_invitations_and_nothing_of_submissions(
    client_for, procurement, buyer
):
    made = sealed_rfp(procurement, deadline_passed=False)
    revoke(made["invitations"][LATE], buyer)
    client = client_for(buyer)
    status = _status(client, procurement)
    assert "2 vendors invited" in status and "1 invitation revoked" in status
    assert "Accepting submissions" in status
    shown = timezone.localtime(made["rfp"].deadline).strftime("%Y-%m-%d %H:%M CST")
    assert f"until {shown} (" in status
    assert "Compare the opened bids" not in status
    assert ZEBRA_V2_TEXT not in status
    # the same block whether or not anything was submitted
    Submission.objects.all().delete()
    assert _status(client, procurement) == status
    zh = _status(client, procurement, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "已邀请 2 家供应商" in zh and "正在接受投标" in zh


def test_after_the_deadline_and_after_the_opening(
    client_for, procurement, buyer, admin_user
):
    sealed_rfp(procurement)
    client = client_for(buyer)
    status = _status(client, procurement)
    assert "Deadline passed" in status and "an administrator opens" in status
    assert "Compare the opened bids" not in status
    opening.open_submissions(procurement, admin_user)
    status = _status(client, procurement)
    comparison = reverse("vendors:comparison", args=[procurement.pk])
    assert f'href="{comparison}"' in status
    assert "the submissions are bids now" in status


def test_without_a_deadline_the_page_says_so(client_for, procurement, buyer):
    RfpSettings.objects.create(procurement=procurement)
    status = _status(client_for(buyer), procurement)
    assert "0 vendors invited" in status
    assert "No submission deadline is set yet." in status
