"""`ib_write_bw` client output (linux-rdma/perftest), in Gb/sec (--report_gbits) or
MB/sec. The graded figure is the median "BW average" over sizes >= 64 KiB (perftest's
default size is 65536 B; a sweep with -a plateaus there), in GB/s (10^9 B/s)."""

from __future__ import annotations

import re
import statistics

from .records import LogFormatError, Measurement, ParsedLog
from .text import clean_lines, to_float

_HEADER = re.compile(r"#bytes\s+#iterations\s+BW peak\[(Gb|MB|MiB)/sec\]\s+BW average")
_DEVICE = re.compile(r"Device\s*:\s*(\S+)")
_LINK = re.compile(r"Link type\s*:\s*(\S+)")
_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)")
LARGE_MESSAGE_BYTES = 65536
_TO_GBS = {"Gb": 1 / 8.0, "MB": 1e6 / 1e9, "MiB": 1048576 / 1e9}


def parse_ib_write_bw(text: str, *, node: str | None = None) -> ParsedLog:
    lines = clean_lines(text)
    if not any("RDMA_Write BW Test" in ln for ln in lines):
        raise LogFormatError("not ib_write_bw output: no 'RDMA_Write BW Test' banner")
    header = next((i for i, ln in enumerate(lines) if _HEADER.search(ln)), None)
    if header is None:
        raise LogFormatError(
            "ib_write_bw log is truncated: no result table (the server side prints"
            " none; upload the client's output)"
        )
    unit = _HEADER.search(lines[header]).group(1)
    rows, closed = [], False
    body = lines[header + 1 :]
    last = max((i for i, ln in enumerate(body) if ln.strip()), default=-1)
    for i, line in enumerate(body):
        if line.strip().startswith("---"):
            closed = True
            break
        if m := _ROW.match(line):
            rows.append((int(m.group(1)), to_float(m.group(4), "ib_write_bw BW")))
        elif line.strip():
            if i == last:  # the file ends inside this row
                raise LogFormatError(
                    f"ib_write_bw log is truncated: it ends in a row {line.strip()!r}"
                )
            raise LogFormatError(f"ib_write_bw row is corrupted: {line.strip()!r}")
    if not rows or not closed:
        raise LogFormatError(
            "ib_write_bw log is truncated: the result table is cut off"
        )
    large = [bw for size, bw in rows if size >= LARGE_MESSAGE_BYTES] or [rows[-1][1]]
    device = next((m.group(1) for ln in lines if (m := _DEVICE.search(ln))), None)
    link = next((m.group(1) for ln in lines if (m := _LINK.search(ln))), None)
    where = "/".join(x for x in (node, device) if x) or None
    size = max(s for s, _ in rows)
    value = statistics.median(large) * _TO_GBS[unit]
    return ParsedLog(
        tool="ib_write_bw",
        tool_version=None,
        operation=f"rdma_write ({link})" if link else "rdma_write",
        hosts=(node,) if node else (),
        gpu_count=None,
        measurements=(Measurement("bw_gbs", value, "GB/s", where, size),),
        failures=(),
        skipped=(),
    )
