"""Server power claims (kW per 8-GPU server), in the text and in the peak power field."""

from __future__ import annotations

import math
import re

from sizing.engine.catalog import Accelerator

from .facts import (
    GPUS_PER_SERVER,
    SERVER_POWER_MAX_SHARE,
    SERVER_POWER_MIN_SHARE,
    SERVER_POWER_TYPICAL_MIN_SHARE,
    BidSpec,
    ClaimKind,
    ClaimStatus,
    SpecClaim,
)
from .reading import NUMBER, Found, find, fmt, missing

PATTERN = re.compile(NUMBER + r"\s*(?:kW|千瓦)(?![A-Za-z])", re.IGNORECASE)
SERVER = re.compile(
    r"server|node|服务器|整机|节点|每台|单机|DGX|HGX|(?<!\d)8[- ]?GPU|(?<!\d)8\s*卡"
    r"|(?<!\d)8\s*[x×X]\s*[A-Za-z]",
    re.IGNORECASE,
)
# Power of something else than one 8-GPU server.
OTHER = re.compile(
    r"rack|机柜|cluster|集群|total|总|合计|IT load|机房|数据中心|data cent|PUE"
    r"|per GPU|每卡|单卡|每 GPU|(?<!\d)(?:[1-79]|1[0-6])\s*(?:-?GPU|卡)",
    re.IGNORECASE,
)
TYPICAL = re.compile(r"typical|typ\.|典型|平均|average|常规", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[，,。；;、（(]")


def _after_clause(found: Found) -> str:
    return _CLAUSE_END.split(found.after(14), maxsplit=1)[0]


def server_power_claims(texts: list[str], sheet: Accelerator | None) -> list[SpecClaim]:
    claims = []
    for _match, found in find(PATTERN, texts, sheet):
        before = _CLAUSE_END.split(found.before(40))[-1]
        after = _after_clause(found)
        if not SERVER.search(before + " " + after) or OTHER.search(before + after):
            continue
        typical = bool(TYPICAL.search(before + after))
        claims.append(_claim(found.snippet, found.value, sheet, typical))
    return claims


def _claim(snippet: str, kw: float, sheet: Accelerator | None, typical: bool):
    claimed = (f"{fmt(kw)} kW per 8-GPU server", f"每台 8 卡服务器 {fmt(kw)} kW")
    if typical:
        claimed = (claimed[0] + " (typical)", claimed[1] + "（典型）")
    if sheet is None or sheet.server_8gpu_max_kw is None:
        datasheet, source = missing(sheet, "8-GPU server power")
        return SpecClaim(
            ClaimKind.SERVER_POWER_KW,
            snippet,
            claimed,
            datasheet,
            ClaimStatus.UNVERIFIABLE,
            source,
        )
    peak = sheet.server_8gpu_max_kw
    low = SERVER_POWER_TYPICAL_MIN_SHARE if typical else SERVER_POWER_MIN_SHARE
    ok = low * peak <= kw <= SERVER_POWER_MAX_SHARE * peak
    datasheet = (
        f"{fmt(peak)} kW max per 8-GPU server ({sheet.name}); "
        f"ok {fmt(low * peak)}–{fmt(SERVER_POWER_MAX_SHARE * peak)} kW",
        f"每台 8 卡服务器最大 {fmt(peak)} kW（{sheet.name}）；"
        f"合理范围 {fmt(low * peak)}–{fmt(SERVER_POWER_MAX_SHARE * peak)} kW",
    )
    note = ("", "")
    if kw < low * peak:
        note = (
            f"{round(100 * kw / peak)}% of the platform maximum",
            f"仅为平台最大功耗的 {round(100 * kw / peak)}%",
        )
    status = ClaimStatus.OK if ok else ClaimStatus.MISMATCH
    return SpecClaim(
        ClaimKind.SERVER_POWER_KW,
        snippet,
        claimed,
        datasheet,
        status,
        sheet.source,
        note,
    )


def peak_power_claims(bid: BidSpec, sheet: Accelerator | None) -> list[SpecClaim]:
    """The bid's peak power over its 8-GPU servers: flagged only when below 80% of
    the platform maximum (the field may include the fabric, storage and cooling)."""
    gpus, peak_kw = bid.gpu_count, bid.peak_power_kw
    if not gpus or gpus < GPUS_PER_SERVER or not peak_kw or sheet is None:
        return []
    if sheet.server_8gpu_max_kw is None:
        return []
    if bid.nodes and bid.nodes * GPUS_PER_SERVER != gpus:
        return []  # not 8-GPU servers: no platform maximum to compare with
    servers = bid.nodes or math.ceil(gpus / GPUS_PER_SERVER)
    per_server = peak_kw / servers
    peak = sheet.server_8gpu_max_kw
    ok = per_server >= SERVER_POWER_MIN_SHARE * peak
    claim = f"{fmt(peak_kw)} kW ÷ {servers}"  # the peak power field over the servers
    return [
        SpecClaim(
            ClaimKind.SERVER_POWER_KW,
            claim,
            (
                f"{fmt(per_server)} kW per 8-GPU server ({fmt(peak_kw)} kW / "
                f"{servers} servers)",
                f"每台 8 卡服务器 {fmt(per_server)} kW（{fmt(peak_kw)} kW / {servers} 台）",
            ),
            (
                f"{fmt(peak)} kW max per 8-GPU server ({sheet.name}); "
                f"at least {fmt(SERVER_POWER_MIN_SHARE * peak)} kW",
                f"每台 8 卡服务器最大 {fmt(peak)} kW（{sheet.name}）；"
                f"至少 {fmt(SERVER_POWER_MIN_SHARE * peak)} kW",
            ),
            ClaimStatus.OK if ok else ClaimStatus.MISMATCH,
            sheet.source,
        )
    ]
