"""Tensor throughput claims: TFLOPS per precision, dense or with sparsity."""

from __future__ import annotations

import math
import re

from sizing.engine.catalog import Accelerator

from .facts import (
    GPUS_PER_SERVER,
    TFLOPS_TOLERANCE,
    ClaimKind,
    ClaimStatus,
    SpecClaim,
)
from .reading import NUMBER, Found, find, fmt, missing, nearest, numbers_around, within

PATTERN = re.compile(
    NUMBER + r"\s*(?P<u>T|Tera|P|Peta)\s?(?:FLOPS|FLOPs|FLOP/s|OPS|F(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
PRECISION = re.compile(
    r"(?<![A-Za-z0-9])(NVFP4|MXFP4|FP4|FP8|BF16|FP16|INT8|TF32|FP32|FP64)(?![0-9])",
    re.IGNORECASE,
)
_CATALOG_PRECISIONS = {
    "BF16": "BF16",
    "FP16": "FP16",
    "FP8": "FP8",
    "INT8": "INT8",
    "FP4": "FP4",
    "NVFP4": "FP4",
    "MXFP4": "FP4",
}
DENSE = re.compile(
    r"without sparsity|no sparsity|非稀疏|不含稀疏|dense|稠密|密集", re.IGNORECASE
)
SPARSE = re.compile(r"sparsity|sparse|稀疏|2:4", re.IGNORECASE)
SERVER = re.compile(
    r"per (?:server|node)|each (?:server|node)|每台|整机|单机|每节点|每个节点|DGX|HGX"
    r"|(?<!\d)8[- ]?GPU|(?<!\d)8\s*卡|(?<!\d)8\s*[x×X]\s*[A-Za-z]",
    re.IGNORECASE,
)
TOTAL = re.compile(r"total|aggregate|cluster|总|集群|合计", re.IGNORECASE)


def label_of(before: str, after: str) -> str:
    """ "dense", "sparse" or "" (not said), read after the figure first."""
    for text in (after, before):
        if DENSE.search(text):
            return "dense"
        if SPARSE.search(text):
            return "sparse"
    return ""


def _scales(found: Found, gpu_count: int | None) -> list[tuple[int, str, str]]:
    """(divisor, en, zh) the figure may be a total over: one GPU, an 8-GPU server
    when the sentence names one, the cluster when it says total."""
    head = found.sentence[: found.start]
    scales = [(1, "", "")]
    if SERVER.search(head):
        scales.append((GPUS_PER_SERVER, "per 8-GPU server", "每台 8 卡服务器"))
    if TOTAL.search(head) and gpu_count:
        scales.append((gpu_count, f"for {gpu_count} GPUs", f"{gpu_count} 卡合计"))
    return scales


def _closest(per_gpu_values: list[float], dense: float) -> int:
    def distance(value: float) -> float:
        return min(abs(math.log(value / dense)), abs(math.log(value / (2 * dense))))

    return min(range(len(per_gpu_values)), key=lambda i: distance(per_gpu_values[i]))


def tflops_claims(
    texts: list[str], sheet: Accelerator | None, gpu_count: int | None
) -> list[SpecClaim]:
    claims = []
    said: dict[str, str] = {}  # sentence -> the precision last named in it
    for match, found in find(PATTERN, texts, sheet):
        if found.value <= 0:
            continue
        before, after = numbers_around(found)
        named = nearest(PRECISION, before, after)
        # "BF16 1,979 TFLOPS with sparsity (989 dense)": the precision carries over.
        precision = named.group(1).upper() if named else said.get(found.sentence, "")
        said[found.sentence] = precision
        unit = match.group("u").upper()[0]
        claims.append(
            _tflops_claim(
                found,
                sheet,
                found.value * (1000 if unit == "P" else 1),
                precision,
                label_of(before, after),
                gpu_count,
            )
        )
    return claims


def _claimed_text(found, precision, label, per_gpu, scale) -> tuple[str, str]:
    labels = {"dense": ("dense", "稠密"), "sparse": ("with sparsity", "稀疏")}
    en_label, zh_label = labels.get(label, ("not labelled", "未标注稠密/稀疏"))
    head = found.sentence[found.start : found.end]
    en = f"{head} {precision} ({en_label})".replace("  ", " ")
    zh = f"{head} {precision}（{zh_label}）".replace("  ", " ")
    if scale[0] != 1:
        en += f" {scale[1]} = {fmt(per_gpu)} per GPU"
        zh += f"，{scale[2]} = 每卡 {fmt(per_gpu)}"
    return en, zh


def _tflops_claim(found, sheet, tflops, precision, label, gpu_count) -> SpecClaim:
    catalog = _CATALOG_PRECISIONS.get(precision)
    dense = sheet.dense(catalog) if sheet is not None and catalog else None
    scales = _scales(found, gpu_count)
    if dense:
        scale = scales[_closest([tflops / s[0] for s in scales], dense)]
    else:
        scale = scales[0]
    per_gpu = tflops / scale[0]
    claimed = _claimed_text(found, precision, label, per_gpu, scale)
    if not precision:
        datasheet = ("precision not stated", "未注明精度")
        return SpecClaim(
            ClaimKind.TFLOPS,
            found.snippet,
            claimed,
            datasheet,
            ClaimStatus.UNVERIFIABLE,
            sheet.source if sheet else "",
        )
    if not dense:
        datasheet, source = missing(sheet, f"{precision} TFLOPS")
        return SpecClaim(
            ClaimKind.TFLOPS,
            found.snippet,
            claimed,
            datasheet,
            ClaimStatus.UNVERIFIABLE,
            source,
        )
    status, note = _judge(per_gpu, dense, label)
    datasheet = (
        f"{fmt(dense)} dense / {fmt(2 * dense)} with sparsity, {precision} per GPU "
        f"({sheet.name})",
        f"稠密 {fmt(dense)} / 稀疏 {fmt(2 * dense)}，{precision}，每卡（{sheet.name}）",
    )
    return SpecClaim(
        ClaimKind.TFLOPS, found.snippet, claimed, datasheet, status, sheet.source, note
    )


def _judge(per_gpu: float, dense: float, label: str) -> tuple[ClaimStatus, tuple]:
    if label == "sparse":
        if within(per_gpu, 2 * dense, TFLOPS_TOLERANCE):
            return ClaimStatus.OK, ("", "")
        return ClaimStatus.MISMATCH, ("", "")
    if within(per_gpu, dense, TFLOPS_TOLERANCE):
        return ClaimStatus.OK, ("", "")
    if within(per_gpu, 2 * dense, TFLOPS_TOLERANCE):
        return ClaimStatus.MISMATCH, (
            "the sparse (2:4) figure, sold as dense",
            "把稀疏（2:4）算力当作稠密算力",
        )
    return ClaimStatus.MISMATCH, ("", "")
