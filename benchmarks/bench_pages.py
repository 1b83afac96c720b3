"""Page-load times of the main pages, in-process through Django's test client.

Runs against a throw-away database (SQLite in memory unless DATABASE_URL is set, then a
fresh `bench_` test database), with the demo data loaded.
"""

from __future__ import annotations

import io
import statistics
import time


def _timed(fn, repeat: int = 20) -> float:
    fn()  # warm up
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def run() -> list[tuple[str, float, str]]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("load_demo", verbosity=0, stdout=io.StringIO())
        from django.contrib.auth import get_user_model

        from clusterbuy.models import Procurement

        user = get_user_model().objects.get(username="demo-it")
        procurement = Procurement.objects.first()
        client = Client()
        client.force_login(user)
        from django.urls import reverse

        pk = procurement.pk
        pages = {
            "procurement list": "/procurements/",
            "procurement detail": f"/procurements/{pk}/",
            "sizing tab": reverse("sizing:plan", kwargs={"pk": pk}),
            "comparison tab (3 bids)": reverse("vendors:comparison", kwargs={"pk": pk}),
            "TCO tab": reverse("tco:tab", kwargs={"pk": pk}),
        }
        figures = []
        for label, url in pages.items():
            assert client.get(url).status_code == 200, url
            figures.append(
                (
                    f"page {label} (median of 20)",
                    _timed(lambda u=url: client.get(u)),
                    "ms",
                )
            )
        return figures
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
