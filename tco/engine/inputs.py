"""TCO scenario inputs: the frozen dataclass, its documented defaults and validation.

Defaults are stored in CNY (ClusterBuy's buyers are China-market companies). When a
scenario is in USD, every *money* default the user did not give is divided by
``fx_usd_cny``; values the user gave are taken as they are, in the scenario currency.
Sources for every default are in ``DEFAULTS`` and in docs/methodology.md, Part B.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from typing import Any

CAPEX_CATEGORIES: tuple[str, ...] = (
    "gpu_servers",
    "network",
    "storage",
    "facility",
    "installation",
    "software_once",
    "other",
)
HARDWARE_CATEGORIES: tuple[str, ...] = ("gpu_servers", "network", "storage")
CURRENCIES: tuple[str, ...] = ("CNY", "USD")

#: Average-to-peak IT power per GPU used to derive ``it_power_kw`` when not given:
#: DGX H100/H200 maximum system power 10.2 kW for 8 GPUs (NVIDIA DGX H100/H200 user
#: guide, 6 x 3.3 kW PSUs, 4+2).
IT_POWER_KW_PER_GPU = 10.2 / 8
#: Economic depreciation of accelerators: 0.14 orders of magnitude per year of
#: price-performance, about 32 % value lost per year (Epoch AI, Hobbhahn et al. 2023).
ECONOMIC_DEPRECIATION_PER_YEAR = 0.32


class TcoInputError(ValueError):
    """A scenario input is invalid; ``field`` names it as the form/API knows it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Default:
    value: Any
    reason: str
    source: str
    money: bool = False  # stored in CNY; converted with fx_usd_cny for USD scenarios


@dataclass(frozen=True)
class CapexLine:
    category: str
    description: str
    amount: float


@dataclass(frozen=True)
class TcoInputs:
    horizon_years: int = 5
    currency: str = "CNY"
    fx_usd_cny: float = 7.2
    discount_rate: float = 0.08
    electricity_escalation: float = 0.0
    staff_escalation: float = 0.05
    capex: tuple[CapexLine, ...] = ()
    gpu_count: int = 64
    it_power_kw: float = 64 * IT_POWER_KW_PER_GPU
    load_factor: float = 0.75
    pue: float = 1.3
    electricity_price_per_kwh: float = 0.63
    colocation_per_kw_month: float = 0.0
    support_rate: float = 0.10
    warranty_years: float = 3.0
    software_per_year: float = 0.0
    staff_fte: float = 1.0
    staff_cost_per_fte_year: float = 400_000.0
    annual_failure_rate: float = 0.04
    replacement_cost_share: float = 0.6
    residual_value_rate: float = 0.15
    utilization: float = 0.7
    cloud_on_demand_per_gpu_hour: float = 49.54
    cloud_reserved_per_gpu_hour: float = 17.83
    cloud_spot_per_gpu_hour: float = 19.81
    spot_overhead: float = 0.15
    hybrid_cloud_share: float = 0.3
    user_fields: frozenset[str] = field(default_factory=frozenset)

    def capex_by_category(self) -> dict[str, float]:
        totals = dict.fromkeys(CAPEX_CATEGORIES, 0.0)
        for line in self.capex:
            totals[line.category] += line.amount
        return totals

    @property
    def capex_total(self) -> float:
        return float(sum(line.amount for line in self.capex))

    @property
    def hardware_capex(self) -> float:
        """gpu_servers + network + storage: the base of support, failures, residual."""
        by_cat = self.capex_by_category()
        return sum(by_cat[c] for c in HARDWARE_CATEGORIES)


_CHINA_TARIFF = (
    "China average industrial tariff ~0.088 USD/kWh (China Briefing, 'China's "
    "Industrial Power Rates', 2024) x 7.2 = 0.63 CNY/kWh; e.g. Jiangsu 1-10 kV "
    "agency-purchase tariffs are of this order (indicative, see methodology)"
)

