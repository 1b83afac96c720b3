from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TcoConfig(AppConfig):
    name = "tco"
    verbose_name = _("Total cost of ownership")

    def ready(self) -> None:
        from clusterbuy.registry import register_tab

        register_tab("tco", "tco:tab")
