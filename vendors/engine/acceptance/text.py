"""Bytes to text and to JSON, failing with a reason: the shared front of every parser."""

from __future__ import annotations

import json
import re
import statistics

from .records import LogFormatError

# `mpirun --tag-output` ("[1,0]<stdout>:") and `srun --label` ("    0: ") prefixes.
_LINE_PREFIX = re.compile(r"^(?:\[\d+,\d+\]<std(?:out|err)>:|\s*\d+: )")
# A plateau starts at 1 GiB: nccl-tests' maintainer warns that 256 MB "is too small
# to reach peak bandwidth" (NVIDIA/nccl-tests#212) and the published 8-GPU figures
# are read at 4-8 GB; below this floor no collective figure is graded.
PLATEAU_MIN_BYTES = 1 << 30
# Rows at or above a quarter of the largest size tested, and above the floor, make
# the plateau; its figure is their median, so one lucky or unlucky size cannot decide.
PLATEAU_FRACTION_OF_MAX = 0.25


def decode_text(data: bytes, tool: str) -> str:
    """UTF-8 text (a BOM and Windows line ends tolerated), or a LogFormatError."""
    if not data or not data.strip():
        raise LogFormatError(f"{tool} log is empty")
    if b"\x00" in data[:4096]:
        raise LogFormatError(f"{tool} log is binary, not the tool's text output")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(
            f"{tool} log is not UTF-8 text (byte {exc.start} unreadable)"
        ) from None
    return text.replace("\r\n", "\n")


def clean_lines(text: str) -> list[str]:
    """Lines with MPI / srun rank labels removed."""
    return [_LINE_PREFIX.sub("", line, count=1) for line in text.split("\n")]


def load_json_document(text: str, tool: str) -> object:
    """The first JSON object in the text: tools print banners before it (dcgmi's
    "Successfully ran diagnostic", fio's job lines with --output-format=json,normal)."""
    start = text.find("{")
    if start < 0:
        raise LogFormatError(f"{tool} log holds no JSON object")
    try:
        document, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError as exc:
        where = "ends early" if exc.pos >= len(text[start:].rstrip()) - 1 else "breaks"
        raise LogFormatError(
            f"{tool} JSON is truncated or corrupted: it {where} at line {exc.lineno}"
            f" column {exc.colno} ({exc.msg})"
        ) from None
    return document


def to_float(token: str, what: str) -> float:
    try:
        return float(token)
    except ValueError:
        raise LogFormatError(f"corrupted {what}: {token!r} is not a number") from None


def plateau(rows: list[tuple[int, float]]) -> tuple[float, int] | None:
    """(median figure, smallest size) of the large-message plateau, or None when no
    size reached PLATEAU_MIN_BYTES."""
    if not rows:
        return None
    largest = max(size for size, _ in rows)
    floor = max(PLATEAU_MIN_BYTES, largest * PLATEAU_FRACTION_OF_MAX)
    chosen = [(size, value) for size, value in rows if size >= floor]
    if not chosen:
        return None
    return statistics.median(v for _, v in chosen), min(s for s, _ in chosen)
