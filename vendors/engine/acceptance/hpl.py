"""HPL output (HPL.out or xhpl stdout; netlib HPL 2.x and NVIDIA's HPL builds).

Each result line ("WR12R2R4  114000  768  1  1  885.42  1.1155e+03") is paired
with its residual check "||Ax-b||... = 4.0e-03 ...... PASSED". A FAILED residual
fails the run whatever the GFLOPS; a log whose result lines outnumber its residual
checks, or without HPL's "End of Tests." line, was cut off.
"""

from __future__ import annotations

import re

from .records import LogFormatError, Measurement, ParsedLog
from .text import clean_lines, to_float

_RESULT = re.compile(
    r"^\s*(W[RC]\S*)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.eE+-]+)\s+([\d.eE+-]+)"
)
_RESIDUAL = re.compile(r"^\s*\|\|Ax-b\|\|.*=\s*(\S+)\s+\.+\s*(PASSED|FAILED)")
_VERSION = re.compile(r"^\s*(HPLinpack\s+\S+|HPL-NVIDIA\s+\S+|HPL-AI\s+\S+)")


def parse_hpl(text: str) -> ParsedLog:
    lines = clean_lines(text)
    version = next((m.group(1) for ln in lines if (m := _VERSION.match(ln))), None)
    results, residuals = [], []
    for line in lines:
        if m := _RESULT.match(line):
            results.append(m.groups())
        elif m := _RESIDUAL.match(line):
            residuals.append((m.group(1), m.group(2)))
    if not results:
        if version:
            raise LogFormatError(
                "HPL log is truncated: no result line (T/V ... Gflops)"
            )
        raise LogFormatError("not HPL output: no HPLinpack header or result line")
    if len(residuals) < len(results) or not any("End of Tests" in x for x in lines):
        raise LogFormatError(
            f"HPL log is truncated: {len(results)} result line(s),"
            f" {len(residuals)} residual check(s), no 'End of Tests.'"
        )
    failures = []
    best = None
    for (variant, n, _nb, p, q, _time, gflops), (residual, verdict) in zip(
        results, residuals, strict=False
    ):
        tflops = to_float(gflops, "HPL Gflops") / 1000.0
        if verdict == "FAILED":
            failures.append(f"residual check FAILED ({residual}) for {variant} N={n}")
        elif best is None or tflops > best[0]:
            best = (tflops, int(p) * int(q))
    measurements = () if best is None else (Measurement("tflops", best[0], "TFLOPS"),)
    nvidia = bool(version and version.startswith("HPL-NVIDIA"))
    return ParsedLog(
        tool="hpl",
        tool_version=version,
        operation="linpack",
        hosts=(),
        gpu_count=best[1] if best and nvidia else None,
        measurements=measurements,
        failures=tuple(failures),
        skipped=(),
    )
