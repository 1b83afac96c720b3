"""Cache of the built comparison (and its rendered table) per procurement, language and
viewer variant.

The key carries two version stamps that writes to the data the comparison reads
replace with a fresh random token (post_save / post_delete of the vendors, sizing,
tco and clusterbuy models, again on commit, plus the services' bulk writes), so a
change is never served stale and a flushed cache cannot resurrect an old entry: the
procurement's own stamp, for a row that belongs to one procurement (a bid, its line
items, a plan, a scenario…: found by following its foreign keys), and a global stamp
for the rest (catalogue rows, vendors shared by an organisation's procurements).
Sealed submissions are not read by the comparison (the opening turns them into bids,
which bump): their writes change nothing a buyer sees (issue 23: a vendor's sealed
upload changed the buyer's comparison export). The
viewer variant (blind, prices_hidden) is part of the key: a blind-grading evaluator or
a sealed-envelope evaluator never gets the entry built for someone who may see vendor
names or prices. Everything else in the comparison is the same for every user.
"""

from __future__ import annotations

import uuid
from functools import cache as _memo

from django.core.cache import cache
from django.db import connection, transaction
from django.utils.translation import get_language

VERSION_KEY = "vendors:comparison-version"
TTL_SECONDS = 600  # safety net; invalidation is by version
WATCHED_APPS = frozenset({"vendors", "sizing", "tco", "clusterbuy"})
#: Models the comparison never reads (app label, model name).
UNREAD = frozenset({("vendors", "submission"), ("vendors", "submissionevidence")})
#: How many foreign keys a row may be from its procurement (line item -> bid -> it).
MAX_HOPS = 3


def _db_name() -> str:
    return str(connection.settings_dict.get("NAME", ""))


def _version_key(procurement_id: int | None = None) -> str:
    scope = "all" if procurement_id is None else f"p{procurement_id}"
    return f"{VERSION_KEY}:{_db_name()}:{scope}"


def comparison_version(procurement_id: int | None = None) -> str:
    """The global stamp, or the stamp of one procurement's own data."""
    key = _version_key(procurement_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, uuid.uuid4().hex, None)
        version = cache.get(key) or "none"
    return version


def bump_comparison_version(procurement_id: int | None = None) -> None:
    """Invalidate the cached comparisons of one procurement (every procurement when
    None) now and once more when the transaction commits (a reader between the write
    and the commit could cache the old state)."""
    key = _version_key(procurement_id)
    cache.set(key, uuid.uuid4().hex, None)
    transaction.on_commit(lambda: cache.set(key, uuid.uuid4().hex, None))


@_memo
def _path_to_procurement(model) -> tuple[str, ...] | None:
    """The foreign keys from ``model`` to the Procurement it belongs to, shortest
    first (("bid", "procurement") for a line item); () for Procurement itself."""
    from clusterbuy.models import Procurement

    queue = [(model, ())]
    seen = {model}
    while queue:
        current, path = queue.pop(0)
        if current is Procurement:
            return path
        if len(path) >= MAX_HOPS:
            continue
        for field in current._meta.concrete_fields:
            target = (
                field.related_model if field.many_to_one or field.one_to_one else None
            )
            if target is not None and target not in seen:
                seen.add(target)
                queue.append((target, (*path, field.name)))
    return None


def _procurement_id(instance) -> int | None:
    """The procurement a saved or deleted row belongs to; None when it belongs to none
    or its chain is gone (a cascade deleted the rows in between)."""
    path = _path_to_procurement(type(instance))
    if path is None:
        return None
    if not path:
        return instance.pk
    first = type(instance)._meta.get_field(path[0])
    related_id = getattr(instance, first.attname)
    if related_id is None:
        return None
    if len(path) == 1:
        return related_id
    lookup = "__".join(path[1:]) + "_id"
    return (
        first.related_model.objects.filter(pk=related_id)
        .values_list(lookup, flat=True)
        .first()
    )


def on_model_change(sender, instance=None, **kwargs) -> None:
    meta = getattr(sender, "_meta", None)
    if meta is None or meta.app_label not in WATCHED_APPS:
        return
    if (meta.app_label, meta.model_name) in UNREAD:
        return
    procurement_id = _procurement_id(instance) if instance is not None else None
    bump_comparison_version(procurement_id)


# Bumped when the cached context's shape changes (v2: the result carries its
# Visibility; v3: what each bid delivers; v4: the TCO breakdown; v5: automatic scores
# and unscored sections; v6: the budget ceiling; v7: the tender review), so an entry pickled by the previous release is never read.
CONTEXT_SHAPE = "v7"


def cache_key(procurement, blind: bool, prices_hidden: bool) -> str:
    return (
        f"vendors:comparison:{CONTEXT_SHAPE}:{_db_name()}:{comparison_version()}:"
        f"{comparison_version(procurement.pk)}:{procurement.pk}:"
        f"{get_language() or 'en'}:{int(blind)}:{int(prices_hidden)}"
    )
