"""Scale-up (NVLink) generation and bandwidth, and NIC speed claims."""

from __future__ import annotations

import re

from sizing.engine.catalog import Accelerator

from .facts import (
    BANDWIDTH_TOLERANCE,
    GPUS_PER_SERVER,
    NIC_MAX_GBPS,
    NIC_SOURCE,
    ClaimKind,
    ClaimStatus,
    SpecClaim,
)
from .reading import (
    MAX_MATCHES,
    NUMBER,
    Found,
    find,
    fmt,
    missing,
    nearest,
    numbers_around,
    within,
)

_ORDINALS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_WORDS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6}
GENERATION = re.compile(
    r"NVLink\s*(?:gen\s*|v)?(?P<g>[1-6])(?:\.0)?(?![\d.])"
    r"|(?:第(?P<zh>[一二三四五六])代|(?P<ord>[3-6])(?:th|rd)[- ]gen(?:eration)?"
    r"|(?P<word>third|fourth|fifth|sixth)[- ]gen(?:eration)?)\s*NVLink",
    re.IGNORECASE,
)
_SHEET_GENERATION = re.compile(r"NVLink\s*(\d)", re.IGNORECASE)
BANDWIDTH = re.compile(
    NUMBER + r"\s*(?P<u>GB/s|GBps|GB/秒|TB/s|TBps|TB/秒)", re.IGNORECASE
)
SCALEUP = re.compile(
    r"NVLink|NVSwitch|scale[- ]up|互联|互连|卡间|GPU\s?间|GPU-to-GPU|xGMI"
    r"|Infinity Fabric|HCCS|P2P",
    re.IGNORECASE,
)
NOT_SCALEUP = re.compile(
    r"显存|HBM|memory|内存|网卡|NIC|InfiniBand|(?<![A-Za-z])IB(?![A-Za-z])|RoCE"
    r"|PCIe|存储|storage|以太网|Ethernet|网络|network",
    re.IGNORECASE,
)
DIRECTION = re.compile(
    r"(?P<one>unidirectional|per direction|each way|one way|单向|每方向|每个方向)"
    r"|bidirectional|both directions|双向|total|aggregate|总",
    re.IGNORECASE,
)
SERVER = re.compile(
    r"per (?:server|node)|每台|整机|每节点|DGX|HGX|(?<!\d)8[- ]?GPU|(?<!\d)8\s*卡"
    r"|total|aggregate|总",
    re.IGNORECASE,
)


def _generation(match: re.Match) -> int:
    if match.group("g"):
        return int(match.group("g"))
    if match.group("zh"):
        return _ORDINALS[match.group("zh")]
    if match.group("ord"):
        return int(match.group("ord"))
    return _WORDS[match.group("word").lower()]


def generation_claims(texts: list[str], sheet: Accelerator | None) -> list[SpecClaim]:
    claims = []
    for match, found in find(GENERATION, texts, sheet):
        claimed = f"NVLink {_generation(match)}"
        status, datasheet, source = _generation_status(claimed, sheet)
        claims.append(
            SpecClaim(
                ClaimKind.SCALEUP_GENERATION,
                found.snippet,
                (claimed,) * 2,
                datasheet,
                status,
                source,
            )
        )
    return claims


def _generation_status(claimed: str, sheet: Accelerator | None):
    link = sheet.scaleup_link.strip() if sheet else ""
    if sheet is None or not link:
        return (ClaimStatus.UNVERIFIABLE, *missing(sheet, "scale-up link"))
    datasheet = (f"{link} ({sheet.name})",) * 2
    match = _SHEET_GENERATION.search(link)
    if match is None and "nvlink" in link.lower():
        return (ClaimStatus.UNVERIFIABLE, *missing(sheet, "NVLink generation"))
    expected = f"NVLink {match.group(1)}" if match else None
    status = ClaimStatus.OK if claimed == expected else ClaimStatus.MISMATCH
    return status, datasheet, sheet.source


def _is_scaleup(found: Found) -> bool:
    """A scale-up word closer before the figure than any memory/network word, or one
    right after it ("900 GB/s NVLink")."""
    before = found.before(40)
    last_up = max((m.end() for m in SCALEUP.finditer(before)), default=-1)
    last_other = max((m.end() for m in NOT_SCALEUP.finditer(before)), default=-1)
    if last_up > last_other:
        return True
    after = re.split(r"[，,。；;]", found.after(14), maxsplit=1)[0]
    return bool(SCALEUP.match(after.strip()))


def bandwidth_claims(texts: list[str], sheet: Accelerator | None) -> list[SpecClaim]:
    claims = []
    for match, found in find(BANDWIDTH, texts, sheet):
        if not _is_scaleup(found):
            continue
        gbs = found.value * (1000 if match.group("u").upper().startswith("T") else 1)
        direction = nearest(DIRECTION, *numbers_around(found))
        one_way = bool(direction and direction.group("one"))
        server = bool(SERVER.search(found.before(40)))
        claims.append(_bandwidth_claim(found, sheet, gbs, one_way, server))
    return claims


