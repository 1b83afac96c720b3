"""Memory per GPU (GB) and HBM generation claims."""

from __future__ import annotations

import re

from sizing.engine.catalog import Accelerator

from .facts import MEMORY_TOLERANCE, ClaimKind, ClaimStatus, SpecClaim
from .reading import MODEL_RE, NUMBER, Found, find, fmt, missing, within

_GB = r"\s*GB(?!\s*/\s*[sS秒]|ps)"
_MEMORY_WORD = r"(?:HBM\w*|显存|VRAM|GPU memory|graphics memory|memory per GPU)"
PATTERNS = (
    # "H100 96GB", "H100 NVL 94 GB", "H20-96GB"
    re.compile(
        MODEL_RE.pattern
        + r"(?:[\s-]*(?:NVL(?!ink)|PCIe|SXM\d?))?[\s-]*"
        + NUMBER
        + _GB,
        re.IGNORECASE,
    ),
    # "96 GB HBM3e", "80GB 显存", "141 GB of HBM3e"
    re.compile(NUMBER + _GB + r"\s*(?:of\s+)?" + _MEMORY_WORD, re.IGNORECASE),
    # "显存 96GB", "显存容量为 141 GB", "HBM3e 141GB", "GPU memory: 80 GB"
    re.compile(
        r"(?:HBM\d?e?|显存(?:容量)?|VRAM|GPU memory|memory per GPU)"
        r"(?:\s|[:：为是]|of)*" + NUMBER + _GB,
        re.IGNORECASE,
    ),
)
# A total over a server or the cluster, not per GPU.
_TOTAL = re.compile(
    r"total|总|合计|per (?:server|node)|每台|整机|每节点|集群|cluster",
    re.IGNORECASE,
)
TYPE_PATTERN = re.compile(r"(?<![A-Za-z0-9])HBM\s?(?P<g>2e|3e|2|3)(?![0-9])", re.I)
_SHEET_TYPE = re.compile(r"HBM\s?(\d)(e)?", re.IGNORECASE)


def _per_gpu(found: Found, sheet: Accelerator | None) -> bool:
    """Not a total: no "total"/"per server" beside it, and not the 8-GPU server's
    memory ("DGX H200 1,128 GB" = 8 x 141 GB)."""
    if _TOTAL.search(found.before(12)) or _TOTAL.search(found.after(14)):
        return False
    server = None if sheet is None or sheet.memory_gb is None else 8 * sheet.memory_gb
    return server is None or not within(found.value, server, MEMORY_TOLERANCE)


def memory_claims(texts: list[str], sheet: Accelerator | None) -> list[SpecClaim]:
    seen: set[tuple[str, int]] = set()
    claims = []
    for pattern in PATTERNS:
        for _match, found in find(pattern, texts, sheet):
            if (found.sentence, found.start) in seen or not _per_gpu(found, sheet):
                continue
            seen.add((found.sentence, found.start))
            claims.append(_memory_claim(found, sheet))
    return claims


def _memory_claim(found: Found, sheet: Accelerator | None) -> SpecClaim:
    claimed = f"{fmt(found.value)} GB"
    if sheet is None or sheet.memory_gb is None:
        datasheet, source = missing(sheet, "memory")
        status = ClaimStatus.UNVERIFIABLE
    else:
        datasheet = (f"{fmt(sheet.memory_gb)} GB ({sheet.name})",) * 2
        source = sheet.source
        ok = within(found.value, sheet.memory_gb, MEMORY_TOLERANCE)
        status = ClaimStatus.OK if ok else ClaimStatus.MISMATCH
    return SpecClaim(
        ClaimKind.MEMORY_GB, found.snippet, (claimed,) * 2, datasheet, status, source
    )


def sheet_memory_type(sheet: Accelerator) -> str:
    """ "HBM3e" from "HBM3e", "HBM2e (per SemiAnalysis)"; the text as is for GDDR."""
    match = _SHEET_TYPE.search(sheet.memory_type)
    if match is None:
        return sheet.memory_type.strip()
    return f"HBM{match.group(1)}{'e' if match.group(2) else ''}"


def memory_type_claims(texts: list[str], sheet: Accelerator | None) -> list[SpecClaim]:
    claims = []
    for match, found in find(TYPE_PATTERN, texts, sheet):
        claimed = f"HBM{match.group('g').lower()}"
        if sheet is None or not sheet.memory_type:
            datasheet, source = missing(sheet, "memory type")
            status = ClaimStatus.UNVERIFIABLE
        else:
            expected = sheet_memory_type(sheet)
            datasheet = (f"{expected} ({sheet.name})",) * 2
            source = sheet.source
            ok = claimed == expected
            status = ClaimStatus.OK if ok else ClaimStatus.MISMATCH
        claims.append(
            SpecClaim(
                ClaimKind.MEMORY_TYPE,
                found.snippet,
                (claimed,) * 2,
                datasheet,
                status,
                source,
            )
        )
    return claims
