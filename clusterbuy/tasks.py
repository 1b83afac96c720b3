from celery import shared_task

from . import services


@shared_task(acks_late=True)
def ping(token: str) -> None:
    """A trivial task that writes to the database: proof a worker is wired up."""
    from celery import current_task

    services.record_ping(token=token, hostname=current_task.request.hostname or "")
