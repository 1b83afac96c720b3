"""What an invited vendor is shown of the RFP in the portal: the procurement's name,
the deadline (with its time zone) and whether it may still submit, the buyer's
instructions, the plan's minimums and, when the buyer publishes them, the evaluation
weights. All of it is the RFP pack's own content (`vendors.rfp.content.rfp_content`):
the portal states exactly what the pack says, and the feedback quotes the same rows.
Nothing else of the buyer's: no other vendor, bid, price or plan detail."""

from __future__ import annotations

from ..models import Invitation, RfpSettings
from ..rfp.content import rfp_content
from .submissions import time_text, window_for, window_message

#: The pack's documents a vendor downloads here; the line-item workbook alone has its
#: own link (`vendors:line-item-template`).
PACK_FORMATS = ("pdf", "docx", "zip")


def _requirements(content: dict) -> list[dict]:
    return [
        {
            "code": m["code"],
            "label": m["label"],
            "shown": m["shown"],
            "basis": m["basis"],
        }
        for m in content["minimums"]
    ]


def _weights(content: dict) -> list[dict]:
    if not content["weights_published"]:
        return []
    return [
        {"code": c["code"], "title": c["title"], "weight_percent": c["weight_percent"]}
        for c in content["criteria"]
    ]


def rfp_summary(invitation: Invitation) -> dict:
    procurement = invitation.procurement
    rfp = RfpSettings.objects.filter(procurement=procurement).first()
    window = window_for(invitation, rfp=rfp)
    content = rfp_content(procurement)
    return {
        "procurement": procurement.name,
        "vendor": invitation.vendor.name,
        "deadline": window.deadline,
        "deadline_shown": content["deadline_shown"],
        "open_for_submissions": window.is_open,
        "window_code": window.code,
        "window_message": window_message(window),
        "questions_open": window.code not in ("late", "opened"),
        "instructions": content["instructions"] or "",
        "plan_message": content["plan_message"],
        "requirements": _requirements(content),
        "weights_published": content["weights_published"],
        "weights": _weights(content),
        "link_expires_at": invitation.expires_at,
        # with its zone, as the deadline; never "4:32 a.m.." before a full stop
        "link_expires_shown": time_text(invitation.expires_at),
    }
