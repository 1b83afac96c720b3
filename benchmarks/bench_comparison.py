"""The comparison of a 50-bid procurement, in-process through Django's test client.

Runs against a throw-away database (a fresh test database of DATABASE_URL, SQLite in
memory without it) with the catalogue, the demo and 47 more scored bids on the demo
procurement (`comparison_bids`), the comparison cache on a Redis cache when one answers
(BENCH_CACHE_URL, default redis://127.0.0.1:6379/1; the in-process memory cache
otherwise). Each figure is printed with its target (issue 14):

- build (cold): `build_comparison` alone, and the page on a cache miss (build, table,
  radar, rendering); no target of its own, the page's targets assume a warm cache;
- page (warm): the comparison page served from the cache, < 300 ms (the load bench
  measures its p95 under 50 users);
- reweight: the htmx "Recompute ranking" with other section weights, < 150 ms;
- XLSX and PDF exports drawn from the cached comparison, < 1 s and < 2 s (and the PDF
  again, kept in the cache beside the comparison);
- the PDF's page count and its floor measured in the same run: WeasyPrint rendering
  a plain table of the same page count in the same font (`floors.floor_html`, the TCO
  PDF's floor), and the ratio;
- the page's query count on a cache miss at 50 bids and at 3 bids (same by design).
"""

from __future__ import annotations

import io
import os
import statistics
import time

TARGETS_MS = {"page": 300, "reweight": 150, "xlsx": 1000, "pdf": 2000}


# CPU seconds of this process for the last `_median_ms`: on a machine shared with other
# work the wall time includes waiting for a core, the CPU time does not (the request
# runs in this process through the test client).
_last_cpu_ms = [0.0]


def _median_ms(fn, repeat: int) -> float:
    samples, cpu = [], []
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        fn()
        samples.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    _last_cpu_ms[0] = statistics.median(cpu) * 1000
    return statistics.median(samples) * 1000


def _cache_settings() -> dict:
    url = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/1")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
        }
    }


def _pdf_pages(data: bytes) -> int:
    import pypdf

    return len(pypdf.PdfReader(io.BytesIO(data)).pages)


def _pdf_floor_ms(pages: int) -> float:
    """WeasyPrint rendering a plain table of ``pages`` full pages in the export's font,
    through the app's PDF pipeline (`floors.floor_html`, as the TCO PDF's floor)."""
    from floors import floor_html

    from clusterbuy.pdf import render_pdf

    html = floor_html(pages)
    render_pdf(html)  # warm-up
    return _median_ms(lambda: render_pdf(html), 3)


def _figures() -> list[tuple[str, float, str]]:
    from comparison_bids import BIDS, demo_procurement, fill_demo_procurement
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from vendors import comparison
    from vendors.services import caching

    call_command("load_catalog", verbosity=0, stdout=io.StringIO())
    call_command("load_demo", verbosity=0, stdout=io.StringIO())
    client = Client()
    user = get_user_model().objects.get(username="demo-buyer")
    client.force_login(user)

    def page_queries(pk) -> int:
        caching.bump_comparison_version()
        reset_queries()
        with CaptureQueriesContext(connection) as ctx:
            client.get(reverse("vendors:comparison", args=[pk]))
        return len(ctx.captured_queries)

    three = page_queries(demo_procurement().pk)
    procurement = fill_demo_procurement(BIDS)
    pk = procurement.pk
    page = reverse("vendors:comparison", args=[pk])
    weights_url = reverse("vendors:comparison-weights", args=[pk])
    sections = comparison.comparison_context(procurement=procurement, user=user)[
        "result"
    ].sections
    fifty = page_queries(pk)

    def cold_build():
        caching.bump_comparison_version()
        comparison.build_comparison(procurement=procurement, user=user)

    def cold_page():
        caching.bump_comparison_version()
        assert client.get(page).status_code == 200

    def warm_page():
        assert client.get(page).status_code == 200

    flip = iter(range(10**6))

    def reweight():
        # A different weight each time: nothing can be served as it was last time.
        weight = 10 + next(flip) % 50
        data = {
            f"w_{s.code}": weight if i == 0 else s.weight
            for i, s in enumerate(sections)
        }
        response = client.post(weights_url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200

    def export(fmt, *, again=False):
        url = reverse("vendors:comparison-export", args=[pk, fmt])
        key = comparison.export_cache_key(procurement=procurement, user=user, fmt=fmt)

        def get():
            if not again:  # the first export of this comparison: drawn, then kept
                cache.delete(key)
            assert client.get(url).status_code == 200

        return get

    warm_page()  # warm-up: fonts, templates, the cache entry
    figures = [
        (f"{BIDS} bids: build_comparison (cold)", _median_ms(cold_build, 3), "ms"),
        (f"{BIDS} bids: build_comparison (cold): CPU time", _last_cpu_ms[0], "ms"),
        (
            f"{BIDS} bids: page on a cache miss (build + render)",
            _median_ms(cold_page, 3),
            "ms",
        ),
    ]
    warm_page()
    rows = [
        ("page (warm cache)", "page", warm_page, 20),
        ("reweight (htmx recompute ranking)", "reweight", reweight, 10),
        ("XLSX export", "xlsx", export("xlsx"), 5),
        ("PDF export", "pdf", export("pdf"), 3),
        ("PDF export again (kept in the cache)", "pdf", export("pdf", again=True), 5),
    ]
    export("pdf")()  # warm-up: WeasyPrint's fonts
    for label, key, fn, repeat in rows:
        value = _median_ms(fn, repeat)
        target = TARGETS_MS[key]
        figures += [
            (f"{BIDS} bids: {label} (target < {target})", value, "ms"),
            (f"{BIDS} bids: {label}: CPU time", _last_cpu_ms[0], "ms"),
            (f"{BIDS} bids: {label}: ratio to target", value / target, "x"),
        ]
    url = reverse("vendors:comparison-export", args=[pk, "pdf"])
    pages = _pdf_pages(client.get(url).content)
    floor = _pdf_floor_ms(pages)
    floor_cpu = _last_cpu_ms[0]
    pdf = next(
        v for label, v, _ in figures if label.endswith("PDF export (target < 2000)")
    )
    figures += [
        (f"{BIDS} bids: PDF export: pages", pages, "pages"),
        (f"PDF floor: plain table of the same {pages} pages, same font", floor, "ms"),
        ("PDF floor: CPU time", floor_cpu, "ms"),
        ("PDF export: ratio to its floor", pdf / floor, "x"),
        ("page queries on a cache miss, 3 bids", three, "queries"),
        (f"page queries on a cache miss, {BIDS} bids", fifty, "queries"),
    ]
    return figures


def run() -> list[tuple[str, float, str]]:
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import (
        override_settings,
        setup_test_environment,
        teardown_test_environment,
    )

    setup_test_environment(debug=False)  # as served: no query log kept
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with override_settings(CACHES=_cache_settings(), COMPARISON_CACHE_ENABLED=True):
            return _figures()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()  # bench_pages sets it up again


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")
    for name, value, unit in run():
        print(f"{name:64} {value:12.3f}  {unit}")
