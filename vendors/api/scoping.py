"""The procurement (and bid) a nested API route names, fetched through the one access
rule: another organisation's ids answer 404."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from clusterbuy.access import access_procurement

from ..models import Bid


class ProcurementScopedMixin:
    def procurement(self):
        if not hasattr(self, "_procurement"):
            self._procurement = access_procurement(
                self.request.user, self.kwargs["procurement_pk"]
            )
        return self._procurement

    def bid(self) -> Bid:
        if not hasattr(self, "_bid"):
            self._bid = get_object_or_404(
                Bid.objects.for_procurement(self.procurement()).select_related(
                    "procurement", "vendor"
                ),
                pk=self.kwargs["bid_pk"],
            )
        return self._bid
