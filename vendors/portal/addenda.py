"""The addenda a vendor reads on its portal page and in the portal API."""

from __future__ import annotations

from ..rfp.changes import shown_changes
from ..rfp.publication import version_changes
from .notices import notices_for


def addendum_rows(invitation) -> list[dict]:
    """The addenda sent to ``invitation``, newest first, with their changes in the
    active language."""
    return [
        {
            "number": n.version.number,
            "published_at": n.version.published_at,
            "note": n.version.note,
            "deadline": n.version.deadline,
            "deadline_moved": n.version.requested_deadline is not None,
            "changes": shown_changes(version_changes(n.version)),
            "acknowledged_at": n.acknowledged_at,
        }
        for n in notices_for(invitation)
    ]
