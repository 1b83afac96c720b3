"""The core app. The Celery application (``clusterbuy.celery``) is loaded when Django
starts (``apps.ClusterbuyConfig.ready``) and on first use of ``celery_app``, not on
``import clusterbuy``: importing the pure rules in ``clusterbuy.engine`` must load
neither Celery nor Django (the sizing and TCO engines import them)."""

from typing import Any

__all__ = ["celery_app"]


def __getattr__(name: str) -> Any:
    if name == "celery_app":
        from .celery import app

        return app
    raise AttributeError(f"module 'clusterbuy' has no attribute {name!r}")
