"""Signed, expiring, single-procurement portal links.

A token is ``django.core.signing`` over (invitation id, procurement id, nonce) with a
salt of its own, so it cannot be forged without SECRET_KEY, cannot be replayed on
another procurement, stops working when the invitation is revoked (its nonce rotates)
and when ``Invitation.expires_at`` has passed. `invitation_for` is the one check every
portal page and portal API call goes through.
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
    return signing.dumps(payload, salt=SALT, compress=False)


def invitation_for(token: str, *, now=None) -> Invitation:
    """The invitation a portal token stands for, or PortalLinkError."""
    try:
        payload = signing.loads(token, salt=SALT)
    except signing.BadSignature as error:
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
