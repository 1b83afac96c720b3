"""The shared cache that degrades instead of failing (issue 23: a 45 s Redis outage
answered 3,349 of 3,349 API requests with 500).

Nothing ClusterBuy keeps in the cache is the only copy of anything: comparison pages
and chart images are rebuilt from the database, and rate-limit counters may restart.
So when Redis does not answer, ``ResilientRedisCache``:

- logs it once, and for ``RETRY_AFTER_S`` does not try Redis again (each request
  would otherwise wait for the connect timeout);
- answers reads as misses and drops writes, so pages are built fresh, never from a
  stale copy;
- counts ``add``/``incr`` (the rate limits: `clusterbuy.rate_counter`) in the
  process's own memory, so every limit still holds, per process;
- remembers each key it could not write and deletes it from Redis as soon as Redis
  answers again, so nothing written before the outage is served after it as if the
  outage's writes had not happened (the comparison's version stamp is such a key:
  deleting it makes every comparison cached before the outage unreachable).

Connect and read timeouts are short (``OPTIONS``, overridable): an answer from a
healthy Redis takes well under a millisecond on the same network.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: Errors that mean "Redis is not there", not "the command was wrong".
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
#: After a failure, Redis is tried again at most this often (per process).
RETRY_AFTER_S = 2.0
#: Keys remembered for deletion after an outage; past this, the whole cache
#: database is cleared instead (it holds nothing else: docs/deployment.md).
MAX_MISSED_KEYS = 10_000
DEFAULT_OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict) -> None:
        options = {**DEFAULT_OPTIONS, **(params.get("OPTIONS") or {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._counters = LocMemCache(
            f"clusterbuy-fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": 50_000}}
        )
        self._lock = threading.Lock()
        self._missed: set[tuple[str, int | None]] = set()
        self._clear_missed = False
        self._down_since: float | None = None
        self._retry_at = 0.0

    # --- the guard ------------------------------------------------------------------

    @property
    def degraded(self) -> bool:
        return self._down_since is not None

    def _shared(
        self,
        call: Callable[[], Any],
        fallback: Callable[[], Any],
        written: Iterable[Any] = (),
        version: int | None = None,
    ) -> Any:
        if self._down_since is not None and (
            time.monotonic() < self._retry_at or not self._recover()
        ):
            self._remember(written, version)
            return fallback()
        try:
            return call()
        except UNREACHABLE as exc:
            self._trip(exc)
            self._remember(written, version)
            return fallback()

    def _trip(self, exc: Exception) -> None:
        with self._lock:
            now = time.monotonic()
            if self._down_since is None:
                self._down_since = now
                logger.warning(
                    "Shared cache unreachable (%s): serving without it, rate limits "
                    "counted per process",
                    exc,
                )
            self._retry_at = now + RETRY_AFTER_S

    def _remember(self, keys: Iterable[Any], version: int | None) -> None:
        with self._lock:
            for key in keys:
                if len(self._missed) >= MAX_MISSED_KEYS:
                    self._clear_missed = True
                    self._missed.clear()
                    return
                self._missed.add((key, version))

    def _recover(self) -> bool:
        """Before the first call after an outage: delete what could not be written
        meanwhile. False (and still degraded) when Redis does not answer yet."""
        with self._lock:
            missed, self._missed = self._missed, set()
            clear, self._clear_missed = self._clear_missed, False
        try:
            if clear:
                RedisCache.clear(self)
            by_version: dict[int | None, list[str]] = {}
            for key, version in missed:
                by_version.setdefault(version, []).append(key)
            for version, keys in by_version.items():
                RedisCache.delete_many(self, keys, version=version)
            if not missed and not clear:
                RedisCache.has_key(self, "clusterbuy:cache-probe")
        except UNREACHABLE as exc:  # still down: keep them for the next try
            self._trip(exc)
            with self._lock:
                self._missed |= missed
                self._clear_missed |= clear
            return False
        with self._lock:
            down_since, self._down_since = self._down_since, None
        if down_since is not None:
            logger.warning(
                "Shared cache back after %.1f s; %d keys written meanwhile deleted",
                time.monotonic() - down_since,
                len(missed),
            )
        return True

    # --- the cache API: reads miss, writes drop, counters count locally ---------------

    def get(self, key, default=None, version=None):
        return self._shared(
            lambda: RedisCache.get(self, key, default, version), lambda: default
        )

    def get_many(self, keys, version=None):
        return self._shared(lambda: RedisCache.get_many(self, keys, version), dict)

    def has_key(self, key, version=None):
        return self._shared(
            lambda: RedisCache.has_key(self, key, version), lambda: False
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._shared(
            lambda: RedisCache.set(self, key, value, timeout, version),
            lambda: None,
            (key,),
            version,
        )

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._shared(
            lambda: RedisCache.set_many(self, data, timeout, version),
            lambda: list(data),
            tuple(data),
            version,
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._shared(
            lambda: RedisCache.touch(self, key, timeout, version),
            lambda: False,
            (key,),
            version,
        )

    def delete(self, key, version=None):
        return self._shared(
            lambda: RedisCache.delete(self, key, version),
            lambda: False,
            (key,),
            version,
        )

    def delete_many(self, keys, version=None):
        keys = tuple(keys)
        return self._shared(
            lambda: RedisCache.delete_many(self, keys, version),
            lambda: None,
            keys,
            version,
        )

    def clear(self):
        def later():
            with self._lock:
                self._clear_missed = True

        return self._shared(lambda: RedisCache.clear(self), later)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._shared(
            lambda: RedisCache.add(self, key, value, timeout, version),
            lambda: self._counters.add(key, value, timeout, version),
            (key,),
            version,
        )

    def incr(self, key, delta=1, version=None):
        return self._shared(
            lambda: RedisCache.incr(self, key, delta, version),
            lambda: self._counters.incr(key, delta, version),
            (key,),
            version,
        )
