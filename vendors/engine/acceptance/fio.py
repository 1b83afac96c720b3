"""fio `--output-format=json` (axboe/fio) and mdtest text (hpc/ior) for metadata.

fio: bandwidth per direction is `bw_bytes` (bytes/s, fio >= 3.3) or else `bw` (KiB/s,
x1024); jobs reported separately (no group_reporting) are summed. Metadata is graded
with mdtest's "SUMMARY rate" table (file creation/stat/removal per second, the IO500
metadata tool) rather than fio, which has no create-rate figure.
"""

from __future__ import annotations

import re

from .records import LogFormatError, Measurement, ParsedLog
from .text import clean_lines, to_float


def _bytes_per_s(side: dict) -> float:
    if "bw_bytes" in side:
        return float(side["bw_bytes"])
    return float(side.get("bw", 0)) * 1024.0


def parse_fio(document: object) -> ParsedLog:
    if not isinstance(document, dict) or "fio version" not in document:
        raise LogFormatError("not fio JSON: no 'fio version' key")
    jobs = document.get("jobs")
    if not isinstance(jobs, list) or not jobs:
        raise LogFormatError("fio JSON is truncated: no jobs")
    totals = {"read": [0.0, 0.0, 0], "write": [0.0, 0.0, 0]}
    failures, operations = [], []
    try:
        for job in jobs:
            if int(job.get("error", 0)):
                failures.append(f"job {job.get('jobname')}: error {job['error']}")
            options = job.get("job options") or {}
            rw = options.get("rw") or (document.get("global options") or {}).get("rw")
            if rw:
                operations.append(str(rw))
            for direction, total in totals.items():
                side = job[direction]
                total[0] += _bytes_per_s(side)
                total[1] += float(side.get("iops", 0))
                total[2] += int(side.get("io_bytes", 0))
    except (KeyError, TypeError, ValueError) as exc:
        raise LogFormatError(f"fio JSON job is corrupted: {exc!r}") from None
    measurements = []
    for direction, (bw, iops, io_bytes) in totals.items():
        if io_bytes:
            measurements.append(Measurement(f"{direction}_gbs", bw / 1e9, "GB/s"))
            measurements.append(Measurement(f"{direction}_iops", iops, "IOPS"))
    if not measurements:
        failures.append("no job moved any data (io_bytes 0 in read and write)")
    hosts = tuple(dict.fromkeys(str(j["hostname"]) for j in jobs if j.get("hostname")))
    return ParsedLog(
        tool="fio",
        tool_version=str(document["fio version"]),
        operation="+".join(dict.fromkeys(operations)) or None,
        hosts=hosts,
        gpu_count=None,
        measurements=tuple(measurements),
        failures=tuple(failures),
        skipped=(),
    )


_MD_VERSION = re.compile(r"^(mdtest-\S+) was launched with (\d+) total task\(s\)")
_MD_ROW = re.compile(
    r"^\s*(File|Directory|Tree) (creation|stat|read|removal)\s*:?\s+(.*)$"
)
_MD_METRIC = {
    "creation": "creates_per_s",
    "stat": "stats_per_s",
    "read": "reads_per_s",
    "removal": "removals_per_s",
}


def parse_mdtest(text: str) -> ParsedLog:
    lines = clean_lines(text)
    version = next((m.group(1) for ln in lines if (m := _MD_VERSION.match(ln))), None)
    if not any("SUMMARY rate" in ln for ln in lines):
        if version:
            raise LogFormatError("mdtest log is truncated: no 'SUMMARY rate' table")
        raise LogFormatError("not mdtest output: no 'SUMMARY rate' table")
    if not any(ln.startswith("-- finished at") for ln in lines):
        raise LogFormatError("mdtest log is truncated: no '-- finished at' line")
    measurements = []
    in_rate = False
    for line in lines:
        if "SUMMARY rate" in line:
            in_rate = True
        elif "SUMMARY time" in line:
            in_rate = False
        elif in_rate and (m := _MD_ROW.match(line)) and m.group(1) == "File":
            columns = m.group(3).split()
            if len(columns) < 4:
                raise LogFormatError(f"mdtest row is cut short: {line.strip()!r}")
            mean = to_float(columns[2], "mdtest mean rate")
            measurements.append(Measurement(_MD_METRIC[m.group(2)], mean, "ops/s"))
    if not measurements:
        raise LogFormatError("mdtest log is corrupted: no File rows in the rate table")
    return ParsedLog(
        tool="mdtest",
        tool_version=version,
        operation="metadata",
        hosts=(),
        gpu_count=None,
        measurements=tuple(measurements),
        failures=(),
        skipped=(),
    )
