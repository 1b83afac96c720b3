"""Hidden-cost check: the cost categories a complete GPU-cluster purchase needs.

Bids that quote only GPU servers are the most common way a TCO comes out too low; each
category below is listed with its amount over the horizon (nominal) and a warning when
it is zero, so the buyer either adds it or confirms it is really not needed.
"""

from __future__ import annotations

from .cashflow import compute
from .inputs import TcoInputs

_MESSAGES = {
    "installation": (
        "Installation and commissioning",
        "No installation cost: racking, cabling, burn-in and acceptance tests are "
        "rarely free; ask the vendor or add a line.",
    ),
    "software_licences": (
        "Software licences",
        "No software cost: check scheduler, OS, NVIDIA AI Enterprise (4,500 USD per "
        "GPU per year) or storage licences.",
    ),
    "support_after_warranty": (
        "Support after warranty",
        "No support cost within the horizon: either the support rate is 0 or the "
        "warranty covers the whole horizon; confirm the warranty includes on-site "
        "parts and labour.",
    ),
    "network": (
        "Network (fabric, switches, cables, NICs)",
        "No network capex: a multi-node cluster needs switches, cables or optics "
        "for every NIC port (counted from the plan's fat tree and priced per port "
        "and link in the price book); add them.",
    ),
    "storage": (
        "Storage",
        "No storage capex: training needs shared high-throughput storage for data "
        "and checkpoints.",
    ),
    "facility": (
        "Power and cooling (facility)",
        "No facility capex: power distribution, UPS and cooling for the racks are "
        "needed unless colocation covers them.",
    ),
    "staff": (
        "Operations staff",
        "No staff cost: someone has to run, patch and repair the cluster.",
    ),
}


def hidden_cost_check(inputs: TcoInputs) -> list[dict]:
    """``[{category, label, amount, status: ok|warning, message}]`` in a fixed order."""
    result = compute(inputs)
    totals = result.totals_by_category
    amounts = {
        "installation": totals["installation"],
        "software_licences": totals["software_once"] + totals["software"],
        "support_after_warranty": totals["support"],
        "network": totals["network"],
        "storage": totals["storage"],
        "facility": totals["facility"],
        "staff": totals["staff"],
    }
    rows = []
    for category, amount in amounts.items():
        label, warning = _MESSAGES[category]
        if category == "facility" and amount == 0 and totals["colocation"] > 0:
            status, message = "ok", "Colocation fee covers power and cooling."
        elif amount > 0:
            status, message = "ok", ""
        else:
            status, message = "warning", warning
        rows.append(
            {
                "category": category,
                "label": label,
                "amount": round(amount, 2),
                "status": status,
                "message": message,
            }
        )
    return rows
