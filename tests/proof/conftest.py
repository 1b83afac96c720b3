import shutil

import pytest

from tests.conftest import missing_service
from tests.proof.redis_support import PrivateRedis


@pytest.fixture
def private_redis(tmp_path):
    if not shutil.which("redis-server"):
        missing_service("redis-server is needed for the broker fault tests")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()
