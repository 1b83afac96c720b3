"""The tender tests' world (no tests here): the 96 x H200 plan of the RFP tests
(Llama 3.1 70B, 500 B tokens in 65 days; sizing-2.2.0), a 40 M CNY budget and bids
priced with one-off lines only, so the quoted price is their sum."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.files.base import ContentFile

from tests.factories import pdf_bytes
from tests.vendors.test_delivered import h200_plan  # noqa: F401  (fixture)
from tests.vendors.test_support import line, make_bid, make_vendor
from vendors.models import BidAttachment
from vendors.services import declarations, tender

H200 = "h200-sxm-141gb"
H20 = "h20-sxm-96gb"
#: Dense BF16 from the catalog: 96 x 989 TFLOPS (H200 SXM) = 94.944 PFLOPS, the plan's
#: need, floored to 94.94 as the ★ item; 96 x 148 TFLOPS (H20) = 14.208 PFLOPS.
PLAN_PFLOPS = Decimal("94.94")
H20_PFLOPS = Decimal("14.208")
BUDGET_CNY = Decimal(40_000_000)


def priced_bid(
    procurement, org, name, quoted_cny, *, accelerator=H200, sme=False, **values
):
    """A 96-GPU bid whose quoted price is ``quoted_cny`` (one line); ``sme``: its
    中小企业声明函 attached (`attach_evidence`) and accepted by the buyer."""
    bid = make_bid(
        procurement,
        make_vendor(org, name),
        accelerator=accelerator,
        gpu_count=96,
        lines=[line("gpu_servers", 1, Decimal(quoted_cny))],
        **values,
    )
    if sme:
        attach_evidence(bid, "sme")
        declarations.set_bid_declarations(bid=bid, user=None, sme_declared=True)
    return bid


def attach_evidence(bid, purpose: str, name: str = "") -> BidAttachment:
    """A PDF attachment of ``bid`` with ``purpose`` (sme, domestic, ...)."""
    data = pdf_bytes()
    row = BidAttachment(
        bid=bid,
        original_name=name or f"{purpose}-evidence.pdf",
        kind="pdf",
        size_bytes=len(data),
        purpose=purpose,
    )
    row.file.save(row.original_name, ContentFile(data), save=False)
    row.save()
    return row


@pytest.fixture
def tender_world(h200_plan, procurement):  # noqa: F811
    procurement.budget_max = BUDGET_CNY
    procurement.save(update_fields=["budget_max"])
    return procurement


def set_regime(procurement, user, regime, **values):
    return tender.update_tender_settings(
        procurement=procurement, user=user, regime=regime, **values
    )
