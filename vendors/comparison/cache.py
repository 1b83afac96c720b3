"""The comparison page's context, read through the shared cache.

The key (vendors.services.caching) carries the data version, the language and the viewer
variant from `visibility.viewer_variant`, the same rule `build_comparison` applies.
Tried weights (`reweighted_context`) and the XLSX/PDF exports start from that same
entry: a weight change re-ranks its columns (`reweight`), nothing is built again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from .. import visibility
from ..services import caching, evaluation
from .build import build_comparison
from .radar import radar_svg
from .reweight import reweighted
from .table import comparison_groups, weight_free_groups, weighted_groups


def comparison_context(*, procurement, user) -> dict:
    """{"result", "radar", "grid_html"} for this user, from the cache when nothing
    changed since it was built for the same language and viewer variant (a fresh
    build also carries "groups"; `with_groups` adds them where a reader needs them)."""
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    blind, prices_hidden = visibility.viewer_variant(procurement, settings_row, user)
    key = caching.cache_key(procurement, blind, prices_hidden)
    # Only with a cache all web processes share (CACHE_URL): with per-process caches a
    # write in one process would not invalidate another process's copy.
    enabled = settings.COMPARISON_CACHE_ENABLED
    cached = cache.get(key) if enabled else None
    if cached is not None:
        return cached
    result = build_comparison(procurement=procurement, user=user)
    # Belt and braces: never store an entry under another variant's key.
    if (result.blind, result.prices_hidden) != (blind, prices_hidden):
        key = caching.cache_key(procurement, result.blind, result.prices_hidden)
    fixed = weight_free_groups(result)
    context = {
        "result": result,
        "groups": fixed + weighted_groups(result),
        "radar": radar_svg(result),
        "fixed_bodies": group_bodies(result, fixed),
    }
    context["grid_html"] = grid_html(context, context["groups"][len(fixed) :])
    if enabled:
        cache.set(key, _for_cache(context), caching.TTL_SECONDS)
    return context


def cached_export(*, procurement, user, fmt: str, render: Callable[[dict], bytes]):
    """Export ``fmt`` of the viewer's comparison: ``render(comparison_context(...))``,
    kept in the cache beside that context (its key, so the same data version, language
    and viewer variant, and its lifetime): the same export again costs a cache read."""
    key, variant = _export_key(procurement, user, fmt)
    enabled = settings.COMPARISON_CACHE_ENABLED
    data = cache.get(key) if enabled else None
    if data is None:
        context = comparison_context(procurement=procurement, user=user)
        data = render(with_groups(context))
        result = context["result"]
        if enabled and (result.blind, result.prices_hidden) == variant:
            cache.set(key, data, caching.TTL_SECONDS)
    return data


def export_cache_key(*, procurement, user, fmt: str) -> str:
    """Where `cached_export` keeps export ``fmt`` for this viewer (benchmarks clear it)."""
    return _export_key(procurement, user, fmt)[0]


def _export_key(procurement, user, fmt: str) -> tuple[str, tuple[bool, bool]]:
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    variant = visibility.viewer_variant(procurement, settings_row, user)
    return f"{caching.cache_key(procurement, *variant)}:export:{fmt}", variant


def with_groups(context: dict) -> dict:
    """The context with the table's groups (the exports read them), drawn again from
    its result when it came from the cache."""
    if "groups" in context:
        return context
    return {**context, "groups": comparison_groups(context["result"])}


def _for_cache(context: dict) -> dict:
    """The context as stored: each bid without the rows prefetched to build its column
    (line items, marks, case studies; two thirds of the pickled model instances), which
    nothing reads once the columns are built, and without the table's groups: the page
    shows them as the rendered ``grid_html``, and unpickling them cost every page view
    ~12 ms of the ~25 (50 bids); an export draws them again (`with_groups`). The
    returned context keeps both."""
    result = context["result"]
    columns = []
    for column in result.columns:
        bid = copy.copy(column.bid)
        bid._prefetched_objects_cache = {}
        columns.append(replace(column, bid=bid))
    stored = {key: value for key, value in context.items() if key != "groups"}
    return {**stored, "result": replace(result, columns=columns)}


def group_bodies(result, groups) -> list[str]:
    """Each group's ``<tbody>`` of the comparison table, rendered."""
    colspan = len(result.columns) + 1
    return [
        render_to_string(
            "vendors/_comparison_group.html", {"group": g, "colspan": colspan}
        )
        for g in groups
    ]


def grid_html(context: dict, groups: list) -> str:
    """The comparison table (`_comparison_grid.html`): the context's rendered
    ``fixed_bodies`` (the weight-free groups), then ``groups`` rendered."""
    bodies = [
        *(mark_safe(body) for body in context.get("fixed_bodies") or []),
        *group_bodies(context["result"], groups),
    ]
    return render_to_string(
        "vendors/_comparison_grid.html", {**context, "group_bodies": bodies}
    )


def reweighted_context(context: dict, weights: dict | None) -> dict:
    """A `comparison_context` ranked under the tried ``weights`` (not saved): its
    comparison re-ranked (`reweight`), the table drawn again for the groups the
    weights change (the section scores and the result; the rest, rendered when the
    context was built, is reused) and the radar drawn again; `ServiceError` for a bad
    weight."""
    if not weights:
        return context
    result = reweighted(context["result"], weights)
    fixed = context.get("fixed_bodies")
    reranked = {"result": result, "fixed_bodies": fixed, "radar": radar_svg(result)}
    groups = weighted_groups(result) if fixed else comparison_groups(result)
    reranked["grid_html"] = grid_html(reranked, groups)
    return reranked
