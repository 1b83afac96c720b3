"""Inviting vendors to a procurement's RFP: the invitation, its signed link by e-mail,
resending it and revoking it. Every change lands in the audit trail.

One invitation per vendor and procurement: inviting a vendor again updates its
address (and expiry) and sends the link again; a revoked invitation re-invited gets a
new nonce, so the links sent before the revocation stay dead.
"""

from __future__ import annotations

import smtplib
from datetime import datetime, timedelta
from urllib.parse import urljoin

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clusterbuy.access import Capability, require
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError
from clusterbuy.text import one_line, printable

from ..models import AuditAction, Bid, Invitation, RfpSettings, Vendor
from ..models.rfp import new_nonce
from ..rfp.publication import publish_first_version
from ..services.audit import record_audit
from ..services.suppliers import create_vendor
from .submissions import time_text
from .tokens import make_token

EXPIRY_AFTER_DEADLINE = timedelta(days=30)
EXPIRY_WITHOUT_DEADLINE = timedelta(days=60)
EMAIL_LANGUAGES = ("zh-hans", "en")


def _rfp_settings(procurement: Procurement) -> RfpSettings:
    row, _created = RfpSettings.objects.get_or_create(procurement=procurement)
    return row


def default_expiry(rfp: RfpSettings, *, now: datetime | None = None) -> datetime:
    """Vendors may read the RFP and their answer for a while after the deadline."""
    if rfp.deadline is not None:
        return rfp.deadline + EXPIRY_AFTER_DEADLINE
    return (now or timezone.now()) + EXPIRY_WITHOUT_DEADLINE


def _check_email(email: str) -> str:
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ServiceError(_("Enter a valid e-mail address."), field="email") from exc
    return email


def _vendor_for(procurement, *, vendor, vendor_name) -> Vendor:
    if vendor is not None:
        if vendor.organisation_id != procurement.organisation_id:
            raise ServiceError(_("No such vendor."), field="vendor")
        return vendor
    name = (vendor_name or "").strip()
    if not name:
        raise ServiceError(
            _("Choose a vendor or type the name of a new one."), field="vendor"
        )
    existing = Vendor.objects.filter(
        organisation=procurement.organisation, name__iexact=name
    ).first()
    return existing or create_vendor(organisation=procurement.organisation, name=name)


def _check_open_for_invitations(rfp: RfpSettings) -> None:
    if rfp.is_open:
        raise ServiceError(
            _("The submissions are already open: no more invitations."),
            field="vendor",
        )


@transaction.atomic
def invite(
    procurement: Procurement,
    user,
    *,
    vendor: Vendor | None = None,
    vendor_name: str | None = None,
    email: str,
    expires_at: datetime | None = None,
    request_base_url: str,
    now: datetime | None = None,
) -> Invitation:
    """Invite ``vendor`` (or a new vendor called ``vendor_name``) and e-mail the link."""
    require(user, Capability.EDIT_VENDORS)
    now = now or timezone.now()
    rfp = _rfp_settings(procurement)
    _check_open_for_invitations(rfp)
    email = _check_email(email)
    if expires_at is not None and expires_at <= now:
        raise ServiceError(_("The expiry must be in the future."), field="expires_at")
    vendor = _vendor_for(procurement, vendor=vendor, vendor_name=vendor_name)
    if Bid.objects.filter(procurement=procurement, vendor=vendor).exists():
        raise ServiceError(
            _("This vendor already has a bid on this procurement."), field="vendor"
        )
    invitation = (
        Invitation.objects.select_for_update()
        .filter(procurement=procurement, vendor=vendor)
        .first()
    )
    if invitation is None:
        invitation = Invitation(procurement=procurement, vendor=vendor, created_by=user)
        target = "invited"
    else:
        target = "reinvited"
        if invitation.revoked:
            invitation.nonce = new_nonce()  # the links of before stay dead
    old = "" if invitation.pk is None else _describe(invitation)
    invitation.email = email
    invitation.revoked = False
    invitation.expires_at = expires_at or default_expiry(rfp, now=now)
    invitation.save()
    # The first invitation publishes version 1: from now on vendors read the frozen
    # RFP, and it changes only through an addendum.
    publish_first_version(procurement, user, now=now)
    rfp.refresh_from_db()
    _send(invitation, rfp, request_base_url=request_base_url, now=now)
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.INVITATION,
        target=target,
        old=old,
        new=_describe(invitation),
    )
    return invitation


