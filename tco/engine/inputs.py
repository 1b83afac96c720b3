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

#: The reason of every default in Chinese: the same facts and numbers as ``DEFAULTS``.
#: Plain strings (the engine knows no gettext); the report and the form pick them for
#: a Chinese page. Keep both in step when a default changes.
REASONS_ZH: dict[str, str] = {
    "horizon_years": "亚马逊（自 2025 年起）和 Meta 均按 5 年对服务器计提折旧；Epoch AI "
    "对 2023 年及以后的硬件采用 5 年服务器寿命",
    "currency": "买方为中国市场企业，默认以人民币计价",
    "fx_usd_cny": "2024-2025 年美元兑人民币中间价在 7.1-7.3 之间波动",
    "discount_rate": "设备采购的资金成本；8 % 是 Barroso 式数据中心 TCO 模型采用的利率"
    "（2025 年中国 5 年期 LPR 为 3.5 %，另加风险溢价）",
    "electricity_escalation": "中国工业电价受政府管制，扣除通胀后大体持平；"
    "如需压力测试，可填入年涨幅",
    "staff_escalation": "中国城镇单位就业人员平均工资年增长约 5-6 %"
    "（2023 年城镇非私营单位增长 5.8 %）",
    "capex": "无默认值：资本支出来自供应商报价或配置测算方案",
    "gpu_count": "8 台 8 卡服务器，典型的首期集群规模",
    "it_power_kw": "gpu_count × 10.2/8 kW：DGX H100/H200 整机最大功耗为每 8 块 GPU "
    "10.2 kW；未填写时按 gpu_count 推算",
    "load_factor": "训练服务器的平均功耗约为其 TDP 的 0.75 倍（90 % 置信区间 0.56-1.0）",
    "pue": "国家要求新建大型及超大型数据中心 PUE 不高于 1.3（2024 年行业平均值为 1.56）",
    "electricity_price_per_kwh": "中国工业平均电价约 0.088 美元/kWh（China Briefing，"
    "2024 年中国工业电价报告）× 7.2 = 0.63 元/kWh；例如江苏 1-10 kV 代理购电价格"
    "即在此量级（参考值，详见方法说明）",
    "colocation_per_kw_month": "自有机房填 0；托管机房请填报价中每 kW IT 负载的月费"
    "（北美批发价为 184.06 美元/kW/月，CBRE 2024 年下半年）",
    "support_rate": "硬件维保与技术支持合同每年约为硬件资本支出的 8-15 %",
    "warranty_years": "企业级 GPU 服务器通常随机提供 3 年备件保修",
    "software_per_year": "0 表示采用开源软件栈；NVIDIA AI Enterprise 为每块 GPU 每年 "
    "4,500 美元（H100 PCIe/H200 NVL 随卡附赠 5 年授权，DGX B200 不含）",
    "staff_fte": "此规模的集群约需一名工程师（运维、作业调度、故障维修）",
    "staff_cost_per_fte_year": "一线城市资深基础设施工程师的全口径人力成本"
    "（工资另加约 35-40 % 的社会保险和住房公积金）",
    "annual_failure_rate": "GPU 永久性更换率为每年 2.5-6 %，取中值 4 %；Llama 3 训练中"
    "因 GPU 故障导致的中断为每 GPU 年 6.1 %（上限）",
    "replacement_cost_share": "一次故障需更换一块 GPU 板卡，约为 GPU 服务器按每块 GPU "
    "折算价格的 60 %（服务器与 GPU 的成本比为 1.4-1.66）；未扣除保修覆盖部分"
    "（保守估计）",
    "residual_value_rate": "(1 - 0.32)^周期年数：加速卡每年贬值约 32 %（5 年后残值率 "
    "0.15，4 年 0.21，3 年 0.31；二手市场 3 年后为 25-35 %）；未填写时按周期推算",
    "utilization": "运维良好的私有集群中用于有效工作的 GPU 小时占比"
    "（扣除调度空档、维护和故障）",
    "cloud_on_demand_per_gpu_hour": "AWS p5（8 × H100）2025 年 6 月降价后的按需价格："
    "6.88 美元/GPU 小时 × 7.2",
    "cloud_reserved_per_gpu_hour": "3 年承诺用量：比按需价低 64 %（AWS）："
    "6.88 × 0.36 = 2.48 美元 × 7.2；与 2026 年 H100 1 年期合约 2.35-2.65 美元的"
    "价格相符",
    "cloud_spot_per_gpu_hour": "H100 竞价实例通常比按需价低 50-70 %："
    "6.88 × 0.4 = 2.75 美元 × 7.2",
    "spot_overhead": "中断造成的工作损失（从上一个检查点重算、重启）；即使在专用集群上，"
    "Llama 3 训练也损失了约 10 % 的时间",
    "hybrid_cloud_share": "需求说明中的示例：本地集群按 70 % 的 GPU 小时配置，其余 30 % "
    "突发到云上竞价实例；仅混合方案对比使用此值",
}

