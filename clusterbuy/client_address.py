"""Which client a request came from, as our own reverse proxies report it.

Every proxy appends the address it received the request from to X-Forwarded-For, so
only the right-hand entries were written by proxies we run; anything further left is
whatever the client chose to send. With ``TRUSTED_PROXY_COUNT = N`` the N-th entry
from the right is the address our outermost proxy saw, i.e. the client; with 0 (no
proxy) the header is ignored and REMOTE_ADDR is the client. API rate limits
(``clusterbuy.throttling``) and the login lockout (django-axes, through
``AXES_CLIENT_IP_CALLABLE``) both key on this one answer, so neither can be dodged by
rotating a header nor shared by everyone behind the proxy.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

# One IPv6 subscriber is routed a whole /64 and can pick any address inside it, so a
# per-address limit keyed on the full address would not limit anyone (RFC 6177).
IPV6_CLIENT_PREFIX = 64


def client_address(request: HttpRequest) -> str | None:
    """The client's address (IPv6: its /64 network), or None if nothing usable came.

    A request whose X-Forwarded-For holds fewer entries than there are trusted proxies
    did not pass the whole chain; it is keyed on its direct peer, which never lets it
    share a client's counters nor escape its own.
    """
    peer = canonical_address(request.META.get("REMOTE_ADDR", ""))
    proxy_count = settings.TRUSTED_PROXY_COUNT
    if proxy_count <= 0:
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if not forwarded[-1].strip() or len(forwarded) < proxy_count:
        return peer
    return canonical_address(forwarded[-proxy_count]) or peer


def canonical_address(text: str) -> str | None:
    """``text`` as the address a client is keyed on (IPv6: its /64 network), or None.

    Proxies may add a port or IPv6 brackets; an IPv4-mapped IPv6 address is IPv4.
    """
    candidate = text.strip()
    if candidate.startswith("["):  # "[2001:db8::1]:443"
        candidate = candidate[1:].partition("]")[0]
    elif candidate.count(":") == 1:  # "203.0.113.7:51234"
        candidate = candidate.partition(":")[0]
    try:
        address = ipaddress.ip_address(candidate)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        network = ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False)
        return str(network.network_address)
    return str(address)
