"""What an invited vendor is shown of the RFP in the portal: the procurement's name,
the deadline and whether it may still submit, the buyer's instructions and the plan's
minimums stated as requirements (the RFP pack's own rows, `vendors.rfp.content`).
Nothing else of the buyer's: no other vendor, bid, price or plan detail."""

from __future__ import annotations

import importlib.util

from ..models import Invitation, RfpSettings
from ..rfp.content import rfp_content
from .submissions import time_text, window_for, window_message

PACK_FORMATS = ("pdf", "docx", "zip")


def pack_available() -> bool:
    """Whether the RFP pack builder (`vendors.rfp.pack`) is installed."""
    try:
        return importlib.util.find_spec("vendors.rfp.pack") is not None
    except ModuleNotFoundError:
        return False


def requirements(procurement) -> list[dict]:
    """{item, label, text} per plan minimum, in the active language, as the RFP pack
    states them (`vendors.rfp.content`: the same rounding toward the strict side and
    the same names, so the portal and the PDF never disagree); none without a sizing
    plan."""
    return [
        {"item": row["code"], "label": row["label"], "text": row["shown"]}
        for row in rfp_content(procurement)["minimums"]
    ]


def rfp_summary(invitation: Invitation) -> dict:
    procurement = invitation.procurement
    rfp = RfpSettings.objects.filter(procurement=procurement).first()
    window = window_for(invitation, rfp=rfp)
    return {
        "procurement": procurement.name,
        "vendor": invitation.vendor.name,
        "deadline": window.deadline,
        "open_for_submissions": window.is_open,
        "window_code": window.code,
        "window_message": window_message(window),
        "questions_open": window.code not in ("late", "opened"),
        "instructions": getattr(rfp, "instructions", "") or "",
        "requirements": requirements(procurement),
        "link_expires_at": invitation.expires_at,
        # with its zone, as the deadline; never "4:32 a.m.." before a full stop
        "link_expires_shown": time_text(invitation.expires_at),
    }
