"""nccl-tests output (NVIDIA/nccl-tests): the text table and the `-J` JSON file.

The graded figure is the out-of-place bus bandwidth on the large-message plateau
(``text.plateau``), never the footer's "Avg bus bandwidth", which averages every size
tested (a 2-node DGX H100 sweep from 8 B reports 91 GB/s there and 472 GB/s at 16 GB).
A non-zero ``#wrong`` or an "Out of bounds values : N FAILED" footer is a failure
whatever the bandwidth. The JSON layout follows src/util.cu (JSON_FILE_VERSION 3).
"""

from __future__ import annotations

import re

from .records import LogFormatError, Measurement, ParsedLog
from .text import clean_lines, plateau, to_float

_RANK = re.compile(r"^#\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)")
_START = re.compile(r"^#\s*nThread\s+\d+")
_TEST_NAME = re.compile(r"^#\s*Collective test starting:\s*(\S+)")
_VERSION = re.compile(r"^#\s*nccl-tests version\s+(\S+)")
_LIB = re.compile(r"NCCL version\s+(\S+)")
_OOB = re.compile(r"^#\s*Out of bounds values\s*:\s*(\d+)\s*(\w+)")
_ROW = re.compile(r"^\s*\d+\s+\d+\s+\S+\s+\S+")


def operation_from_program(program: str) -> str:
    """ "all_reduce_perf" -> "all_reduce"; "alltoall_perf" -> "all_to_all"."""
    name = program.rsplit("/", 1)[-1].removesuffix("_perf").removesuffix("_mpi")
    return {"alltoall": "all_to_all"}.get(name, name)


def _split_runs(lines: list[str]) -> list[list[str]]:
    """One run per "# nThread" header; the version and test-name lines printed just
    before a header belong to that run (logs of several runs are concatenated)."""
    runs: list[list[str]] = []
    prelude: list[str] = []
    for line in lines:
        if _START.match(line):
            runs.append([*prelude, line])
            prelude = []
        elif _VERSION.match(line) or _TEST_NAME.match(line):
            prelude.append(line)
        elif runs:
            runs[-1].append(line)
    return runs


def _row(line: str) -> tuple[int, float, list[str]]:
    """(size, out-of-place busbw, [#wrong tokens]) of one table row."""
    fields = line.split()
    if len(fields) < 12:
        raise LogFormatError(f"nccl-tests row is cut short: {line.strip()!r}")
    size = int(fields[0])
    # redop + root columns exist in nccl-tests >= 2.13; older tables have no root.
    offset = 5 if len(fields) >= 13 else 4
    busbw = to_float(fields[offset + 2], "nccl-tests busbw")
    to_float(fields[offset + 6], "nccl-tests busbw")
    return size, busbw, [fields[offset + 3], fields[offset + 7]]


def _parse_run(run: list[str], index: int) -> dict:
    hosts: list[str] = []
    ranks = 0
    rows: list[tuple[int, float]] = []
    failures: list[str] = []
    program = version = None
    footer = False
    for line in run:
        if m := _RANK.match(line):
            ranks += 1
            if m.group(2) not in hosts:
                hosts.append(m.group(2))
        elif m := _TEST_NAME.match(line):
            program = m.group(1)
        elif m := _VERSION.match(line):
            version = m.group(1)
        elif m := _OOB.match(line):
            footer = True
            if int(m.group(1)) or m.group(2).upper() == "FAILED":
                failures.append(f"Out of bounds values : {m.group(1)} FAILED")
        elif _ROW.match(line) and not line.startswith("#"):
            size, busbw, wrong = _row(line)
            rows.append((size, busbw))
            for token in wrong:
                if token == "N/A":
                    failures.append(f"validation off (#wrong N/A) at {size} B")
                elif to_float(token, "nccl-tests #wrong") != 0:
                    failures.append(f"#wrong = {token} at {size} B")
    if not rows:
        raise LogFormatError(f"nccl-tests run {index} is truncated: no result rows")
    if not footer:
        raise LogFormatError(
            f"nccl-tests run {index} is truncated: no 'Out of bounds values' footer"
            f" after {rows[-1][0]} B"
        )
    return {
        "hosts": hosts,
        "ranks": ranks or None,
        "rows": rows,
        "failures": failures,
        "operation": operation_from_program(program) if program else None,
        "version": version,
    }


def _measurements(runs: list[dict], failures: list[str]) -> list[Measurement]:
    found = []
    for run in runs:
        top = plateau(run["rows"])
        if top is None:
            largest = max(size for size, _ in run["rows"])
            failures.append(
                f"largest message {largest} B is below the 1 GiB plateau floor"
            )
            continue
        node = run["hosts"][0] if len(run["hosts"]) == 1 else None
        found.append(Measurement("busbw_gbs", top[0], "GB/s", node, top[1]))
    return found


def parse_nccl_text(text: str) -> ParsedLog:
    lines = clean_lines(text)
    runs = [_parse_run(run, i + 1) for i, run in enumerate(_split_runs(lines))]
    if not runs:
        raise LogFormatError("not nccl-tests output: no '# nThread' header line")
    failures = [f for run in runs for f in run["failures"]]
    measurements = _measurements(runs, failures)
    hosts = tuple(dict.fromkeys(h for run in runs for h in run["hosts"]))
    counts = {run["ranks"] for run in runs}
    ops = {run["operation"] for run in runs} - {None}
    library = next((m.group(1) for line in lines if (m := _LIB.search(line))), None)
    return ParsedLog(
        tool="nccl",
        tool_version=runs[0]["version"] or library,
        operation=ops.pop() if len(ops) == 1 else None,
        hosts=hosts,
        gpu_count=counts.pop() if len(counts) == 1 else None,
        measurements=tuple(measurements),
        failures=tuple(failures),
        skipped=(),
    )


def parse_nccl_json(document: dict) -> ParsedLog:
    results = document.get("results")
    if not isinstance(results, list) or not results:
        raise LogFormatError("nccl-tests JSON is truncated: no results")
    if "out_of_bounds" not in document:
        raise LogFormatError("nccl-tests JSON is truncated: no out_of_bounds summary")
    devices = (document.get("config") or {}).get("devices") or []
    hosts = tuple(dict.fromkeys(str(d.get("hostname")) for d in devices))
    rows, failures = [], []
    for row in results:
        try:
            size = int(row["size"])
            place = row["out_of_place"]
            rows.append((size, float(place["bus_bw"])))
            checks = [place.get("nwrong"), (row.get("in_place") or {}).get("nwrong")]
        except (KeyError, TypeError, ValueError):
            raise LogFormatError(f"nccl-tests JSON row is corrupted: {row!r}") from None
        for nwrong in checks:
            if nwrong is None:
                failures.append(f"validation off (nwrong null) at {size} B")
            elif float(nwrong):
                failures.append(f"#wrong = {nwrong:g} at {size} B")
    count = int((document["out_of_bounds"] or {}).get("count", 0))
    if count:
        failures.append(f"Out of bounds values : {count} FAILED")
    run = {"hosts": list(hosts), "rows": rows}
    measurements = _measurements([run], failures)
    args = document.get("args") or [""]
    return ParsedLog(
        tool="nccl",
        tool_version=str(document.get("nccl_version") or "") or None,
        operation=operation_from_program(str(args[0])) if args[0] else None,
        hosts=hosts,
        gpu_count=len(devices) or None,
        measurements=tuple(measurements),
        failures=tuple(failures),
        skipped=(),
    )
