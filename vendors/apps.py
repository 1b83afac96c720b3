from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VendorsConfig(AppConfig):
    name = "vendors"
    verbose_name = _("Vendors and bids")

    def ready(self) -> None:
        from clusterbuy.models import Stage
        from clusterbuy.registry import register_stage_check, register_tab

        from .services.suppliers import shortlist_check

        register_tab("rfp", "vendors:rfp")
        register_tab("bids", "vendors:bids")
        register_tab("comparison", "vendors:comparison")
        register_tab("acceptance", "vendors:acceptance")
        register_stage_check(Stage.SHORTLIST, shortlist_check)

        from .services.stages import evaluation_closed_check

        register_stage_check(Stage.CASE_VISITS, evaluation_closed_check)

        from clusterbuy.registry import register_overview_events

        from .services.overview_events import tender_events

        register_overview_events(tender_events)

        from tco.sources import register_bid_source

        from .services.tco_source import bid_prices_sealed, tco_seed_for_bid

        register_bid_source(tco_seed_for_bid, prices_sealed=bid_prices_sealed)

        from tco.reconciliation import register_bid_cluster

        from .services.tco_source import bid_cluster

        register_bid_cluster(bid_cluster)

        from django.db.models.signals import post_delete, post_save

        from .services.caching import on_model_change

        post_save.connect(on_model_change, dispatch_uid="vendors-comparison-save")
        post_delete.connect(on_model_change, dispatch_uid="vendors-comparison-delete")

        # The portal's checks are enqueued by task name (portal.submissions).
        from . import tasks  # noqa: F401