DEFAULTS: dict[str, Default] = {
    "horizon_years": Default(
        5,
        "Servers are depreciated over 5 years by Amazon (from 2025) and Meta; Epoch "
        "uses a 5-year server life for hardware from 2023 on",
        "Amazon 10-K 2024; Meta 10-K 2022; Epoch AI hardware model (2024)",
    ),
    "currency": Default("CNY", "China-market buyers", "ClusterBuy convention"),
    "fx_usd_cny": Default(
        7.2,
        "USD/CNY central parity traded around 7.1-7.3 through 2024-2025",
        "PBOC/CFETS central parity, 2024-2025 range (indicative, 2025-06)",
    ),
    "discount_rate": Default(
        0.08,
        "Cost of capital for an equipment purchase; 8 % is the interest rate used in "
        "Barroso-style datacenter TCO models (China 5-year LPR 3.5 % in 2025 plus a "
        "risk premium)",
        "reallm Constants.py (Barroso et al., The Datacenter as a Computer); PBOC LPR "
        "2025-05",
    ),
    "electricity_escalation": Default(
        0.0,
        "Chinese industrial tariffs are regulated and have been roughly flat in real "
        "terms; set a rate to stress it",
        "ClusterBuy assumption (2025)",
    ),
    "staff_escalation": Default(
        0.05,
        "Average wage growth of urban employees in China was about 5-6 % a year "
        "(2023: +5.8 % non-private units)",
        "National Bureau of Statistics of China, 2024-05 release",
    ),
    "capex": Default(
        (),
        "No default: capex comes from the vendor bids or the sizing plan",
        "user input",
    ),
    "gpu_count": Default(
        64, "Eight 8-GPU servers, a typical first cluster", "ClusterBuy assumption"
    ),
    "it_power_kw": Default(
        64 * IT_POWER_KW_PER_GPU,
        "gpu_count x 10.2/8 kW: DGX H100/H200 maximum system power 10.2 kW per 8 "
        "GPUs; derived from gpu_count when not given",
        "NVIDIA DGX H100/H200 user guide (2023-2025)",
    ),
    "load_factor": Default(
        0.75,
        "Average power of a training server is about 0.75 x its TDP (90 % CI 0.56-1.0)",
        "Epoch AI server_TDP_fraction (2024)",
    ),
    "pue": Default(
        1.3,
        "China requires new large and hyperscale data centres to reach PUE <= 1.3 "
        "(industry average 1.56 in 2024)",
        "MIIT 新型数据中心发展三年行动计划(2021-2023), 2021-07; Uptime Institute Global "
        "Data Center Survey 2024",
    ),
    "electricity_price_per_kwh": Default(
        0.63, _CHINA_TARIFF, "China Briefing 2024; State Grid tariff tables", True
    ),
    "colocation_per_kw_month": Default(
        0.0,
        "0 for an on-premises room; for colocation enter the quoted price per kW of "
        "IT load (N. America wholesale 184.06 USD/kW/month, CBRE H2 2024)",
        "CBRE North America Data Center Trends H2 2024 (2025-02-26)",
        True,
    ),
    "support_rate": Default(
        0.10,
        "Hardware maintenance/support contracts cost 8-15 % of hardware capex a year",
        "Sesterce GPU TCO calculator README (2025)",
    ),
    "warranty_years": Default(
        3.0,
        "Enterprise GPU servers usually ship with a 3-year parts warranty",
        "OEM standard terms (Dell, HPE, Inspur), 2024 - indicative",
    ),
    "software_per_year": Default(
        0.0,
        "0 assumes an open-source stack; NVIDIA AI Enterprise is 4,500 USD per GPU "
        "per year (included for 5 years with H100 PCIe/H200 NVL, not with DGX B200)",
        "NVIDIA earnings call Q3 FY24 (2023-11); NVIDIA licensing guide",
        True,
    ),
    "staff_fte": Default(
        1.0,
        "About one engineer for a cluster of this size (ops, scheduling, repairs)",
        "ClusterBuy assumption",
    ),
    "staff_cost_per_fte_year": Default(
        400_000.0,
        "Fully loaded cost of a senior infrastructure engineer in a tier-1 Chinese "
        "city (salary plus ~35-40 % social insurance and housing fund)",
        "ClusterBuy estimate (2025), indicative; US SRE 150-250k USD (Sesterce README)",
        True,
    ),
    "annual_failure_rate": Default(
        0.04,
        "Permanent GPU replacements 2.5-6 % a year, central 4 %; Llama 3 training saw "
        "faulty-GPU interruptions at 6.1 % per GPU-year (upper bound)",
        "research-viewer GPU failure synthesis (2025); Meta, The Llama 3 Herd of Models "
        "(2024-07)",
    ),
    "replacement_cost_share": Default(
        0.6,
        "A failure replaces a GPU board, about 60 % of a GPU server's price per GPU "
        "(server/GPU cost ratio 1.4-1.66); warranty cover is not netted out "
        "(conservative)",
        "Epoch AI server/GPU cost ratios; SemiAnalysis BoM (2023-2024)",
    ),
    "residual_value_rate": Default(
        0.15,
        "(1 - 0.32)^horizon: accelerators lose ~32 % of value a year (0.15 at 5 years, "
        "0.21 at 4, 0.31 at 3; market 25-35 % after 3 years); derived from the "
        "horizon when not given",
        "Epoch AI economic depreciation 0.14 OOM/yr (2024); v2-pseo GPU TCO (2025)",
    ),
    "utilization": Default(
        0.7,
        "Share of GPU-hours doing useful work in a well-run private cluster "
        "(scheduling gaps, maintenance, failures)",
        "ClusterBuy assumption (2025), low confidence",
    ),
    "cloud_on_demand_per_gpu_hour": Default(
        49.54,
        "AWS p5 (8 x H100) on-demand after the June 2025 price cut: 6.88 USD/GPU-hour "
        "x 7.2",
        "datareceipts 109-gpu-pricing (2025); AWS P5 price cut 2025-06",
        True,
    ),
    "cloud_reserved_per_gpu_hour": Default(
        17.83,
        "3-year commitment: 64 % off on-demand (AWS): 6.88 x 0.36 = 2.48 USD x 7.2; "
        "consistent with 1-year H100 contracts at 2.35-2.65 USD in 2026",
        "Epoch AI DEFAULT_CUD (2024); SemiAnalysis via secondary sources (2026)",
        True,
    ),
    "cloud_spot_per_gpu_hour": Default(
        19.81,
        "H100 spot typically 50-70 % below on-demand: 6.88 x 0.4 = 2.75 USD x 7.2",
        "AWS Spot pricing page; deploybase/devopsbeast (2025-2026), low confidence",
        True,
    ),
    "spot_overhead": Default(
        0.15,
        "Work lost to interruptions (redo since the last checkpoint, restart); even "
        "dedicated Llama 3 training lost ~10 % of time",
        "Meta, The Llama 3 Herd of Models (2024-07); ClusterBuy assumption",
    ),
    "hybrid_cloud_share": Default(
        0.3,
        "Example from the issue: on-prem sized for 70 % of the GPU-hours, 30 % burst "
        "to cloud spot; only the hybrid comparison uses it",
        "ClusterBuy issue text",
    ),
}

