"""The supplier portal's pages (no login: the signed link is the credential)."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_GET

from .tokens import PortalLinkError, invitation_for


@require_GET
def portal_home(request, token: str):
    try:
        invitation = invitation_for(token)
    except PortalLinkError:
        return HttpResponse(status=403)
    return HttpResponse(str(invitation.procurement))
