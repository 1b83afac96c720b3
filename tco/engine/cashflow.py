"""Deterministic TCO: monthly cash flows of the on-prem cluster and of each cloud option.

All money is in the scenario currency. The conventions below are the whole model; they
are exported as ``CONVENTIONS`` so the report prints exactly what the engine does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .inputs import CAPEX_CATEGORIES, TcoInputs
from .version import ENGINE_VERSION

HOURS_PER_YEAR = 8760
MONTHS_PER_YEAR = 12
OPEX_CATEGORIES: tuple[str, ...] = (
    "energy",
    "colocation",
    "support",
    "software",
    "staff",
    "failures",
)
COST_CATEGORIES: tuple[str, ...] = CAPEX_CATEGORIES + OPEX_CATEGORIES + ("residual",)
CLOUD_OPTIONS: tuple[str, ...] = ("on_demand", "reserved", "spot")

CONVENTIONS: list[str] = [
    "All amounts are in the scenario currency; defaults are stored in CNY and divided "
    "by fx_usd_cny for USD scenarios.",
    "Capex is paid at month 0 (not discounted).",
    "Operating costs accrue monthly (annual amount / 12) and each year's total is "
    "discounted at the end of that year: factor 1 / (1 + discount_rate)^year.",
    "Hardware capex = gpu_servers + network + storage capex lines.",
    "Energy per year = it_power_kw x load_factor x pue x 8760 h x electricity price, "
    "escalated by electricity_escalation from year 2.",
    "Colocation per year = it_power_kw x colocation_per_kw_month x 12.",
    "Support per year = hardware capex x support_rate, paid only for months after "
    "warranty_years.",
    "Failures per year = hardware capex x annual_failure_rate x replacement_cost_share "
    "(every year, warranty cover not netted out).",
    "Staff per year = staff_fte x staff_cost_per_fte_year, escalated by "
    "staff_escalation from year 2; software_per_year is flat.",
    "Residual value = hardware capex x residual_value_rate, a negative cost at the end "
    "of the horizon (discounted with the last year).",
    "Total cost is nominal (undiscounted) with the residual subtracted; NPV discounts "
    "it as above.",
    "Useful GPU-hours = gpu_count x 8760 x utilization per year; cost per GPU-hour = "
    "total / useful GPU-hours over the horizon.",
    "Cloud buys only the useful GPU-hours at a flat price: on-demand and reserved "
    "hours = useful hours; spot hours = useful hours x (1 + spot_overhead) for work "
    "lost to interruptions.",
    "Break-even month: first month in which cumulative nominal on-prem cost "
    "(residual counted in the last month) is at or below the cloud option's; null "
    "when that never happens within the horizon.",
    "Hybrid: on-prem sized for (1 - hybrid_cloud_share) of the GPU-hours with all "
    "on-prem costs scaled linearly; the rest runs on cloud spot.",
]

#: ``CONVENTIONS`` in Chinese, item by item (same order, same formulas).
CONVENTIONS_ZH: list[str] = [
    "所有金额均以情景币种计；默认值以人民币存储，美元情景按 fx_usd_cny 折算。",
    "资本支出在第 0 个月支付（不折现）。",
    "运营成本按月计提（年度金额 / 12），每年的合计在该年年末折现："
    "折现系数为 1 / (1 + discount_rate)^year。",
    "硬件资本支出 = gpu_servers + network + storage 三类资本支出分项之和。",
    "每年电费 = it_power_kw × load_factor × pue × 8760 h × 电价，"
    "自第 2 年起按 electricity_escalation 逐年递增。",
    "每年托管费 = it_power_kw × colocation_per_kw_month × 12。",
    "每年维保费 = 硬件资本支出 × support_rate，仅在 warranty_years 保修期结束后的"
    "月份支付。",
    "每年故障更换费用 = 硬件资本支出 × annual_failure_rate × replacement_cost_share"
    "（每年计入，不扣除保修覆盖部分）。",
    "每年人员成本 = staff_fte × staff_cost_per_fte_year，自第 2 年起按 "
    "staff_escalation 逐年递增；software_per_year 各年不变。",
    "残值 = 硬件资本支出 × residual_value_rate，在周期末作为负成本计入"
    "（与最后一年一同折现）。",
    "总成本为名义值（不折现），已扣除残值；NPV 按上述方法折现。",
    "每年有效 GPU 小时 = gpu_count × 8760 × utilization；每 GPU 小时成本 = "
    "总成本 / 周期内的有效 GPU 小时。",
    "云方案只购买有效 GPU 小时，按固定单价计费：按需和预留的小时数 = 有效小时数；"
    "竞价小时数 = 有效小时数 × (1 + spot_overhead)，以计入中断造成的工作损失。",
    "盈亏平衡月：本地累计名义成本（残值计入最后一个月）首次不高于该云方案累计成本的"
    "月份；周期内始终未达到则无盈亏平衡月。",
    "混合方案：本地集群按 (1 - hybrid_cloud_share) 的 GPU 小时配置，全部本地成本按比例"
    "线性缩放；其余 GPU 小时使用云上竞价实例。",
]


def conventions(lang: str = "en") -> list[str]:
    """The model's conventions in ``lang`` ("zh..." gives Chinese, else English)."""
    return list(CONVENTIONS_ZH if lang.lower().startswith("zh") else CONVENTIONS)