MONEY_FIELDS: frozenset[str] = frozenset(k for k, d in DEFAULTS.items() if d.money)

# (low, high, low_inclusive, high_inclusive) for every bounded float field.
_BOUNDS: dict[str, tuple[float, float, bool, bool]] = {
    "fx_usd_cny": (0.0, math.inf, False, False),
    "discount_rate": (0.0, 1.0, True, True),
    "electricity_escalation": (-0.5, 1.0, True, True),
    "staff_escalation": (-0.5, 1.0, True, True),
    "it_power_kw": (0.0, math.inf, True, False),
    "load_factor": (0.0, 1.0, False, True),
    "pue": (1.0, 5.0, True, True),
    "electricity_price_per_kwh": (0.0, math.inf, True, False),
    "colocation_per_kw_month": (0.0, math.inf, True, False),
    "support_rate": (0.0, 1.0, True, True),
    "warranty_years": (0.0, 10.0, True, True),
    "software_per_year": (0.0, math.inf, True, False),
    "staff_fte": (0.0, math.inf, True, False),
    "staff_cost_per_fte_year": (0.0, math.inf, True, False),
    "annual_failure_rate": (0.0, 1.0, True, True),
    "replacement_cost_share": (0.0, 1.0, True, True),
    "residual_value_rate": (0.0, 1.0, True, True),
    "utilization": (0.0, 1.0, False, True),
    "cloud_on_demand_per_gpu_hour": (0.0, math.inf, True, False),
    "cloud_reserved_per_gpu_hour": (0.0, math.inf, True, False),
    "cloud_spot_per_gpu_hour": (0.0, math.inf, True, False),
    "spot_overhead": (0.0, 5.0, True, True),
    "hybrid_cloud_share": (0.0, 1.0, True, True),
}
_INPUT_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(TcoInputs) if f.name != "user_fields"
)


