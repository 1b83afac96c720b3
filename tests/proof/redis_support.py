"""A throw-away redis-server for the fault tests (never the shared 6379, which other
test sessions use)."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
from pathlib import Path

from tests.conftest import wait_for


class PrivateRedis:
    """A throw-away redis-server on a spare port that keeps nothing on restart."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.port = self._spare_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    @staticmethod
    def _spare_port() -> int:
        for _ in range(50):
            port = 6390 + random.randrange(2000)
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError("no spare port for redis-server")

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5)

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def answers():
            try:
                return self.client().ping()
            except Exception:  # noqa: BLE001 - still starting
                return False

        wait_for(answers, timeout_s=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()
