"""Load: gunicorn (2 workers, production settings) driven by locust from another process.

Builds a throw-away PostgreSQL database (``bench_clusterbuy``, dropped and recreated),
migrates, loads the catalogue and the demo, fills the demo procurement up to 50 scored
bids (`comparison_bids`), makes an API token, serves it with gunicorn on a free port
and runs ``benchmarks/locustfile.py`` headless (BENCH_LOAD_USERS users, default 50,
BENCH_LOAD_SPAWN_RATE started a second, default 10) for BENCH_LOAD_SECONDS (default
60); a smoke run of the harness: BENCH_LOAD_USERS=3 BENCH_LOAD_SECONDS=8. Reports
requests/s, p50/p95/p99 and errors for each request kind, parsed from locust's CSV.
Targets: no errors; p95 < 300 ms for the comparison page of 50 bids (served from the
Redis cache the workers share, CACHE_URL), < 100 ms for the estimates.

Everything runs in subprocesses with its own environment, so the harness process's
Django settings do not matter; gunicorn and the database are removed afterwards.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
ADMIN_URL = os.environ.get(
    "BENCH_ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
# BENCH_LOAD_DB: another name when two load benches share one PostgreSQL server.
DB_NAME = os.environ.get("BENCH_LOAD_DB", "bench_clusterbuy")
USERS = int(os.environ.get("BENCH_LOAD_USERS", "50"))
SPAWN_RATE = int(os.environ.get("BENCH_LOAD_SPAWN_RATE", "10"))
TARGETS_P95_MS = {
    "comparison page (50 bids)": 300,
    "POST sizing/estimate": 100,
    "POST tco/estimate": 100,
}

# Runs inside `manage.py shell` (in the checkout): the demo procurement filled up to 50
# bids and the API token.
SETUP = r"""
import json
import sys
sys.path.insert(0, "benchmarks")
from comparison_bids import BIDS, fill_demo_procurement
from clusterbuy import services as core

procurement = fill_demo_procurement(BIDS)
org = procurement.organisation
buyer = org.memberships.get(user__username="demo-buyer").user
token = core.issue_api_token(organisation=org, username="demo-buyer")
# A logged-in session made here: 25 password checks (PBKDF2, ~1 s of CPU each) at the
# start would otherwise queue every measured request behind them.
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
session = SessionStore()
session[SESSION_KEY] = str(buyer.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = buyer.get_session_auth_hash()
session.create()
print("BENCH-SETUP " + json.dumps(
    {"procurement": procurement.pk, "token": token.key, "session": session.session_key}
))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _admin_connection():
    import psycopg

    return psycopg.connect(ADMIN_URL, autocommit=True)


def _recreate_database() -> None:
    with _admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def _drop_database() -> None:
    with _admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def _env(media_root: str) -> dict:
    base = ADMIN_URL.rsplit("/", 1)[0]
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="clusterbuy.settings",
        DATABASE_URL=f"{base}/{DB_NAME}",
        DEBUG="0",
        SECRET_KEY="bench-only-" + "k" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        API_THROTTLE_USER="1000000/min",
        API_THROTTLE_ANON="1000000/min",
        CELERY_BROKER_URL="",  # runs in-process; the scenarios enqueue nothing
        CELERY_TASK_ALWAYS_EAGER="1",
        MEDIA_ROOT=media_root,
        LOG_LEVEL="ERROR",
        # As in production: a cache shared by the gunicorn workers (rate limits and
        # the comparison cache).
        CACHE_URL=os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/1"),
    )
    return env


def _manage(env: dict, *args: str, timeout_s: float = 600) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)}:\n{done.stderr[-3000:]}")
    return done.stdout


def _wait_until_serving(url: str, proc: subprocess.Popen, timeout_s: float = 60):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited before serving")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"gunicorn did not answer {url}")


def _warm_comparison(host: str, target: dict) -> None:
    """One comparison page before the run: the steady state measured is the page served
    from the shared cache (the first view builds it, ~1-2 s at 50 bids)."""
    request = urllib.request.Request(
        f"{host}/procurements/{target['procurement']}/comparison/",
        headers={"Cookie": f"sessionid={target['session']}"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        if response.status != 200:
            raise RuntimeError(f"comparison page answered {response.status}")


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _figures(stats_csv: Path) -> list[tuple[str, float, str]]:
    figures = []
    with stats_csv.open(newline="") as f:
        rows = {row["Name"]: row for row in csv.DictReader(f)}
    for name, target in TARGETS_P95_MS.items():
        row = rows.get(name)
        if row is None:
            raise RuntimeError(f"locust recorded no {name!r} requests")
        figures += [
            (f"{name}: requests/s", float(row["Requests/s"]), "req/s"),
            (f"{name}: p50", float(row["50%"]), "ms"),
            (f"{name}: p95 (target < {target})", float(row["95%"]), "ms"),
            (f"{name}: p99", float(row["99%"]), "ms"),
            (f"{name}: errors", float(row["Failure Count"]), "count"),
            (f"{name}: requests", float(row["Request Count"]), "count"),
        ]
    setup = rows.get("login (setup)")
    if setup is not None:
        figures.append(
            ("login (setup): errors", float(setup["Failure Count"]), "count")
        )
    return figures


def run() -> list[tuple[str, float, str]]:
    seconds = int(os.environ.get("BENCH_LOAD_SECONDS", "60"))
    workdir = Path(tempfile.mkdtemp(prefix="cb-bench-load-"))
    env = _env(str(workdir / "media"))
    port = _free_port()
    host = f"http://127.0.0.1:{port}"
    gunicorn = None
    try:
        _recreate_database()
        _manage(env, "migrate", "--noinput", "-v", "0")
        _manage(env, "collectstatic", "--noinput", "-v", "0")
        _manage(env, "load_catalog", "-v", "0")
        _manage(env, "load_demo", "-v", "0")
        out = _manage(env, "shell", "-c", SETUP)
        line = next(x for x in out.splitlines() if x.startswith("BENCH-SETUP "))
        target = json.loads(line.removeprefix("BENCH-SETUP "))

        gunicorn = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "clusterbuy.wsgi",
                "-w",
                "2",
                "-b",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=open(workdir / "gunicorn.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        _wait_until_serving(f"{host}/login/", gunicorn)
        _warm_comparison(host, target)

        locust_env = dict(
            os.environ,
            BENCH_PROCUREMENT_ID=str(target["procurement"]),
            BENCH_USERNAME="demo-buyer",
            BENCH_PASSWORD="clusterbuy-demo",
            BENCH_TOKEN=target["token"],
            BENCH_SESSION=target["session"],
        )
        prefix = workdir / "locust"
        locust = subprocess.run(
            [
                str(BIN / "locust"),
                "-f",
                str(ROOT / "benchmarks" / "locustfile.py"),
                "--headless",
                "-u",
                str(USERS),
                "-r",
                str(SPAWN_RATE),
                "-t",
                f"{seconds}s",
                "--host",
                host,
                "--csv",
                str(prefix),
                "--only-summary",
                "--reset-stats",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=locust_env,
            capture_output=True,
            timeout=seconds + 120,
        )  # exits 1 when any request failed: the figures say which
        try:
            return _figures(Path(f"{prefix}_stats.csv"))
        except (OSError, RuntimeError) as exc:
            logs = locust.stderr.decode(errors="replace")[-3000:]
            served = (workdir / "gunicorn.log").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{exc}\nlocust:\n{logs}\ngunicorn:\n{served}") from exc
    finally:
        _stop(gunicorn)
        try:
            _drop_database()
        finally:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:58} {value:12.3f}  {unit}")
