"""Locust scenarios of `benchmarks/bench_load.py` (run it through that module).

Three request kinds, each its own user class so each has its own rate:
- the bid comparison page of a procurement with 50 bids, as a logged-in buyer;
- ``POST /api/v1/sizing/estimate`` and ``POST /api/v1/tco/estimate`` with a token.

bench_load.py passes the target through the environment: BENCH_PROCUREMENT_ID,
BENCH_USERNAME, BENCH_PASSWORD, BENCH_TOKEN.

Users wait between requests: 2-5 s for a person reading the comparison table, 1-2 s
for a script between calls; 25 + 25 users offer about 24 requests/s. The figures are
latencies under that load, not the server's saturation throughput (with no think
time, 50 users queue on 2 sync workers and every latency measures the queue).
bench_load.py passes --reset-stats, so the 25 logins (PBKDF2, ~0.3-1 s of CPU each)
during the ramp-up are not counted in the steady state.
"""

from __future__ import annotations

import os
import re

from locust import HttpUser, between, task

PROCUREMENT_ID = os.environ.get("BENCH_PROCUREMENT_ID", "1")
USERNAME = os.environ.get("BENCH_USERNAME", "demo-buyer")
PASSWORD = os.environ.get("BENCH_PASSWORD", "clusterbuy-demo")
TOKEN = os.environ.get("BENCH_TOKEN", "")
SESSION = os.environ.get("BENCH_SESSION", "")

SIZING_BODY = {
    "workload": {
        "kind": "inference",
        "model": {"preset": "llama-2-70b"},
        "context_tokens": 2048,
        "output_tokens": 256,
        "concurrent_requests": 32,
    },
    "accelerator": "h100-sxm-80gb",
}
TCO_BODY = {
    "horizon_years": 5,
    "currency": "CNY",
    "gpu_count": 64,
    "it_power_kw": 82,
    "capex": [
        {"category": "gpu_servers", "description": "8 x HGX H100", "amount": 17600000},
        {"category": "network", "description": "400G IB", "amount": 3000000},
        {"category": "storage", "description": "1 PB PFS", "amount": 1500000},
    ],
    "staff_fte": 2,
}


class ComparisonUser(HttpUser):
    """A buyer reloading the comparison of 50 bids."""

    weight = 1
    wait_time = between(2, 5)

    def on_start(self) -> None:
        if SESSION:  # a session made by the harness: no password hashing under load
            self.client.cookies.set("sessionid", SESSION)
            return
        page = self.client.get("/login/", name="login (setup)")
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        self.client.post(
            "/login/",
            {
                "username": USERNAME,
                "password": PASSWORD,
                "csrfmiddlewaretoken": match.group(1) if match else "",
            },
            headers={"Referer": f"{self.host}/login/"},
            name="login (setup)",
        )

    @task
    def comparison(self) -> None:
        with self.client.get(
            f"/procurements/{PROCUREMENT_ID}/comparison/",
            name="comparison page (50 bids)",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")


class ApiUser(HttpUser):
    """A script calling the two stateless estimate endpoints with a token."""

    weight = 1
    wait_time = between(1, 2)

    def on_start(self) -> None:
        self.client.headers["Authorization"] = f"Token {TOKEN}"

    @task
    def sizing_estimate(self) -> None:
        self.client.post(
            "/api/v1/sizing/estimate", json=SIZING_BODY, name="POST sizing/estimate"
        )

    @task
    def tco_estimate(self) -> None:
        self.client.post(
            "/api/v1/tco/estimate", json=TCO_BODY, name="POST tco/estimate"
        )
