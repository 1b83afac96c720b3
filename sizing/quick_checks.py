"""The quick calculator's verdicts: the estimate held against the question's targets.

Each row is a figure of the engine's result (``estimate(...).to_dict()``), the target
the user gave and whether it is met, so "TPOT 686 ms" is never shown without saying
that it misses a 50 ms target. The figures are the engine's; only the comparison is
made here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clusterbuy.models import Region

PASS, FAIL, WARN = "pass", "fail", "warn"
VERDICTS = {
    PASS: gettext_lazy("meets target"),
    FAIL: gettext_lazy("misses target"),
}
_AVAILABILITY_CODES = {
    "accelerator_not_available_in_region": FAIL,
    "accelerator_availability_conditional": WARN,
}


def _row(label, value, target, unit: str, met: bool, digits: int = 0) -> dict:
    status = PASS if met else FAIL
    return {
        "label": label,
        "value": value,
        "target": target,
        "unit": unit,
        "digits": digits,
        "status": status,
        "verdict": VERDICTS[status],
    }


def _memory(result: dict) -> dict:
    memory = result["memory"]
    training = result.get("training") or {}
    fits = training.get("fits", memory["per_gpu_gb"] <= memory["capacity_gb"])
    status = PASS if fits else FAIL
    return {
        "label": _("Memory per GPU"),
        "value": memory["per_gpu_gb"],
        "target": memory["capacity_gb"],
        "unit": "GB",
        "digits": 1,
        "status": status,
        "verdict": _("fits") if fits else _("does not fit"),
    }


def _availability(data: dict, result: dict) -> dict:
    codes = {b["code"] for b in result.get("bottlenecks", [])}
    status = next((s for code, s in _AVAILABILITY_CODES.items() if code in codes), PASS)
    verdict = {
        PASS: _("can be bought"),
        WARN: _("can be bought under conditions"),
        FAIL: _("cannot be bought"),
    }[status]
    return {
        "label": _("Availability in %(region)s")
        % {"region": Region(data.get("region") or Region.GLOBAL).label},
        "value": None,
        "status": status,
        "verdict": verdict,
    }


def _gpu_count(data: dict, result: dict) -> dict | None:
    """The GPU count given against the load: kept as given (never changed silently),
    and "not met" with the count the load needs (the engine's ``gpu_count_below_load``
    finding) when its replicas cannot carry the concurrent requests."""
    given = data.get("gpu_count")
    serving = result.get("inference") or {}
    if not given or data.get("kind") == "training":
        return None
    codes = {b["code"]: b for b in result.get("bottlenecks", [])}
    load = data.get("concurrent_requests")
    label = (
        _("GPU count for %(n)s concurrent requests") % {"n": load}
        if load
        else _("GPU count")
    )
    row = {"label": label, "value": given, "target": None, "unit": _("GPUs")}
    row["digits"] = 0
    if result.get("gpu_count") != given:
        verdict = _("not met: the smallest serving layout needs %(n)s GPUs") % {
            "n": result.get("gpu_count")
        }
        return {**row, "status": FAIL, "verdict": verdict}
    finding = codes.get("gpu_count_below_load")
    if finding is None:
        return {**row, "status": PASS, "verdict": _("met")}
    needed = serving.get("gpus_needed") or 0
    verdict = (
        _("not met: the load needs %(n)s GPUs") % {"n": needed}
        if needed
        else _("not met: no GPU count of this accelerator meets the targets")
    )
    return {**row, "status": FAIL, "verdict": verdict}


def quick_checks(data: dict, result: dict) -> list[dict]:
    """Pass/fail rows for the cleaned quick form ``data`` and its estimate."""
    rows = [_availability(data, result), _memory(result)]
    count = _gpu_count(data, result)
    if count is not None:
        rows.append(count)
    serving = result.get("inference") or {}
    for name, label in (("ttft_ms", "TTFT"), ("tpot_ms", "TPOT")):
        target = data.get(name)
        if target and serving.get(name) is not None:
            value = serving[name]
            rows.append(_row(label, value, target, "ms", value <= target, 1))
    training = result.get("training") or {}
    target_days = data.get("target_days")
    if target_days and training.get("days") is not None:
        days = training["days"]
        rows.append(
            _row(
                _("Training time"), days, target_days, _("days"), days <= target_days, 1
            )
        )
    return rows