#: The source of every default in Chinese (publication and product names kept).
SOURCES_ZH: dict[str, str] = {
    "horizon_years": "亚马逊 2024 年 10-K 年报；Meta 2022 年 10-K 年报；"
    "Epoch AI 硬件模型（2024）",
    "currency": "ClusterBuy 约定",
    "fx_usd_cny": "中国人民银行/中国外汇交易中心人民币中间价，2024-2025 年区间"
    "（参考值，2025-06）",
    "discount_rate": "reallm Constants.py（Barroso 等，The Datacenter as a Computer）；"
    "中国人民银行 LPR，2025-05",
    "electricity_escalation": "ClusterBuy 假设（2025）",
    "staff_escalation": "国家统计局，2024-05 发布",
    "capex": "用户输入",
    "gpu_count": "ClusterBuy 假设",
    "it_power_kw": "NVIDIA DGX H100/H200 用户指南（2023-2025）",
    "load_factor": "Epoch AI 模型参数 server_TDP_fraction（2024）",
    "pue": "工业和信息化部《新型数据中心发展三年行动计划（2021-2023年）》，2021-07；"
    "Uptime Institute 2024 年全球数据中心调查",
    "electricity_price_per_kwh": "China Briefing 2024；国家电网电价表",
    "colocation_per_kw_month": "CBRE 北美数据中心趋势报告 2024 年下半年（2025-02-26）",
    "support_rate": "Sesterce GPU TCO 计算器说明文档（2025）",
    "warranty_years": "OEM 标准条款（戴尔、HPE、浪潮），2024，参考值",
    "software_per_year": "NVIDIA 2024 财年第三季度财报电话会（2023-11）；"
    "NVIDIA 授权指南",
    "staff_fte": "ClusterBuy 假设",
    "staff_cost_per_fte_year": "ClusterBuy 估算（2025），参考值；美国 SRE 为 15-25 万"
    "美元（Sesterce 说明文档）",
    "annual_failure_rate": "research-viewer GPU 故障综述（2025）；Meta，"
    "The Llama 3 Herd of Models（2024-07）",
    "replacement_cost_share": "Epoch AI 服务器/GPU 成本比；SemiAnalysis 物料清单"
    "（2023-2024）",
    "residual_value_rate": "Epoch AI 经济折旧每年 0.14 个数量级（2024）；"
    "v2-pseo GPU TCO（2025）",
    "utilization": "ClusterBuy 假设（2025），置信度低",
    "cloud_on_demand_per_gpu_hour": "datareceipts 109-gpu-pricing（2025）；"
    "AWS P5 降价公告，2025-06",
    "cloud_reserved_per_gpu_hour": "Epoch AI DEFAULT_CUD（2024）；SemiAnalysis"
    "（经二手来源，2026）",
    "cloud_spot_per_gpu_hour": "AWS 竞价实例价格页；deploybase/devopsbeast"
    "（2025-2026），置信度低",
    "spot_overhead": "Meta，The Llama 3 Herd of Models（2024-07）；ClusterBuy 假设",
    "hybrid_cloud_share": "ClusterBuy 需求说明",
}


def _is_chinese(lang: str) -> bool:
    return lang.lower().startswith("zh")


def default_reason(name: str, lang: str = "en") -> str:
    """Why the default of ``name`` is what it is, in ``lang`` ("zh..." or English)."""
    if _is_chinese(lang):
        return REASONS_ZH[name]
    return DEFAULTS[name].reason


def default_source(name: str, lang: str = "en") -> str:
    """Where the default of ``name`` comes from, in ``lang`` ("zh..." or English)."""
    if _is_chinese(lang):
        return SOURCES_ZH[name]
    return DEFAULTS[name].source


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