def _bandwidth_claim(found, sheet, gbs, one_way, server) -> SpecClaim:
    direction = ("per direction", "单向") if one_way else ("", "")
    claimed = (
        f"{fmt(gbs)} GB/s {direction[0]}".strip(),
        f"{fmt(gbs)} GB/s {direction[1]}".strip(),
    )
    if sheet is None or sheet.scaleup_gbs is None:
        link = sheet.scaleup_link.strip().lower() if sheet else ""
        if sheet is not None and link.startswith("none"):
            datasheet = (f"{sheet.scaleup_link} ({sheet.name})",) * 2
            status, source = ClaimStatus.MISMATCH, sheet.source
        else:
            datasheet, source = missing(sheet, "scale-up bandwidth")
            status = ClaimStatus.UNVERIFIABLE
        return SpecClaim(
            ClaimKind.SCALEUP_GBS, found.snippet, claimed, datasheet, status, source
        )
    both = sheet.scaleup_gbs
    # Per GPU: the bidirectional figure; a per-direction claim is half of it (and an
    # unlabelled half is the per-direction figure, an understatement, not an error).
    expected = [both / 2] if one_way else [both, both / 2]
    divisors = [1, GPUS_PER_SERVER] if server else [1]
    ok = any(
        within(gbs / d, e, BANDWIDTH_TOLERANCE) for d in divisors for e in expected
    )
    datasheet = (
        f"{fmt(both)} GB/s per GPU, both directions ({fmt(both / 2)} each way; "
        f"{sheet.scaleup_link}, {sheet.name})",
        f"每卡双向 {fmt(both)} GB/s（单向 {fmt(both / 2)}；{sheet.scaleup_link}，"
        f"{sheet.name}）",
    )
    status = ClaimStatus.OK if ok else ClaimStatus.MISMATCH
    return SpecClaim(
        ClaimKind.SCALEUP_GBS, found.snippet, claimed, datasheet, status, sheet.source
    )


NIC_NAME = re.compile(
    r"(?<![A-Za-z])(?:(?P<ib>EDR|HDR|NDR|XDR)(?P<split>\d{3})?"
    r"|(?:ConnectX|CX)[-\s]?(?P<cx>[678])|(?:BlueField|BF)[-\s]?3(?P<bf>))"
    r"(?![A-Za-z0-9])",
)
NIC_SPEED = re.compile(
    NUMBER + r"\s*(?P<u>Gb/s|Gbps|Gbit/s|GbE|Gb|GB/s|GB|G)(?![A-Za-z0-9/])"
)
_NEAR_CHARS = 16


def _nic_key(match: re.Match) -> tuple[str, str]:
    if match.group("ib"):
        return match.group("ib"), f"InfiniBand {match.group('ib')}"
    if match.group("cx"):
        return f"CX{match.group('cx')}", f"ConnectX-{match.group('cx')}"
    return "BF3", "BlueField-3"


def nic_claims(texts: list[str]) -> list[SpecClaim]:
    claims: list[SpecClaim] = []
    for sentence in texts:
        if len(claims) >= MAX_MATCHES:
            break
        names = list(NIC_NAME.finditer(sentence))
        speeds = list(NIC_SPEED.finditer(sentence))
        for name in names:
            key, label = _nic_key(name)
            if name.group("split"):
                gbps, snippet = float(name.group("split")), name.group(0)
            else:
                speed = _nearest_speed(name, speeds)
                if speed is None:
                    continue
                gbps = float(speed.group("n").replace(",", ""))
                gbps *= 8 if speed.group("u") == "GB/s" else 1
                span = (min(name.start(), speed.start()), max(name.end(), speed.end()))
                snippet = sentence[span[0] : span[1]]
            claims.append(_nic_claim(snippet, gbps, key, label))
    return claims


def _nearest_speed(name: re.Match, speeds: list[re.Match]) -> re.Match | None:
    def gap(speed: re.Match) -> int:
        if speed.start() >= name.end():
            return speed.start() - name.end()
        return name.start() - speed.end()

    near = [s for s in speeds if 0 <= gap(s) <= _NEAR_CHARS]
    return min(near, key=gap) if near else None


def _nic_claim(snippet: str, gbps: float, key: str, label: str) -> SpecClaim:
    top = NIC_MAX_GBPS[key]
    ok = gbps <= top
    return SpecClaim(
        ClaimKind.NIC_GBPS,
        snippet,
        (f"{fmt(gbps)} Gb/s {label}",) * 2,
        (f"{label}: at most {top} Gb/s per port", f"{label}：每端口最高 {top} Gb/s"),
        ClaimStatus.OK if ok else ClaimStatus.MISMATCH,
        NIC_SOURCE,
    )
