"""A bid as the start of a TCO scenario (registered with tco.sources, which cannot
import this app): the bid's normalisation, so the scenario's TCO is the bid's
normalised TCO to the cent, under the one visibility rule."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError
from tco.models import ScenarioSource
from tco.services import cloud_prices_for
from tco.sources import ScenarioSeed, label_capex

from ..comparison import pricing
from ..comparison.labels import category_label
from ..models import Bid, Decision
from ..visibility import visibility_for
from . import plan_facts


def bid_prices_sealed(*, procurement: Procurement, user) -> bool:
    return visibility_for(procurement=procurement, user=user).prices_hidden


def tco_seed_for_bid(*, procurement: Procurement, bid_id: int, user) -> ScenarioSeed:
    """The scenario of ``bid_id`` (a bid of ``procurement``) for ``user``: refused
    with PermissionDenied when the sealed envelope hides prices from them."""
    bid = (
        Bid.objects.for_procurement(procurement)
        .select_related("vendor")
        .prefetch_related("line_items")
        .filter(pk=bid_id)
        .first()
    )
    if bid is None:
        raise ServiceError(_("There is no such bid in this procurement."), field="bid")
    visibility = visibility_for(procurement=procurement, user=user)
    if visibility.prices_hidden:
        raise PermissionDenied(
            _(
                "Prices are sealed until you submit your technical scores: a TCO "
                "from this bid would show them."
            )
        )
    priced = pricing.bid_lines(bid) if pricing.lines_are_valid(bid) else None
    plan = plan_facts.plan_summary(procurement=procurement)
    tco = pricing.bid_tco(bid, priced, procurement=procurement, plan=plan)
    if tco is None:
        raise ServiceError(
            _("The bid has invalid figures: its TCO cannot be computed."), field="bid"
        )
    inputs = dict(tco.inputs)
    inputs["capex"] = label_capex(inputs["capex"], category_label)
    # The cloud alternative for the bid's own accelerator (an H20 bid is never
    # compared with H100 rental rates); none published: the engine's defaults.
    inputs.update(
        cloud_prices_for(
            accelerator=bid.accelerator,
            region=procurement.region,
            currency=inputs["currency"],
        )
        or {}
    )
    return ScenarioSeed(
        ScenarioSource.BID,
        bid.pk,
        # By id, not vendor: the name is shown to blind viewers too.
        _("Bid %(id)s (TCO)") % {"id": bid.pk},
        inputs,
        tco.normalized_tco,
    )


def bid_cluster(*, procurement: Procurement, bid_id: int) -> dict | None:
    """What tco.reconciliation pairs a bid's scenario with the plan's by: the bid's
    accelerator and whether it is the chosen bid (None: no such bid)."""
    bid = Bid.objects.for_procurement(procurement).filter(pk=bid_id).first()
    if bid is None:
        return None
    chosen = Decision.objects.filter(procurement=procurement, bid_id=bid_id).exists()
    return {"accelerator": bid.accelerator, "chosen": chosen}
