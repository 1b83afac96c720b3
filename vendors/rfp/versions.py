"""Reads of the published RFP versions (`RfpVersion`): the latest one, its frozen
facts decoded, and which vendors answered an older version. The writers are
`vendors.rfp.publication` (publish, addendum) and `vendors.portal.addenda`
(acknowledgement)."""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal

from django.utils.dateparse import parse_datetime

from clusterbuy.models import Procurement
from sizing.services import PlanSummary

from ..models import RfpSettings, RfpVersion, Submission


def latest_version(procurement: Procurement) -> RfpVersion | None:
    return (
        RfpVersion.objects.filter(procurement=procurement).order_by("-number").first()
    )


def current_number(procurement: Procurement) -> int | None:
    """The number of the version vendors answer now (None before publication)."""
    row = latest_version(procurement)
    return row.number if row is not None else None


def versions_of(procurement: Procurement) -> list[RfpVersion]:
    return list(
        RfpVersion.objects.filter(procurement=procurement)
        .select_related("published_by")
        .order_by("number")
    )


def _plain(value):
    if isinstance(value, PlanSummary):
        return value.as_dict()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not stored in an RFP version")


def encode_facts(facts: dict) -> dict:
    """``facts`` (`facts.live_rfp_facts`) as JSON values: Decimal as float (the pack
    shows them rounded), datetimes in ISO 8601 with their zone."""
    return json.loads(json.dumps(facts, default=_plain))


def version_facts(version: RfpVersion) -> dict:
    """The frozen facts of ``version`` with the deadline a datetime again."""
    facts = json.loads(json.dumps(version.facts))  # a copy the caller may change
    deadline = facts["settings"].get("deadline")
    facts["settings"]["deadline"] = parse_datetime(deadline) if deadline else None
    if isinstance(facts.get("plan"), dict):
        facts["plan"] = PlanSummary.from_dict(facts["plan"])
    return facts


def stale_vendors(procurement: Procurement) -> list[dict]:
    """Vendors whose opened bid answered an RFP version older than the latest: they
    did not resubmit after an addendum. [{vendor, bid_id, answered, latest}]."""
    latest = current_number(procurement)
    if latest is None or latest == 1:
        return []
    deadline = (
        RfpSettings.objects.filter(procurement=procurement)
        .values_list("deadline", flat=True)
        .first()
    )
    rows = Submission.objects.filter(
        invitation__procurement=procurement, bid__isnull=False
    )
    if deadline is not None:  # the version opened: the latest before the deadline
        rows = rows.filter(submitted_at__lte=deadline)
    rows = rows.select_related("invitation__vendor").order_by(
        "invitation_id", "-version"
    )
    seen, stale = set(), []
    for row in rows:
        if row.invitation_id in seen:
            continue
        seen.add(row.invitation_id)
        answered = row.rfp_version or 1
        if answered < latest:
            stale.append(
                {
                    "vendor": row.invitation.vendor.name,
                    "bid_id": row.bid_id,
                    "answered": answered,
                    "latest": latest,
                }
            )
    return stale
