"""The Celery application. Settings come from Django settings (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")

app = Celery("clusterbuy")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
