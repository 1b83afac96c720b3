import uuid

import pytest

from clusterbuy.models import TaskPing
from clusterbuy.tasks import ping
from tests.conftest import wait_for


@pytest.mark.services
def test_real_celery_worker_writes_to_the_database(celery_worker):
    token = uuid.uuid4().hex
    ping.delay(token)
    row = wait_for(lambda: TaskPing.objects.filter(token=token).first(), timeout_s=30)
    assert row.worker_hostname.startswith(f"test-{celery_worker.queue}@")


def test_tasks_run_in_process_without_a_broker(db, settings):
    token = uuid.uuid4().hex
    ping.delay(token)
    assert TaskPing.objects.filter(token=token).exists()
