"""The portal states the plan's minimums as the RFP pack does: the same rows, the same
rounding toward the strict side and the same names (a 5.399 TB storage floor was
"at least 5.399 TB" on the portal and "≥ 5.4 TB" in the PDF; the ecosystem was the
code "cuda")."""

from __future__ import annotations

import html

from django.urls import reverse
from django.utils import translation

from tests.vendors.portal_support import (  # noqa: F401
    catalog_fixture,
    invitation_fixture,
    rfp_fixture,
    token_fixture,
)
from vendors.portal.summary import rfp_summary
from vendors.rfp.content import rfp_content

pytest_plugins = ["tests.vendors.rfp_pack_support"]  # the rfp_plan fixture


def test_the_portal_states_the_minimums_of_the_rfp_pack(
    client, rfp_plan, procurement, invitation, token
):
    for language in ("en", "zh-hans"):
        with translation.override(language):
            pack = rfp_content(procurement)["minimums"]
            shown = rfp_summary(invitation)["requirements"]
        assert [(r["code"], r["label"], r["shown"]) for r in shown] == [
            (m["code"], m["label"], m["shown"]) for m in pack
        ]
    rows = {r["code"]: r["shown"] for r in shown}  # zh-hans, the last one
    # 96 x H200 SXM (tests/vendors/test_rfp_content.py): the pack's own figures
    assert rows["compute"] == "≥ 94.9 PFLOPS"
    assert rows["it_power_kw"] == "≤ 122.4 kW"
    assert rows["ecosystem"] == "CUDA"
    page = html.unescape(
        client.get(
            reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
    )
    assert "≥ 94.9 PFLOPS" in page
    assert "≥ 141 GB" in page
    assert "at least" not in page
    assert ">cuda<" not in page


def test_the_link_expiry_is_said_with_its_zone_and_one_full_stop(
    client, invitation, token
):
    from vendors.portal.submissions import time_text

    response = client.get(
        reverse("vendors:portal", args=[token]), HTTP_ACCEPT_LANGUAGE="en"
    )
    page = html.unescape(response.content.decode())
    with translation.override("en"):
        expires = time_text(invitation.expires_at)
    assert expires.endswith(")")  # "Jan. 11, 2027, 4:32 a.m. (CST)"
    assert f"This link works until {expires}. Keep it private" in page
    assert ".. Keep it private" not in page
