"""The published RFP as the buyer's page and API show it: the versions with their
changes, acknowledgements and frozen pack files, and how the live plan differs from
what vendors were sent."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement

from ..models import AddendumNotice
from .changes import shown_changes
from .frozen import pack_files_of
from .publication import AddendumResult, live_changes, version_changes
from .versions import stale_vendors, versions_of


def version_rows(procurement: Procurement) -> list[dict]:
    notices = {}
    for n in AddendumNotice.objects.filter(
        version__procurement=procurement
    ).select_related("invitation__vendor"):
        notices.setdefault(n.version_id, []).append(n)
    return [
        {
            "number": v.number,
            "kind": v.kind,
            "kind_label": v.get_kind_display(),
            "published_at": v.published_at,
            "published_by": v.published_by.get_username() if v.published_by else "",
            "note": v.note,
            "deadline": v.deadline,
            "requested_deadline": v.requested_deadline,
            "two_person_opening": v.two_person_opening,
            "changes": shown_changes(version_changes(v)),
            "notices": [
                {
                    "vendor": n.invitation.vendor.name,
                    "emailed_at": n.emailed_at,
                    "acknowledged_at": n.acknowledged_at,
                }
                for n in notices.get(v.pk, [])
            ],
            "pack_files": [
                {
                    "language": f.language,
                    "fmt": f.fmt,
                    "name": f.name,
                    "sha256": f.sha256,
                }
                for f in pack_files_of(v)
            ],
        }
        for v in versions_of(procurement)
    ]


def published_context(procurement: Procurement) -> dict:
    rows = version_rows(procurement)
    return {
        "versions": rows,
        "published": rows[-1] if rows else None,
        "live_changes": shown_changes(live_changes(procurement)) if rows else [],
        "stale_vendors": stale_vendors(procurement),
    }


def addendum_message(result: AddendumResult) -> str:
    values = {"n": result.version.number, "vendors": result.notified}
    text = _("Addendum %(n)s issued to %(vendors)s invited vendors.") % values
    if result.deadline_moved:
        text += " " + _("The deadline moved to %(when)s (the notice period).") % {
            "when": formats.date_format(
                timezone.localtime(result.version.deadline), "DATETIME_FORMAT"
            )
        }
    return text
