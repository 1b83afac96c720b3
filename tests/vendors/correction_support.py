"""An opened RFP (two vendors' sealed submissions turned into bids by the opening)
for the tests of immutable opened bids and their corrections (no tests here)."""

from __future__ import annotations

import pytest

from tests.vendors.rfp_support import QUOKKA, ZEBRA, sealed_rfp
from vendors.models import Bid
from vendors.portal import opening
from vendors.portal.tokens import make_token


@pytest.fixture
def opened(procurement, admin_user):
    """Zebracorp's and Quokka's bids, opened; their invitations and portal links."""
    sealed = sealed_rfp(procurement)
    opening.open_submissions(procurement, admin_user)
    invitations = sealed["invitations"]
    zebra = Bid.objects.get(vendor__name=ZEBRA)
    quokka = Bid.objects.get(vendor__name=QUOKKA)
    return {
        "zebra": zebra,
        "quokka": quokka,
        "zebra_invitation": invitations[ZEBRA],
        "quokka_invitation": invitations[QUOKKA],
        "zebra_token": make_token(invitations[ZEBRA]),
        "quokka_token": make_token(invitations[QUOKKA]),
    }


def gpu_line(bid):
    return bid.line_items.get(category="gpu_servers")