@transaction.atomic
def resend(
    invitation: Invitation, user, *, request_base_url: str, now=None
) -> Invitation:
    """Send the (unchanged) link again, say to a corrected or lost mailbox."""
    require(user, Capability.EDIT_VENDORS)
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.revoked:
        raise ServiceError(
            _("This invitation is revoked: invite the vendor again."), field="vendor"
        )
    now = now or timezone.now()
    if invitation.expires_at <= now:
        raise ServiceError(
            _(
                "This invitation has expired: invite the vendor again with a new expiry."
            ),
            field="expires_at",
        )
    rfp = _rfp_settings(invitation.procurement)
    _check_open_for_invitations(rfp)
    _send(invitation, rfp, request_base_url=request_base_url, now=now)
    record_audit(
        procurement=invitation.procurement,
        actor=user,
        action=AuditAction.INVITATION,
        target="resent",
        old="",
        new=_describe(invitation),
    )
    return invitation


@transaction.atomic
def revoke(invitation: Invitation, user) -> Invitation:
    """Stop the invitation's links at once (what was submitted stays, sealed)."""
    require(user, Capability.EDIT_VENDORS)
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.revoked:
        return invitation
    invitation.revoked = True
    invitation.save(update_fields=["revoked"])
    record_audit(
        procurement=invitation.procurement,
        actor=user,
        action=AuditAction.INVITATION,
        target="revoked",
        old=_describe(invitation),
        new="",
    )
    return invitation


def _describe(invitation: Invitation) -> str:
    return f"{invitation.vendor.name} <{invitation.email}>"


def portal_link(invitation: Invitation, *, request_base_url: str) -> str:
    """The absolute portal address of the invitation's current link."""
    path = reverse("vendors:portal", args=[make_token(invitation)])
    return urljoin(request_base_url, path)


def _text_in(language: str, invitation: Invitation, rfp, link: str) -> tuple[str, str]:
    """(subject, body) of the invitation in one language."""
    procurement = invitation.procurement
    with translation.override(language):
        values = {
            "organisation": procurement.organisation.name,
            "procurement": procurement.name,
            "vendor": invitation.vendor.name,
            # with the zone, as the portal says them (and no "a.m.." before a stop)
            "deadline": time_text(rfp.deadline)
            if rfp.deadline
            else pgettext("rfp opening", "not set yet"),
            "expires": time_text(invitation.expires_at),
            "link": link,
        }
        subject = _("Request for proposal: %(procurement)s") % values
        body = (
            _(
                "Dear %(vendor)s,\n\n%(organisation)s invites you to answer its "
                "request for proposal “%(procurement)s”.\n\nOpen the RFP, ask "
                "questions and submit your proposal here (no account needed):\n"
                "%(link)s\n\nSubmission deadline: %(deadline)s\nThe link is "
                "personal and works until %(expires)s. Submissions stay sealed "
                "until the buyer opens them after the deadline.\n"
            )
            % values
        )
    return subject, body


def _send(invitation: Invitation, rfp, *, request_base_url: str, now) -> None:
    link = portal_link(invitation, request_base_url=request_base_url)
    texts = [_text_in(lang, invitation, rfp, link) for lang in EMAIL_LANGUAGES]
    # one line: a CR or LF in a stored name is a header injection (BadHeaderError)
    subject = one_line(" / ".join(subject for subject, _body in texts))
    body = printable(
        "\n----------------------------------------\n\n".join(b for _s, b in texts)
    )
    try:
        EmailMessage(
            subject=f"[ClusterBuy] {subject}"[:250],
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[invitation.email],
        ).send()
    except (OSError, smtplib.SMTPException) as exc:
        # Nothing is saved: the transaction around the use case rolls back.
        raise ServiceError(
            _("The e-mail could not be sent; try again later."), field="email"
        ) from exc
    invitation.last_sent_at = now
    invitation.save(update_fields=["last_sent_at"])
