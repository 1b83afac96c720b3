"""The one request counter behind every rate limit (the API's throttles and the
supplier portal's): a fixed window per key, counted with one atomic ``incr`` in the
default cache.

DRF's ``SimpleRateThrottle`` reads a history list, appends and writes it back: eight
concurrent clients read the same list, so 649 of a 600-a-minute budget went through
(issue 23). An atomic counter cannot over-count: Redis ``INCR`` (and the local
cache's locked ``incr``) give every request its own number, and a request numbered
past the budget is refused. A fixed window lets a client spend one budget at the end
of a window and the next at the start of the following one; within any window the
budget is exact.

While the shared cache is unreachable, ``clusterbuy.cache.ResilientRedisCache``
counts in each process's memory instead, and each process allows its share of the
budget (``settings.RATE_LIMIT_PROCESSES``, gunicorn's ``WEB_CONCURRENCY``): together
the processes of a host still allow no more than the budget.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

PERIODS_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(text: str | None) -> tuple[int, int] | None:
    """ "600/min" -> (600, 60); None or "" -> None (no limit)."""
    if not text:
        return None
    count, _slash, period = str(text).partition("/")
    return int(count), PERIODS_S[period.strip()[:1].lower()]


def _count(key: str, timeout_s: int) -> int:
    if cache.add(key, 1, timeout=timeout_s):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens it again
        if cache.add(key, 1, timeout=timeout_s):
            return 1
        return cache.incr(key)


def hit(key: str, *, allowed: int, period_s: int, now: float) -> float | None:
    """Count one request under ``key``; the seconds until the next window when the
    budget of ``allowed`` per ``period_s`` is spent, else None."""
    window = int(now // period_s)
    if getattr(cache, "degraded", False):  # counted in this process only
        allowed = max(1, allowed // max(1, settings.RATE_LIMIT_PROCESSES))
    if _count(f"rate:{key}:{window}", period_s + 1) > allowed:
        return (window + 1) * period_s - now
    return None
