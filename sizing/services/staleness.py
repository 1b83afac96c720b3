"""Whether a stored plan still answers the procurement's requirement and workloads.

A plan stores the snapshot it was computed from (``plan_inputs``); after an edit of the
questionnaire, a workload or the procurement's facts, the snapshot of today differs and
the sizing and RFP tabs say the plan is out of date. Compared as JSON, the way it is
stored, so that a float read back from the database equals the one written.
"""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder

from clusterbuy.models import Procurement

from ..models import SizingPlan, Workload
from .plans import plan_inputs
from .requirements import requirement_for

# Added to a workload of the snapshot after computing (``plans._model_facts``).
_DERIVED = ("model_name", "params_b")


def _comparable(inputs: dict) -> str:
    data = json.loads(json.dumps(inputs, cls=DjangoJSONEncoder))
    for item in data.get("workloads", []):
        for key in _DERIVED:
            item.pop(key, None)
    return json.dumps(data, sort_keys=True)


def plan_is_stale(*, procurement: Procurement, plan: SizingPlan | None) -> bool:
    """True when the requirement, a workload or a procurement fact changed since
    ``plan`` was computed (False without a plan: there is nothing out of date)."""
    if plan is None:
        return False
    current = plan_inputs(
        requirement=requirement_for(procurement=procurement),
        workloads=list(Workload.objects.for_procurement(procurement)),
    )
    return _comparable(current) != _comparable(plan.inputs)
