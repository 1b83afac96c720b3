"""Signed, expiring, single-procurement portal links.

A token is ``django.core.signing`` over (invitation id, procurement id, nonce) with a
salt of its own, so it cannot be forged without SECRET_KEY, cannot be replayed on
another procurement, stops working when the invitation is revoked (its nonce rotates)
and when ``Invitation.expires_at`` has passed. `invitation_for` is the one check every
portal page and portal API call goes through.

The signature carries no timestamp (the expiry is the invitation's, not the token's), so
the same invitation always gets the same link: a resent mail repeats the first one's.
Links signed with a timestamp (``signing.dumps``, before 2026-12-04) are still read.
"""

from __future__ import annotations

from django.core import signing
from django.utils import timezone

from ..models import Invitation

SALT = "clusterbuy.portal.invitation"


class PortalLinkError(Exception):
    """The link is not (or no longer) valid; ``code`` says why."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code  # "invalid", "expired" or "revoked"


def make_token(invitation: Invitation) -> str:
    payload = {
        "i": invitation.pk,
        "p": invitation.procurement_id,
        "n": invitation.nonce,
    }
    return signing.Signer(salt=SALT).sign_object(payload)


def _payload(token: str):
    """The signed payload: an untimed signature, else a link mailed with a timed one."""
    try:
        return signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):  # a timed link: "value:time:signature"
        return signing.loads(token, salt=SALT)


def invitation_for(token: str, *, now=None) -> Invitation:
    """The invitation a portal token stands for, or PortalLinkError."""
    try:
        payload = _payload(token)
    except (signing.BadSignature, ValueError) as error:
        raise PortalLinkError("invalid") from error
    if not isinstance(payload, dict):
        raise PortalLinkError("invalid")
    invitation = (
        Invitation.objects.select_related("procurement", "vendor")
        .filter(pk=payload.get("i"), procurement_id=payload.get("p"))
        .first()
    )
    if invitation is None or invitation.nonce != payload.get("n"):
        raise PortalLinkError("invalid")
    if invitation.revoked:
        raise PortalLinkError("revoked")
    if invitation.expires_at <= (now or timezone.now()):
        raise PortalLinkError("expired")
    return invitation
