"""Cache of the built comparison (and its rendered table) per procurement, language and
viewer variant.

The key carries a version stamp that every write to the data the comparison reads
replaces with a fresh random token (post_save / post_delete of the vendors, sizing,
tco and clusterbuy models, again on commit, plus the services' bulk writes), so a
change is never served stale and a flushed cache cannot resurrect an old entry. The
viewer variant (blind, prices_hidden) is part of the key: a blind-grading evaluator or
a sealed-envelope evaluator never gets the entry built for someone who may see vendor
names or prices. Everything else in the comparison is the same for every user.
"""

from __future__ import annotations

import uuid

from django.core.cache import cache
from django.db import connection, transaction
from django.utils.translation import get_language

VERSION_KEY = "vendors:comparison-version"
TTL_SECONDS = 600  # safety net; invalidation is by version
WATCHED_APPS = frozenset({"vendors", "sizing", "tco", "clusterbuy"})


def _db_name() -> str:
    return str(connection.settings_dict.get("NAME", ""))


def _version_key() -> str:
    return f"{VERSION_KEY}:{_db_name()}"


def comparison_version() -> str:
    version = cache.get(_version_key())
    if version is None:
        cache.add(_version_key(), uuid.uuid4().hex, None)
        version = cache.get(_version_key()) or "none"
    return version


def bump_comparison_version() -> None:
    """Invalidate every cached comparison now and once more when the transaction
    commits (a reader between the write and the commit could cache the old state)."""
    key = _version_key()
    cache.set(key, uuid.uuid4().hex, None)
    transaction.on_commit(lambda: cache.set(key, uuid.uuid4().hex, None))


def on_model_change(sender, **kwargs) -> None:
    meta = getattr(sender, "_meta", None)
    if meta is not None and meta.app_label in WATCHED_APPS:
        bump_comparison_version()


# Bumped when the cached context's shape changes (v2: the result carries its
# Visibility; v3: what each bid delivers; v4: the TCO breakdown; v5: automatic scores
# and unscored sections; v6: the budget ceiling), so an entry pickled by the previous release is never read.
CONTEXT_SHAPE = "v6"


def cache_key(procurement, blind: bool, prices_hidden: bool) -> str:
    return (
        f"vendors:comparison:{CONTEXT_SHAPE}:{_db_name()}:{comparison_version()}:{procurement.pk}:"
        f"{get_language() or 'en'}:{int(blind)}:{int(prices_hidden)}"
    )
