"""Checks and headers that apply to every request.

A Content-Security-Policy header for every response: everything is served from our
own origin (no CDN); inline styles are allowed for the SVG charts, which carry style
attributes. Swagger UI needs inline scripts of its own.
"""

import re

from django.conf import settings
from django.http import Http404

POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; font-src 'self' data:; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
DOCS_POLICY = POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path.startswith("/api/v1/docs") or request.path.startswith(
                settings.STATIC_URL + "drf_spectacular_sidecar"
            )
            response["Content-Security-Policy"] = DOCS_POLICY if docs else POLICY
        return response


_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


class ControlCharacterPathMiddleware:
    """404 for a path holding a control character (``%00``, ``%0a``...).

    No route of ours has one, but a ``str`` converter accepts it and a view may echo
    it, e.g. into a Content-Disposition file name, which gunicorn refuses to send (a
    500). Refusing such paths here keeps every present and future view safe.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _CONTROL_CHARACTERS.search(request.path):
            raise Http404("control character in path")
        return self.get_response(request)