def _number(value: Any, field_name: str) -> float:
    if isinstance(value, bool) or value is None:
        raise TcoInputError(field_name, "must be a number")
    if isinstance(value, int | float | Decimal):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise TcoInputError(field_name, "must be a number") from None
    else:
        raise TcoInputError(field_name, "must be a number")
    if not math.isfinite(number):
        raise TcoInputError(field_name, "must be a finite number (not NaN or infinity)")
    return number


def _bounded(value: Any, name: str) -> float:
    number = _number(value, name)
    low, high, low_inc, high_inc = _BOUNDS[name]
    too_low = number < low or (number == low and not low_inc)
    too_high = number > high or (number == high and not high_inc)
    if too_low or too_high:
        if name == "pue":
            raise TcoInputError(name, "PUE must be between 1 and 5")
        if high == 1.0 and low == 0.0:
            raise TcoInputError(name, "must be a share between 0 and 1")
        if high == math.inf:
            raise TcoInputError(
                name, "must not be negative" if low_inc else "must be > 0"
            )
        raise TcoInputError(name, f"must be between {low:g} and {high:g}")
    return number


def _integer(value: Any, name: str) -> int:
    number = _number(value, name)
    if number != int(number):
        raise TcoInputError(name, "must be a whole number")
    return int(number)


