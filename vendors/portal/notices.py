"""An RFP addendum as it reaches the invited vendors: one e-mail in Chinese and
English to every active invitation, a notice on its portal page, and the vendor's
acknowledgement, each recorded (`AddendumNotice`) and audited."""

from __future__ import annotations

import smtplib
from datetime import datetime
from urllib.parse import urljoin

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clusterbuy.services import ServiceError

from ..models import AddendumNotice, AuditAction, Invitation, RfpVersion
from ..services.audit import record_audit
from .submissions import time_text
from .tokens import make_token

EMAIL_LANGUAGES = ("zh-hans", "en")
SEPARATOR = "\n----------------------------------------\n\n"


def _text_in(language: str, invitation: Invitation, version: RfpVersion, link: str):
    with translation.override(language):
        values = {
            "n": version.number,
            "procurement": invitation.procurement.name,
            "vendor": invitation.vendor.name,
            "note": version.note,
            "deadline": time_text(version.deadline)
            if version.deadline
            else _("not set yet"),
            "link": link,
        }
        subject = _("Addendum %(n)s to the RFP: %(procurement)s") % values
        body = (
            _(
                "Dear %(vendor)s,\n\nThe buyer has issued addendum %(n)s to the "
                "request for proposal “%(procurement)s”:\n\n%(note)s\n\nSubmission "
                "deadline now: %(deadline)s\n\nRead what changed and acknowledge "
                "the addendum on your portal page:\n%(link)s\n\nA proposal you "
                "already sent answered the version before; send a new version if "
                "the change concerns it.\n"
            )
            % values
        )
    return subject, body


def _send(invitation: Invitation, version: RfpVersion, *, request_base_url: str):
    link = urljoin(
        request_base_url, reverse("vendors:portal", args=[make_token(invitation)])
    )
    texts = [_text_in(lang, invitation, version, link) for lang in EMAIL_LANGUAGES]
    subject = " / ".join(s for s, _b in texts)
    try:
        EmailMessage(
            subject=f"[ClusterBuy] {subject}"[:250],
            body=SEPARATOR.join(b for _s, b in texts),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[invitation.email],
        ).send()
    except (OSError, smtplib.SMTPException) as exc:
        # The addendum's transaction rolls back: no vendor half-told.
        raise ServiceError(
            _("The addendum could not be e-mailed; try again later."), field="note"
        ) from exc


def notify_addendum(
    version: RfpVersion, *, request_base_url: str, now: datetime
) -> int:
    """E-mail ``version`` to every active invitation and open its portal notice;
    the number of vendors told."""
    invitations = Invitation.objects.filter(
        procurement_id=version.procurement_id, revoked=False, expires_at__gt=now
    ).select_related("vendor", "procurement")
    told = []
    for invitation in invitations.order_by("id"):
        _send(invitation, version, request_base_url=request_base_url)
        AddendumNotice.objects.create(
            version=version, invitation=invitation, emailed_at=now
        )
        told.append(invitation.vendor.name)
    record_audit(
        procurement=version.procurement,
        actor=version.published_by,
        action=AuditAction.RFP,
        target=f"addendum {version.number} sent",
        old="",
        new={"vendors": told},
    )
    return len(told)


def notices_for(invitation: Invitation) -> list[AddendumNotice]:
    """The addenda sent to this invitation, newest first."""
    return list(
        AddendumNotice.objects.filter(invitation=invitation)
        .select_related("version")
        .order_by("-version__number")
    )


def unacknowledged(invitation: Invitation) -> int:
    return AddendumNotice.objects.filter(
        invitation=invitation, acknowledged_at__isnull=True
    ).count()


@transaction.atomic
def acknowledge_addendum(
    invitation: Invitation, *, number: int, now: datetime | None = None
) -> AddendumNotice:
    """The vendor confirms it has read addendum ``number`` (once; again is a no-op)."""
    notice = (
        AddendumNotice.objects.select_for_update()
        .filter(invitation=invitation, version__number=number)
        .select_related("version")
        .first()
    )
    if notice is None:
        raise ServiceError(_("No such addendum."), field="number")
    if notice.acknowledged_at is not None:
        return notice
    notice.acknowledged_at = now or timezone.now()
    notice.save(update_fields=["acknowledged_at"])
    record_audit(
        procurement=invitation.procurement,
        actor=None,
        action=AuditAction.RFP,
        target=f"addendum {number} acknowledged",
        old="",
        new={"vendor": invitation.vendor.name},
    )
    return notice
