from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VendorsConfig(AppConfig):
    name = "vendors"
    verbose_name = _("Vendors and bids")

    def ready(self) -> None:
        from clusterbuy.models import Stage
        from clusterbuy.registry import register_stage_check, register_tab

        from .services import shortlist_check

        register_tab("bids", "vendors:bids")
        register_tab("comparison", "vendors:comparison")
        register_stage_check(Stage.SHORTLIST, shortlist_check)
