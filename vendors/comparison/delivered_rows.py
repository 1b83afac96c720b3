"""The comparison table's "Delivered capability" rows, as plain row specs: what each
bid's GPUs deliver for every planned workload (`comparison.delivered`), next to the
plan and the vendor's own promise. `table.py` turns them into cells, so the page, the
PDF and the workbook show the same rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from sizing.input_errors import delivered_error

from .result import Column


@dataclass
class RowSpec:
    label: str
    values: list[Any]  # numbers (best/worst marked) or, with ``text``, strings
    higher: bool | None = True  # None: numbers, none marked best or worst
    text: bool = False
    fmt: Callable[[Any], str] | None = None
    details: list[list[str]] = field(default_factory=list)
    number_format: str = ""  # the workbook's (Excel) number format


def _days(value: Any) -> str:
    return "—" if value is None else f"{value:.1f}"


def _tokens(value: Any) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _offer_text(column: Column) -> str:
    delivered = column.delivered
    if delivered is None:
        count = column.bid.checked("gpu_count")
        return f"{'—' if count is None else count} × {column.bid.accelerator}"
    return f"{delivered['gpu_count']} × {delivered['accelerator_name']}"


def _offer_row(cols: list[Column]) -> RowSpec:
    offers = [c.delivered for c in cols]
    details = []
    for d in offers:
        lines = []
        if d is not None:
            plan = d["plan"]
            lines.append(
                _("plan: %(count)s × %(name)s")
                % {"count": plan["gpu_count"], "name": plan["accelerator_name"]}
            )
            if d.get("error"):
                lines.append(_("not sized: %(error)s") % {"error": delivered_error(d)})
        details.append(lines)
    return RowSpec(
        _("GPUs offered"), [_offer_text(c) for c in cols], text=True, details=details
    )


def compute_share(delivered: dict | None) -> float | None:
    """The bid's effective compute as a share of the plan's (1.0: exactly the plan);
    None without a sized offer or a plan figure to measure it against."""
    if delivered is None:
        return None
    needed, offered = delivered["plan"]["compute_pflops"], delivered["compute_pflops"]
    return offered / needed if needed and offered is not None else None


def _compute_row(offers: list[dict | None]) -> RowSpec:
    details = []
    for d in offers:
        share = compute_share(d)
        details.append(
            [
                _("%(share)s of the plan's %(needed)s")
                % {
                    "share": f"{share:.0%}",
                    "needed": f"{d['plan']['compute_pflops']:.1f}",
                }
            ]
            if d is not None and share is not None
            else []
        )
    precision = next((d["precision"].upper() for d in offers if d), "BF16")
    return RowSpec(
        _("Effective compute (PFLOPS, %(precision)s dense)") % {"precision": precision},
        [d["compute_pflops"] if d else None for d in offers],
        higher=True,
        fmt=lambda v: "—" if v is None else f"{v:.1f}",
        details=details,
        number_format="#,##0.0",
    )


def _workloads(offers: list[dict | None]) -> list[dict]:
    """The planned workloads (the same for every sized bid)."""
    return max((d["workloads"] for d in offers if d), key=len, default=[])


def _entry(delivered: dict | None, index: int) -> dict | None:
    if delivered is None or index >= len(delivered["workloads"]):
        return None
    return delivered["workloads"][index]


def _fit_detail(entry: dict | None) -> list[str]:
    if entry is None:
        return []
    if entry.get("error"):
        return [_("not sized: %(error)s") % {"error": delivered_error(entry)}]
    if entry.get("fits") is False:
        return [_("does not fit in GPU memory")]
    return []


def _around_detail(entry: dict | None, column: Column) -> list[str]:
    """The bid's network and storage against what the run needs at its size: the
    engine's days assume the traffic hides behind compute and checkpoints fit the
    stall budget."""
    if entry is None:
        return []
    lines = []
    checks = (
        (
            "network_gbps_per_gpu",
            "network_need_gbps_per_gpu",
            _(
                "network %(offered)s Gb/s per GPU is below the %(need)s Gb/s this "
                "run needs: the days are optimistic"
            ),
        ),
        (
            "storage_write_gbs",
            "storage_write_need_gbs",
            _(
                "storage writes %(offered)s GB/s, below the %(need)s GB/s checkpoints "
                "need"
            ),
        ),
    )
    for figure, need_key, text in checks:
        offered, need = column.bid.checked(figure), entry.get(need_key)
        if offered is not None and need and offered < need:
            lines.append(text % {"offered": f"{offered:g}", "need": f"{need:.1f}"})
    return lines


def _training_row(name: str, index: int, cols: list[Column]) -> RowSpec:
    offers = [c.delivered for c in cols]
    entries = [_entry(d, index) for d in offers]
    details = []
    for e, column in zip(entries, cols, strict=True):
        lines = _fit_detail(e) + _around_detail(e, column)
        if e and e.get("training_days") is not None:
            needed = e.get("target_days") or e.get("plan_training_days")
            lines.append(
                _("needed %(needed)s, plan %(plan)s")
                % {"needed": _days(needed), "plan": _days(e["plan_training_days"])}
            )
        details.append(lines)
    return RowSpec(
        _("Training time: %(workload)s (days)") % {"workload": name},
        [e.get("training_days") if e else None for e in entries],
        higher=False,
        fmt=_days,
        details=details,
        number_format="#,##0.0",
    )


def _serving_row(name: str, index: int, offers: list[dict | None]) -> RowSpec:
    entries = [_entry(d, index) for d in offers]
    details = []
    for e in entries:
        lines = _fit_detail(e)
        if e and e.get("meets_latency") is False:
            lines.append(_("misses the latency targets"))
        elif e and e.get("tokens_per_second") is not None:
            lines.append(
                _(
                    "%(count)s concurrent requests at the latency targets (need %(need)s)"
                )
                % {
                    "count": e["concurrent_requests"],
                    "need": e.get("required_concurrent_requests") or "—",
                }
            )
        details.append(lines)
    return RowSpec(
        _("Serving capacity: %(workload)s (tokens/s)") % {"workload": name},
        [
            e.get("tokens_per_second") if e and e.get("meets_latency") else None
            for e in entries
        ],
        higher=True,
        fmt=_tokens,
        details=details,
        number_format="#,##0",
    )


def _promise_row(
    label: str, cols: list[Column], figure: str, fmt, number_format: str
) -> RowSpec:
    """The vendor's own figure, beside the engine's (no best/worst: a promise is not
    a capability)."""
    return RowSpec(
        label,
        [c.bid.checked(figure) for c in cols],
        higher=None,
        fmt=fmt,
        number_format=number_format,
    )


def delivered_row_specs(cols: list[Column]) -> list[RowSpec]:
    """GPUs offered, effective compute, then per planned workload the delivered
    training days or serving capacity, and the vendor's promises beside them."""
    offers = [c.delivered for c in cols]
    specs = [_offer_row(cols), _compute_row(offers)]
    kinds = set()
    for index, workload in enumerate(_workloads(offers)):
        if workload["kind"] in ("training", "fine_tuning"):
            kinds.add("training")
            specs.append(_training_row(workload["name"], index, cols))
        else:
            kinds.add("inference")
            specs.append(_serving_row(workload["name"], index, offers))
    if "training" in kinds:
        specs.append(
            _promise_row(
                _("Training time promised by the vendor (days)"),
                cols,
                "promised_training_days",
                _days,
                "#,##0.0",
            )
        )
    if "inference" in kinds:
        specs.append(
            _promise_row(
                _("Serving throughput promised by the vendor (tokens/s)"),
                cols,
                "promised_tokens_per_s",
                _tokens,
                "#,##0",
            )
        )
    return specs
