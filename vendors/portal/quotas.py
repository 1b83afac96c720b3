"""What the portal may store and how much work it may queue, per link, per vendor and
per procurement (settings ``PORTAL_STORAGE_MAX_BYTES_*`` and
``PORTAL_CHECKS_PENDING_*``, documented in ``.env.example``).

Stored bytes count every workbook a version added (``Submission.workbook_bytes``) and
every evidence file, removed ones included: a removed file is kept (it is withdrawn,
not deleted), so it still occupies the disk. Both checks run under the invitation's
row lock (`submissions._lock`), so two uploads of one link cannot both pass.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Sum
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from ..models import Invitation, Submission, SubmissionEvidence


def stored_bytes(**invitation_filter) -> int:
    """Bytes the portal stores for the invitations matching ``invitation_filter``."""
    workbooks = Submission.objects.filter(
        **{f"invitation__{k}": v for k, v in invitation_filter.items()}
    ).aggregate(n=Sum("workbook_bytes"))["n"]
    evidence = SubmissionEvidence.objects.filter(
        **{f"invitation__{k}": v for k, v in invitation_filter.items()}
    ).aggregate(n=Sum("size_bytes"))["n"]
    return int(workbooks or 0) + int(evidence or 0)


def storage_refusal(invitation: Invitation, *, adding_bytes: int) -> str | None:
    """Why ``adding_bytes`` more cannot be stored for ``invitation``, or None."""
    scopes = (
        (
            {"pk": invitation.pk},
            settings.PORTAL_STORAGE_MAX_BYTES_PER_LINK,
            _(
                "This invitation's storage is full: %(used)s of %(limit)s "
                "used, and this file needs %(size)s. Remove evidence you no "
                "longer need, or ask the buyer."
            ),
        ),
        (
            {"vendor_id": invitation.vendor_id},
            settings.PORTAL_STORAGE_MAX_BYTES_PER_VENDOR,
            _(
                "Your company's storage on this portal is full: %(used)s of "
                "%(limit)s used, and this file needs %(size)s. Ask the buyer."
            ),
        ),
        (
            {"procurement_id": invitation.procurement_id},
            settings.PORTAL_STORAGE_MAX_BYTES_PER_PROCUREMENT,
            _(
                "This RFP's storage is full: %(used)s of %(limit)s used, and "
                "this file needs %(size)s. Ask the buyer."
            ),
        ),
    )
    for scope, limit, message in scopes:
        used = stored_bytes(**scope)
        if used + adding_bytes > limit:
            return message % {
                "used": filesizeformat(used),
                "limit": filesizeformat(limit),
                "size": filesizeformat(adding_bytes),
            }
    return None


def pending_refusal(invitation: Invitation) -> str | None:
    """Why another version cannot be queued for its check now, or None."""
    checking = Submission.objects.filter(status=Submission.Status.CHECKING)
    if (
        checking.filter(invitation=invitation).count()
        >= settings.PORTAL_CHECKS_PENDING_PER_LINK
    ):
        return _(
            "Your previous versions are still being checked: submit again once "
            "their feedback is shown."
        )
    if (
        checking.filter(invitation__procurement_id=invitation.procurement_id).count()
        >= settings.PORTAL_CHECKS_PENDING_PER_PROCUREMENT
    ):
        return _("Many submissions are being checked right now: try again in a minute.")
    return None
