"""The tender's events on the procurement's overview: the RFP published and its
addenda, invitations, the vendors' acknowledgements, the opening and the decision,
read from the vendors' audit trail with what the viewer may not see masked (a blind
evaluator reads no vendor name: invitations and acknowledgements name vendors, so they
are left out for them, and every other line is redacted)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.registry import OverviewEvent

from ..models import AuditAction, AuditEntry
from ..visibility import visibility_for

TENDER_ACTIONS = (
    AuditAction.RFP,
    AuditAction.INVITATION,
    AuditAction.OPENING,
    AuditAction.DECISION,
)
NAMES_VENDORS = (AuditAction.INVITATION,)


def _label(entry: AuditEntry) -> str:
    target = entry.target
    if target == "version 1 published":
        return _("RFP version 1 published")
    if target.startswith("addendum "):
        number, _sep, rest = target.removeprefix("addendum ").partition(" ")
        if rest == "sent":
            return _("Addendum %(n)s e-mailed to the invited vendors") % {"n": number}
        if rest == "acknowledged":
            return _("Addendum %(n)s acknowledged by a vendor") % {"n": number}
        return _("Addendum %(n)s issued") % {"n": number}
    if entry.action == AuditAction.OPENING:
        return (
            _("Opening asked for")
            if target == "requested"
            else _("Sealed submissions opened")
        )
    if entry.action == AuditAction.DECISION:
        return _("Decision recorded")
    if entry.action == AuditAction.INVITATION:
        return {
            "invited": _("Vendor invited"),
            "reinvited": _("Vendor invited again"),
            "resent": _("Invitation sent again"),
            "revoked": _("Invitation revoked"),
        }.get(target, target)
    return _("RFP setting changed: %(what)s") % {"what": target}


def tender_events(procurement: Procurement, user) -> list[OverviewEvent]:
    visibility = visibility_for(procurement=procurement, user=user)
    entries = AuditEntry.objects.filter(
        procurement=procurement, action__in=TENDER_ACTIONS
    ).select_related("actor")[:100]
    events = []
    for entry in entries:
        acknowledgement = entry.target.endswith(" acknowledged")
        if visibility.blind and (entry.action in NAMES_VENDORS or acknowledgement):
            continue
        text = _label(entry)
        if entry.action == AuditAction.INVITATION:
            text = f"{text} — {entry.new_value or entry.old_value}"
        events.append(
            OverviewEvent(
                at=entry.created_at,
                actor=entry.actor.get_username()
                if entry.actor
                else _("vendor")
                if acknowledgement
                else "—",
                text=visibility.redact(text) if visibility.blind else text,
            )
        )
    return events
