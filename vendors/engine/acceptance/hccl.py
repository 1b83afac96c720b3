"""hccl_test output (Huawei CANN "HCCL Test" tool, e.g. ./bin/all_reduce_test).

Columns per Huawei's guide (hiascend.com, HCCL performance tester, 结果说明):
data_size (bytes per NPU), aveg_time (us; the documentation prints "avg_time", the
binary "aveg_time"), alg_bandwidth (GB/s, data size / time: algorithm bandwidth, not
nccl's bus bandwidth) and check_result (success | failed | NULL when the check was
off or out of range). Graded on the large-message plateau of alg_bandwidth.
"""

from __future__ import annotations

import re

from .records import LogFormatError, Measurement, ParsedLog
from .text import clean_lines, plateau, to_float

_HEADER = re.compile(r"data_size\S*\s*\|\s*a\S*_time\S*\s*\|\s*alg_bandwidth")
_ROW = re.compile(r"^\s*(\d+)\s*\|")
# ./bin/alltoall_test is the all-to-all, named as nccl-tests' logs are.
_OPERATIONS = {"alltoall": "all_to_all"}


def parse_hccl(text: str) -> ParsedLog:
    lines = clean_lines(text)
    header = next((i for i, ln in enumerate(lines) if _HEADER.search(ln)), None)
    if header is None:
        raise LogFormatError(
            "not hccl_test output: no data_size | alg_bandwidth header"
        )
    rows, failures, skipped = [], [], []
    for line in lines[header + 1 :]:
        if not _ROW.match(line):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 4 or not fields[3]:
            raise LogFormatError(f"hccl_test log is truncated: row {line.strip()!r}")
        size = int(fields[0])
        to_float(fields[1], "hccl_test time")
        rows.append((size, to_float(fields[2], "hccl_test alg_bandwidth")))
        check = fields[3].lower()
        if check == "failed":
            failures.append(f"check_result failed at {size} B")
        elif check == "null":
            skipped.append(f"result check off (NULL) at {size} B")
        elif check != "success":
            raise LogFormatError(f"hccl_test row is corrupted: {line.strip()!r}")
    if not rows:
        raise LogFormatError("hccl_test log is truncated: header without result rows")
    failed_ranks = [ln.strip() for ln in lines if "check result failed" in ln]
    failures.extend(failed_ranks)
    top = plateau(rows)
    measurements = ()
    if top is None:
        failures.append(
            f"largest message {max(s for s, _ in rows)} B is below the 1 GiB plateau floor"
        )
    else:
        measurements = (Measurement("algbw_gbs", top[0], "GB/s", None, top[1]),)
    name = next((ln for ln in lines if "_test" in ln and "./" in ln), "")
    operation = re.search(r"(\w+)_test", name)
    return ParsedLog(
        tool="hccl",
        tool_version=None,
        operation=_OPERATIONS.get(operation.group(1), operation.group(1))
        if operation
        else None,
        hosts=(),
        gpu_count=None,
        measurements=measurements,
        failures=tuple(failures),
        skipped=tuple(skipped),
    )
