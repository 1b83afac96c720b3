from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TcoConfig(AppConfig):
    name = "tco"
    verbose_name = _("Total cost of ownership")

    def ready(self) -> None:
        from clusterbuy.errors import register_error_translator
        from clusterbuy.registry import register_tab

        from . import labels
        from .engine import TcoInputError

        register_error_translator(
            TcoInputError,
            message=labels.error_message,
            label=labels.error_field_label,
        )

        # Register the Celery tasks in every process: the services enqueue a run
        # by task name (tco.services.RUN_TASK_NAME), never by importing tasks.
        from . import tasks  # noqa: F401

        register_tab("tco", "tco:tab")
