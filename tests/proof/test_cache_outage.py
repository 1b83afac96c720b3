"""The shared cache goes away and comes back (issue 23: during a 45 s Redis outage
3,349 of 3,349 API requests answered 500). Real redis-server processes on spare
ports (tests.proof.test_faults.PrivateRedis), never the shared 6379."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache, caches
from django.test import RequestFactory, override_settings

from clusterbuy import cache as resilient
from clusterbuy import rate_counter
from clusterbuy.checks import cache_apart_from_broker
from clusterbuy.throttling import AnonThrottle
from tests.proof.redis_support import PrivateRedis
from tests.tco.conftest import HAND_INPUTS

pytestmark = pytest.mark.services


def _caches(url: str) -> dict:
    return {
        "default": {"BACKEND": "clusterbuy.cache.ResilientRedisCache", "LOCATION": url}
    }


@pytest.fixture
def redis_cache(private_redis):
    with override_settings(CACHES=_caches(private_redis.url)):
        caches["default"].clear()
        yield private_redis


def _pause(server: PrivateRedis, seconds: float) -> None:
    """Redis stops answering every client for ``seconds`` but keeps its data."""
    server.client().execute_command("CLIENT", "PAUSE", int(seconds * 1000), "ALL")


def test_reads_miss_and_writes_drop_while_redis_is_down_then_it_is_used_again(
    redis_cache,
):
    cache.set("page", "built before")
    redis_cache.stop()
    started = time.monotonic()
    assert cache.get("page", "miss") == "miss"  # never an error
    assert cache.set("page", "built during") is None
    assert caches["default"].degraded
    # later calls skip Redis (no connect timeout per call) until RETRY_AFTER_S
    calls_s = time.monotonic()
    for _ in range(100):
        cache.get("page")
    assert time.monotonic() - calls_s < 0.2
    assert time.monotonic() - started < 2
    redis_cache.start()
    time.sleep(resilient.RETRY_AFTER_S + 0.1)
    cache.set("page", "built after")
    assert not caches["default"].degraded
    assert cache.get("page") == "built after"


def test_a_key_written_during_an_outage_is_not_served_stale_afterwards(redis_cache):
    """The comparison's version stamp was written before the outage and could not be
    replaced during it: once Redis answers, the old stamp is gone, not served."""
    cache.set("stamp", "before")
    _pause(redis_cache, 1.5)
    assert cache.set("stamp", "during") is None  # times out: dropped, remembered
    assert caches["default"].degraded
    time.sleep(1.6 + resilient.RETRY_AFTER_S)
    assert cache.get("other") is None  # Redis answers again: the replay runs first
    assert redis_cache.client().exists(caches["default"].make_key("stamp")) == 0
    assert cache.get("stamp") is None


def test_rate_limits_still_hold_per_process_while_redis_is_down(redis_cache, settings):
    settings.RATE_LIMIT_PROCESSES = 2  # two web processes: each allows half
    redis_cache.stop()
    cache.get("anything")  # the outage is noticed
    now = 1_000_000.0
    answers = [
        rate_counter.hit("client-a", allowed=10, period_s=60, now=now) for _ in range(7)
    ]
    assert answers[:5] == [None] * 5
    assert answers[5] == pytest.approx(60 * (int(now // 60) + 1) - now)
    assert answers[6] is not None


def test_concurrent_requests_never_pass_more_than_the_budget(redis_cache):
    """8 clients at once against a 600/min budget: exactly 600 pass (the probe let
    649 through with DRF's history list)."""
    allowed = []
    lock = threading.Lock()
    now = time.time()

    def client():
        for _ in range(100):
            passed = rate_counter.hit("busy", allowed=600, period_s=60, now=now) is None
            with lock:
                allowed.append(passed)

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(allowed) == 800
    assert sum(allowed) == 600


@override_settings(
    REST_FRAMEWORK={
        "DEFAULT_THROTTLE_RATES": {"anon": "600/min", "user": "6000/min"},
    }
)
def test_the_anonymous_api_throttle_is_exact_under_concurrency(redis_cache):
    from rest_framework.settings import api_settings

    api_settings.reload()
    factory = RequestFactory()
    passed = []
    lock = threading.Lock()

    def client():
        for _ in range(100):
            request = factory.get("/api/v1/", REMOTE_ADDR="203.0.113.9")
            request.user = None
            ok = AnonThrottle().allow_request(_Anonymous(request), None)
            with lock:
                passed.append(ok)

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    api_settings.reload()
    assert sum(passed) == 600


class _Anonymous:
    """A DRF request's two attributes the anonymous throttle reads."""

    def __init__(self, request):
        self._request = request
        self.META = request.META

        class _User:
            is_authenticated = False

        self.user = _User()


@pytest.mark.parametrize(
    ("cache_url", "broker_url", "warns"),
    [
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0", True),
        ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379/0", True),
        ("redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/0", False),
        ("redis://cache.internal:6379/0", "redis://127.0.0.1:6379/0", False),
        ("", "redis://127.0.0.1:6379/0", False),
    ],
)
def test_a_cache_sharing_the_brokers_database_is_a_warning(
    settings, cache_url, broker_url, warns
):
    settings.CACHE_URL, settings.CELERY_BROKER_URL = cache_url, broker_url
    assert [w.id for w in cache_apart_from_broker()] == (
        ["clusterbuy.W001"] if warns else []
    )


# --- the whole product through an outage ---------------------------------------------

PAGES = [
    "/procurements/",
    "/procurements/{pk}/",
    "/procurements/{pk}/requirements/",
    "/procurements/{pk}/sizing/",
    "/procurements/{pk}/tco/",
    "/procurements/{pk}/bids/",
    "/procurements/{pk}/comparison/",
    "/procurements/{pk}/rfp/",
    "/api/v1/procurements/",
    "/api/v1/procurements/{pk}/",
    "/api/v1/procurements/{pk}/requirement/",
    "/api/v1/procurements/{pk}/sizing-plans/",
    "/api/v1/procurements/{pk}/tco-scenarios/",
    "/api/v1/procurements/{pk}/bids/",
    "/api/v1/procurements/{pk}/comparison/",
    "/api/v1/procurements/{pk}/evaluation/",
    "/api/v1/procurements/{pk}/rfp/",
]


def _broker_down(*args, **kwargs):
    from kombu.exceptions import OperationalError

    raise OperationalError(
        "Error 111 connecting to 127.0.0.1:6379. Connection refused."
    )


def _walk(client, api, pk) -> dict[str, tuple[int, float]]:
    answers = {}
    for url in PAGES:
        path = url.format(pk=pk)
        sender = api if path.startswith("/api/") else client
        started = time.monotonic()
        status = sender.get(path).status_code
        answers[path] = (status, time.monotonic() - started)
    return answers


@pytest.mark.django_db(transaction=True)
def test_pages_and_api_answer_through_a_redis_outage_and_a_run_is_saved(
    redis_cache, settings, monkeypatch, client_for, api_for
):
    """The probe's fault (Redis down for cache and broker alike), shortened to 6 s:
    every page and API read answers as before, none with a 500; a TCO run asked for
    meanwhile is saved and waits for the queue; the shared cache is used again within
    RETRY_AFTER_S of Redis' return."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clusterbuy.models import Procurement
    from tco import tasks
    from tco.models import RunStatus, TcoRun

    settings.COMPARISON_CACHE_ENABLED = True
    call_command("load_demo", stdout=open("/dev/null", "w"))
    procurement = Procurement.objects.get(name__startswith="大模型训练")
    buyer = get_user_model().objects.get(username="demo-buyer")
    client, api = client_for(buyer), api_for(buyer)
    before = _walk(client, api, procurement.pk)
    assert {s for s, _ in before.values()} == {200}, before

    redis_cache.stop()
    monkeypatch.setattr(tasks.run_tco, "apply_async", _broker_down)  # same Redis
    outage_started = time.monotonic()
    during = []
    while time.monotonic() - outage_started < 6:
        during.append(_walk(client, api, procurement.pk))
    answer = api.post(
        "/api/v1/tco/runs/",
        {"procurement": procurement.pk, "inputs": HAND_INPUTS},
        format="json",
    )
    redis_cache.start()
    monkeypatch.undo()
    back_at = time.monotonic()

    statuses = [status for walk in during for status, _ in walk.values()]
    assert len(during) >= 2
    assert set(statuses) == {200}, [
        w for w in during if set(s for s, _ in w.values()) != {200}
    ]
    slowest_s = max(seconds for walk in during for _, seconds in walk.values())
    assert slowest_s < 3, slowest_s  # no request waits on a dead Redis for long
    assert answer.status_code in (201, 202), answer.content
    run = TcoRun.objects.get(pk=answer.json()["id"])
    assert (run.status, run.enqueued_at) == (RunStatus.QUEUED, None)

    time.sleep(resilient.RETRY_AFTER_S)
    after = _walk(client, api, procurement.pk)
    assert {s for s, _ in after.values()} == {200}, after
    assert not caches["default"].degraded
    assert time.monotonic() - back_at < resilient.RETRY_AFTER_S + 10