def _capex(value: Any) -> tuple[CapexLine, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise TcoInputError("capex", "must be a list of capex lines")
    lines = []
    for i, raw in enumerate(value):
        if isinstance(raw, CapexLine):
            raw = {
                "category": raw.category,
                "description": raw.description,
                "amount": raw.amount,
            }
        if not isinstance(raw, dict):
            raise TcoInputError(f"capex.{i}", "must be an object")
        unknown = set(raw) - {"category", "description", "amount"}
        if unknown:
            raise TcoInputError(f"capex.{i}.{sorted(unknown)[0]}", "unknown field")
        category = raw.get("category")
        if category not in CAPEX_CATEGORIES:
            raise TcoInputError(
                f"capex.{i}.category",
                f"unknown capex category {category!r}; expected one of "
                + ", ".join(CAPEX_CATEGORIES),
            )
        amount = _number(raw.get("amount"), f"capex.{i}.amount")
        if amount < 0:
            raise TcoInputError(f"capex.{i}.amount", "must not be negative")
        description = raw.get("description") or ""
        if not isinstance(description, str):
            raise TcoInputError(f"capex.{i}.description", "must be text")
        lines.append(CapexLine(category, description, amount))
    return tuple(lines)


def _user_fields(value: Any) -> frozenset[str]:
    """The recorded user fields: a list of input names (anything else is an error)."""
    if value is None:
        return frozenset()
    if not isinstance(value, list | tuple | set | frozenset):
        raise TcoInputError("user_fields", "must be a list of input names")
    for item in value:
        if not isinstance(item, str):
            raise TcoInputError("user_fields", "must be a list of input names")
        if item not in _INPUT_FIELDS:
            raise TcoInputError("user_fields", f"unknown field {item!r}")
    return frozenset(value)


def inputs_from_dict(data: dict) -> TcoInputs:
    """Validate a scenario, fill defaults, and record which fields the user gave.

    ``data`` may carry ``user_fields`` (as written by :func:`inputs_to_dict`); otherwise
    the keys present (and not ``None``) are the user's fields. Raises
    :class:`TcoInputError` naming the first bad field.
    """
    if not isinstance(data, dict):
        raise TcoInputError("__all__", "inputs must be an object")
    unknown = set(data) - set(_INPUT_FIELDS) - {"user_fields"}
    if unknown:
        raise TcoInputError(sorted(unknown)[0], "unknown input")
    given = {k: v for k, v in data.items() if k != "user_fields" and v is not None}
    if "user_fields" in data:
        user_fields = _user_fields(data["user_fields"])
    else:
        user_fields = frozenset(given)

    values: dict[str, Any] = {}
    horizon = _integer(
        given.get("horizon_years", DEFAULTS["horizon_years"].value), "horizon_years"
    )
    if horizon not in (3, 4, 5):
        raise TcoInputError("horizon_years", "horizon must be 3, 4 or 5 years")
    values["horizon_years"] = horizon

    currency = given.get("currency", "CNY")
    if currency not in CURRENCIES:
        raise TcoInputError("currency", "currency must be CNY or USD")
    values["currency"] = currency

    gpu_count = _integer(
        given.get("gpu_count", DEFAULTS["gpu_count"].value), "gpu_count"
    )
    if gpu_count < 1:
        raise TcoInputError("gpu_count", "must be at least 1")
    values["gpu_count"] = gpu_count
    values["capex"] = _capex(given.get("capex"))

    for name in _BOUNDS:
        if name in given:
            values[name] = _bounded(given[name], name)
    fx = values.setdefault("fx_usd_cny", DEFAULTS["fx_usd_cny"].value)

    for name in _BOUNDS:
        if name in values:
            continue
        if name == "it_power_kw":
            values[name] = gpu_count * IT_POWER_KW_PER_GPU
        elif name == "residual_value_rate":
            values[name] = round((1 - ECONOMIC_DEPRECIATION_PER_YEAR) ** horizon, 2)
        elif name in MONEY_FIELDS and currency == "USD":
            values[name] = round(DEFAULTS[name].value / fx, 4)
        else:
            values[name] = float(DEFAULTS[name].value)
    return TcoInputs(**values, user_fields=user_fields)


def inputs_to_dict(inputs: TcoInputs) -> dict:
    """JSON-serialisable and round-trippable: ``inputs_from_dict(inputs_to_dict(x)) == x``."""
    out: dict[str, Any] = {}
    for name in _INPUT_FIELDS:
        value = getattr(inputs, name)
        if name == "capex":
            value = [
                {
                    "category": c.category,
                    "description": c.description,
                    "amount": c.amount,
                }
                for c in value
            ]
        out[name] = value
    out["user_fields"] = sorted(inputs.user_fields)
    return out


def defaults_used(inputs: TcoInputs) -> list[str]:
    """Input names whose value is a default (the report marks them)."""
    return [name for name in _INPUT_FIELDS if name not in inputs.user_fields]


def with_values(inputs: TcoInputs, **changes: Any) -> TcoInputs:
    """A copy with some fields replaced (no re-validation: callers keep values in range)."""
    return replace(inputs, **changes)
