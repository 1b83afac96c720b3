"""The portal's own rate limits: per signed link and per client address
(`clusterbuy.client_address`), for its pages and its API alike.

No account stands behind a portal request, so the buyer-side per-user budgets do not
apply; a link shared too widely, or a client trying many links, is slowed here. Rates
(`settings.PORTAL_THROTTLE_RATES`, "N/sec|min|hour|day") are read per request, so
tests and deployments can change them; counts are `clusterbuy.rate_counter`'s (in the
default cache, shared across processes when CACHE_URL is set).
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings

from clusterbuy import rate_counter
from clusterbuy.client_address import client_address


def _hit(scope: str, ident: str, now: float) -> float | None:
    """Count one request; the seconds to wait when over the budget, else None."""
    rate = rate_counter.parse_rate((settings.PORTAL_THROTTLE_RATES or {}).get(scope))
    if rate is None:
        return None
    allowed, period_s = rate
    digest = hashlib.sha256(ident.encode()).hexdigest()[:32]
    return rate_counter.hit(
        f"portal-throttle:{scope}:{digest}", allowed=allowed, period_s=period_s, now=now
    )


def portal_wait_s(request, token: str) -> float | None:
    """Counts this request against the link's and the address's budgets; the seconds
    until the client may try again when either is spent, else None."""
    now = time.time()
    waits = [
        _hit("token", token, now),
        _hit("address", client_address(request) or "unknown", now),
    ]
    spent = [w for w in waits if w is not None]
    return max(spent) if spent else None
