from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TcoConfig(AppConfig):
    name = "tco"
    verbose_name = _("Total cost of ownership")

    def ready(self) -> None:
        from clusterbuy.registry import register_tab

        # Register the Celery tasks in every process: the services enqueue a run
        # by task name (tco.services.RUN_TASK_NAME), never by importing tasks.
        from . import tasks  # noqa: F401

        register_tab("tco", "tco:tab")
