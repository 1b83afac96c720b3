from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SizingConfig(AppConfig):
    name = "sizing"
    verbose_name = _("Sizing")

    def ready(self) -> None:
        from clusterbuy.errors import register_error_translator
        from clusterbuy.registry import CheckResult, register_stage_check, register_tab

        from . import input_errors, services
        from .engine import SizingInputError

        register_error_translator(
            SizingInputError,
            message=input_errors.error_message,
            label=input_errors.field_label,
        )

        register_tab("requirements", "sizing:requirements")
        register_tab("sizing", "sizing:plan")

        def workloads_described(procurement) -> CheckResult:
            return CheckResult(
                _("Workloads described (needs for 1–3 years)"),
                services.has_workloads_and_plan(procurement),
                _("Describe at least one workload and compute a sizing plan."),
            )

        register_stage_check(1, workloads_described)
