"""System checks of the deployment's settings (``manage.py check --deploy`` runs them)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Tags, Warning, register


def _redis_database(url: str) -> tuple[str, int, str] | None:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss"}:
        return None
    db = (parts.path or "/0").strip("/") or "0"
    return (parts.hostname or "localhost", parts.port or 6379, db)


@register(Tags.caches)
def cache_apart_from_broker(app_configs=None, **kwargs):
    """The cache must not share the broker's Redis database: a cache may be cleared
    (clusterbuy.cache clears its database after a long outage) and fills memory the
    broker's queues need; docs/deployment.md, "Cache"."""
    cache = _redis_database(getattr(settings, "CACHE_URL", "") or "")
    broker = _redis_database(getattr(settings, "CELERY_BROKER_URL", "") or "")
    if cache is None or cache != broker:
        return []
    return [
        Warning(
            "CACHE_URL and CELERY_BROKER_URL name the same Redis database.",
            hint="Give the cache its own database (redis://host:6379/1) or instance.",
            id="clusterbuy.W001",
        )
    ]
