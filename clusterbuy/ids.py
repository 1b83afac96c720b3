"""Object ids in API paths and query strings are integers.

DRF's default lookup pattern (``[^/.]+``) lets ``sizing-plans/null,null/`` reach the
view, where the id lookup raises ValueError (a 500). With ``[0-9]+`` such a path is
a plain 404 from the URL resolver. Viewsets that look up by another field (catalog
keys such as ``llama-3.1-405b``) state their own ``lookup_value_regex``.
"""

from __future__ import annotations

from django.http import Http404
from rest_framework.routers import DefaultRouter, SimpleRouter

ID_PATTERN = r"[0-9]+"
KEY_PATTERN = r"[^/]+"  # catalog keys may hold dots


class IdRouter(SimpleRouter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._default_value_pattern = ID_PATTERN  # DRF 3.18: the default lookup


class IdDefaultRouter(IdRouter, DefaultRouter):
    """The root router (with the API root view), integer ids as above."""


def id_param(value: str) -> int:
    """An object id from a query string or form field; anything but a positive integer
    of at most 18 digits (a bigint) is a 404, never a ValueError in the lookup."""
    if not (value.isascii() and value.isdigit() and 0 < len(value) <= 18):
        raise Http404("not an id")
    return int(value)
