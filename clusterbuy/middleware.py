"""A Content-Security-Policy header for every response.

Everything is served from our own origin (no CDN); inline styles are allowed for the
SVG charts, which carry style attributes. Swagger UI needs inline scripts of its own.
"""

from django.conf import settings

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
