from django.apps import AppConfig
from django.core.signals import request_started
from django.utils.translation import gettext_lazy as _


class ClusterbuyConfig(AppConfig):
    name = "clusterbuy"
    verbose_name = _("ClusterBuy")

    def ready(self) -> None:
        # The Celery app exists before any task is sent (clusterbuy/__init__.py);
        # the system checks register themselves.
        from . import celery, checks, task_runner, text  # noqa: F401

        # Control characters are refused by every form and serializer text field.
        text.install_boundary()

        # Without a broker, the web process sweeps stuck runs as workers do.
        request_started.connect(
            task_runner.start_embedded_beat, dispatch_uid="clusterbuy-embedded-beat"
        )