@dataclass(frozen=True)
class TcoResult:
    engine_version: str
    currency: str
    horizon_years: int
    years: list[dict[str, float]]
    totals_by_category: dict[str, float]
    capex_total: float
    hardware_capex: float
    total_cost: float
    npv_cost: float
    useful_gpu_hours: float
    cost_per_gpu_hour: float
    cloud: dict[str, dict[str, float]]
    break_even_month: dict[str, int | None]
    hybrid: dict[str, float]
    energy_mwh_per_year: float
    cumulative: dict[str, list[float]]

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable; money rounded to 2 decimals."""
        return {
            "engine_version": self.engine_version,
            "currency": self.currency,
            "horizon_years": self.horizon_years,
            "years": [
                {k: (v if k == "year" else _money(v)) for k, v in row.items()}
                for row in self.years
            ],
            "totals_by_category": _money_dict(self.totals_by_category),
            "capex_total": _money(self.capex_total),
            "hardware_capex": _money(self.hardware_capex),
            "total_cost": _money(self.total_cost),
            "npv_cost": _money(self.npv_cost),
            "useful_gpu_hours": round(self.useful_gpu_hours, 2),
            "cost_per_gpu_hour": round(self.cost_per_gpu_hour, 4),
            "cloud": {
                option: {
                    "total": _money(v["total"]),
                    "npv": _money(v["npv"]),
                    "per_gpu_hour": round(v["per_gpu_hour"], 4),
                    "gpu_hours": round(v["gpu_hours"], 2),
                }
                for option, v in self.cloud.items()
            },
            "break_even_month": dict(self.break_even_month),
            "hybrid": {
                k: (round(v, 4) if k in ("cloud_share", "per_gpu_hour") else _money(v))
                for k, v in self.hybrid.items()
            },
            "energy_mwh_per_year": round(self.energy_mwh_per_year, 3),
            "cumulative": {
                k: (list(v) if k == "month" else [_money(x) for x in v])
                for k, v in self.cumulative.items()
            },
        }


def _money(value: float) -> float:
    return round(float(value), 2) + 0.0  # + 0.0 turns -0.0 into 0.0


def _money_dict(values: dict[str, float]) -> dict[str, float]:
    return {k: _money(v) for k, v in values.items()}


def year_index(horizon_years: int) -> np.ndarray:
    """Year number (1-based) of each month 1..12H."""
    return np.repeat(np.arange(1, horizon_years + 1), MONTHS_PER_YEAR)


def monthly_opex(
    inputs: TcoInputs, draws: Mapping[str, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """Operating cost per month (12 x horizon months) of each opex category.

    The engine's one opex model (see ``CONVENTIONS``). ``compute`` passes a scenario
    and gets one array of months per category. The Monte Carlo also passes
    ``draws``: for some inputs (and ``hardware_capex``) an array with one value per
    draw, which replaces the scenario value; the categories that depend on them come
    back as (draws, months) arrays, the others as (months,) arrays that broadcast.
    """

    def value(name: str) -> Any:
        if draws is not None and name in draws:
            return np.asarray(draws[name])[:, None]  # one row per draw
        return getattr(inputs, name)

    year = year_index(inputs.horizon_years)
    months = np.arange(1, year.size + 1)

    every_month = np.ones(months.size)

    def each_month(amount: Any) -> np.ndarray:
        """The same amount every month; per draw, a broadcast view (no copy)."""
        if isinstance(amount, np.ndarray):
            return np.broadcast_to(amount, amount.shape[:-1] + months.shape)
        return every_month * amount

    hardware = value("hardware_capex")
    energy_per_month = (
        value("it_power_kw")
        * value("load_factor")
        * value("pue")
        * HOURS_PER_YEAR
        * value("electricity_price_per_kwh")
        / MONTHS_PER_YEAR
    )
    after_warranty = months > inputs.warranty_years * MONTHS_PER_YEAR
    return {
        "energy": energy_per_month * (1 + inputs.electricity_escalation) ** (year - 1),
        "colocation": each_month(
            value("it_power_kw") * value("colocation_per_kw_month")
        ),
        "support": np.where(
            after_warranty, hardware * value("support_rate") / MONTHS_PER_YEAR, 0.0
        ),
        "software": each_month(value("software_per_year") / MONTHS_PER_YEAR),
        "staff": value("staff_fte")
        * value("staff_cost_per_fte_year")
        / MONTHS_PER_YEAR
        * (1 + inputs.staff_escalation) ** (year - 1),
        "failures": each_month(
            hardware
            * value("annual_failure_rate")
            * value("replacement_cost_share")
            / MONTHS_PER_YEAR
        ),
    }


def discount_factors(discount_rate: float, horizon_years: int) -> np.ndarray:
    """1 / (1 + r)^y for y = 0..H (year 0 = capex, undiscounted)."""
    return 1.0 / (1.0 + discount_rate) ** np.arange(horizon_years + 1)


def useful_gpu_hours_per_year(inputs: TcoInputs) -> float:
    return inputs.gpu_count * HOURS_PER_YEAR * inputs.utilization


def cloud_hourly_prices(inputs: TcoInputs) -> dict[str, float]:
    """Price per *useful* GPU-hour of each option (spot pays for lost hours too)."""
    return {
        "on_demand": inputs.cloud_on_demand_per_gpu_hour,
        "reserved": inputs.cloud_reserved_per_gpu_hour,
        "spot": inputs.cloud_spot_per_gpu_hour * (1 + inputs.spot_overhead),
    }


def first_month_at_or_below(
    onprem_cum: np.ndarray, cloud_cum: np.ndarray
) -> np.ndarray:
    """Break-even month along the last axis (months 0..12H); -1 when never.

    Month 0 is skipped: both sides have bought nothing useful yet.
    """
    hit = onprem_cum[..., 1:] <= cloud_cum[..., 1:]
    first = np.argmax(hit, axis=-1) + 1
    return np.where(hit.any(axis=-1), first, -1)


def _year_rows(
    inputs: TcoInputs,
    opex: dict[str, np.ndarray],
    residual: float,
    factors: np.ndarray,
) -> list[dict[str, float]]:
    """Year 0 = capex by category; years 1..H = opex by category; residual in year H."""
    horizon = inputs.horizon_years
    capex_by_cat = inputs.capex_by_category()
    year = year_index(horizon)
    rows: list[dict[str, float]] = []
    for y in range(horizon + 1):
        row: dict[str, float] = {"year": y}
        for cat in CAPEX_CATEGORIES:
            row[cat] = capex_by_cat[cat] if y == 0 else 0.0
        for cat in OPEX_CATEGORIES:
            row[cat] = float(opex[cat][year == y].sum()) if y > 0 else 0.0
        row["residual"] = -residual if y == horizon else 0.0
        row["total"] = sum(row[c] for c in COST_CATEGORIES)
        row["discount_factor"] = float(factors[y])
        row["discounted_total"] = row["total"] * float(factors[y])
        rows.append(row)
    return rows


def _onprem_cumulative(
    inputs: TcoInputs, opex: dict[str, np.ndarray], residual: float
) -> np.ndarray:
    """Cumulative nominal on-prem cost at months 0..12H (residual in the last)."""
    capex_total = inputs.capex_total
    opex_monthly = sum(opex.values())
    onprem_cum = np.concatenate(([capex_total], capex_total + np.cumsum(opex_monthly)))
    onprem_cum[-1] -= residual
    return onprem_cum


def _cloud_options(
    inputs: TcoInputs, onprem_cum: np.ndarray, factors: np.ndarray
) -> tuple[dict, dict[str, list[float]], dict[str, int | None]]:
    """Totals, cumulative cost and break-even month of each cloud option."""
    horizon = inputs.horizon_years
    months = np.arange(horizon * MONTHS_PER_YEAR + 1)
    years_discounted = float(factors[1:].sum())
    useful_per_year = useful_gpu_hours_per_year(inputs)
    spot_factor = 1 + inputs.spot_overhead
    cloud: dict[str, dict[str, float]] = {}
    cumulative: dict[str, list[float]] = {}
    break_even: dict[str, int | None] = {}
    for option, price in cloud_hourly_prices(inputs).items():
        per_year = useful_per_year * price
        hours = useful_per_year * horizon * (spot_factor if option == "spot" else 1.0)
        cloud[option] = {
            "total": per_year * horizon,
            "npv": per_year * years_discounted,
            "per_gpu_hour": price,
            "gpu_hours": hours,
        }
        cloud_cum = months * per_year / MONTHS_PER_YEAR
        cumulative[option] = cloud_cum.tolist()
        month = int(first_month_at_or_below(onprem_cum, cloud_cum))
        break_even[option] = None if month < 0 else month
    return cloud, cumulative, break_even


def _hybrid(
    share: float, total_cost: float, npv_cost: float, spot: dict, useful_hours: float
) -> dict[str, float]:
    """On-prem scaled to (1 - share) of the GPU-hours, the rest on cloud spot."""
    cloud_total = share * spot["total"]
    total = (1 - share) * total_cost + cloud_total
    return {
        "cloud_share": share,
        "onprem_total": (1 - share) * total_cost,
        "cloud_total": cloud_total,
        "total": total,
        "npv": (1 - share) * npv_cost + share * spot["npv"],
        "per_gpu_hour": total / useful_hours,
    }


def compute(inputs: TcoInputs) -> TcoResult:
    """Deterministic TCO of the scenario (see ``CONVENTIONS``)."""
    horizon = inputs.horizon_years
    hardware = inputs.hardware_capex
    residual = hardware * inputs.residual_value_rate
    opex = monthly_opex(inputs)
    factors = discount_factors(inputs.discount_rate, horizon)
    rows = _year_rows(inputs, opex, residual, factors)
    total_cost = sum(r["total"] for r in rows)
    npv_cost = sum(r["discounted_total"] for r in rows)
    useful_hours = useful_gpu_hours_per_year(inputs) * horizon
    onprem_cum = _onprem_cumulative(inputs, opex, residual)
    cloud, cloud_cumulative, break_even = _cloud_options(inputs, onprem_cum, factors)
    months = np.arange(horizon * MONTHS_PER_YEAR + 1)
    energy_mwh = (
        inputs.it_power_kw * inputs.load_factor * inputs.pue * HOURS_PER_YEAR / 1000
    )
    return TcoResult(
        engine_version=ENGINE_VERSION,
        currency=inputs.currency,
        horizon_years=horizon,
        years=rows,
        totals_by_category={c: sum(r[c] for r in rows) for c in COST_CATEGORIES},
        capex_total=inputs.capex_total,
        hardware_capex=hardware,
        total_cost=total_cost,
        npv_cost=npv_cost,
        useful_gpu_hours=useful_hours,
        cost_per_gpu_hour=total_cost / useful_hours,
        cloud=cloud,
        break_even_month=break_even,
        hybrid=_hybrid(
            inputs.hybrid_cloud_share, total_cost, npv_cost, cloud["spot"], useful_hours
        ),
        energy_mwh_per_year=energy_mwh,
        cumulative={
            "month": months.tolist(),
            "onprem": onprem_cum.tolist(),
            **cloud_cumulative,
        },
    )
