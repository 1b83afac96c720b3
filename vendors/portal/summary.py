"""What an invited vendor is shown of the RFP in the portal: the procurement's name,
the deadline and whether it may still submit, the buyer's instructions and the plan's
minimums stated as requirements (the same `PlanNeeds` its feedback is judged on).
Nothing else of the buyer's: no other vendor, bid, price or plan detail."""

from __future__ import annotations

import importlib.util

from django.utils.translation import gettext as _

from clusterbuy.errors import figure

from .. import plan_facts
from ..comparison import checks
from ..comparison.labels import compliance_label
from ..models import Cooling, Invitation, RfpSettings
from .submissions import window_for, window_message

PACK_FORMATS = ("pdf", "docx", "zip")
_AT_LEAST = (
    ("vram_gb_per_gpu", "GB"),
    ("scaleup_domain_gpus", "GPU"),
    ("network_gbps_per_gpu", "Gb/s"),
    ("storage_tb", "TB"),
    ("storage_read_gbs", "GB/s"),
    ("storage_write_gbs", "GB/s"),
)


def pack_available() -> bool:
    """Whether the RFP pack builder (`vendors.rfp.pack`) is installed."""
    try:
        return importlib.util.find_spec("vendors.rfp.pack") is not None
    except ModuleNotFoundError:
        return False


def requirements(procurement) -> list[dict]:
    """{item, label, text} per plan minimum, in the active language; none without a
    sizing plan."""
    needs = checks.plan_needs(plan_facts.plan_summary(procurement=procurement))
    if needs is None:
        return []
    rows = [
        {
            "item": item,
            "label": compliance_label(item),
            "text": _("at least %(value)s %(unit)s")
            % {"value": figure(getattr(needs, item)), "unit": unit},
        }
        for item, unit in _AT_LEAST
        if getattr(needs, item)
    ]
    if needs.it_power_kw:
        rows.append(
            {
                "item": "it_power_kw",
                "label": compliance_label("it_power_kw"),
                "text": _("at most %(value)s kW")
                % {"value": figure(needs.it_power_kw)},
            }
        )
    rows.append(
        {
            "item": "cooling",
            "label": compliance_label("cooling"),
            "text": str(Cooling(needs.cooling).label),
        }
    )
    if needs.ecosystem:
        rows.append(
            {
                "item": "ecosystem",
                "label": compliance_label("ecosystem"),
                "text": needs.ecosystem,
            }
        )
    return rows


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
    }
