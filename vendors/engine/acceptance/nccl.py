"""nccl-tests output (NVIDIA/nccl-tests): the text table and the `-J` JSON file.

The graded figure is the out-of-place bus bandwidth on the large-message plateau
(``text.plateau``), never the footer's "Avg bus bandwidth", which averages every size
tested (a 2-node DGX H100 sweep from 8 B reports 91 GB/s there and 472 GB/s at 16 GB).
A non-zero ``#wrong`` or an "Out of bounds values : N FAILED" footer is a failure
whatever the bandwidth. The JSON layout follows src/util.cu (JSON_FILE_VERSION 3).

Which collective a text log is: nccl-tests since 2025-06 ("Print the name of the
program being executed", dafb704) print "# Collective test starting: all_reduce_perf";
older logs are read from the table (``operation_from_table``). The size column is
``max(sendBytes, recvBytes)`` (src/common.cu, writeBenchmarkLinePreamble), the count
column the per-rank ``paramcount`` of the collective's GetCollByteCount: all_gather,
reduce_scatter and alltoall print the whole buffer (count x type size x ranks), the
others count x type size. The redop column reads "none" for all_gather, alltoall and
broadcast (their RunTest passes opName "none"); alltoall never checks its in-place
result (AlltoAllInitData: "We don't support in-place alltoall", reportErrors 0), so
its in-place #wrong reads "N/A" - not a validation switched off.
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
# nccl-tests' type names (src/common.cu test_typenames, NCCL >= 2.x and the pre-2.0
# list) and their sizes in bytes.
TYPE_BYTES = {
    "int8": 1,
    "uint8": 1,
    "char": 1,
    "int32": 4,
    "uint32": 4,
    "int": 4,
    "int64": 8,
    "uint64": 8,
    "half": 2,
    "float": 4,
    "double": 8,
    "bfloat16": 2,
    "f8e4m3": 1,
    "f8e5m2": 1,
}
# busbw / algbw is printed from two-decimal figures: a 2 % tolerance tells the
# factors apart at the large sizes that are read.
_FACTOR_TOLERANCE = 0.02


def operation_from_program(program: str) -> str:
    """ "all_reduce_perf" -> "all_reduce"; "alltoall_perf" -> "all_to_all";
    "all_gather_perf_mpi" (the MPI build's name) -> "all_gather"."""
    name = program.rsplit("/", 1)[-1].removesuffix("_mpi").removesuffix("_perf")
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


def _row(line: str) -> dict:
    """One table row: size, count, type, redop, root (None in tables without the
    column), the out-of-place algbw and busbw, and the out- and in-place #wrong."""
    fields = line.split()
    if len(fields) < 12:
        raise LogFormatError(f"nccl-tests row is cut short: {line.strip()!r}")
    # redop + root columns exist in nccl-tests >= 2.13; older tables have no root.
    offset = 5 if len(fields) >= 13 else 4
    to_float(fields[offset + 6], "nccl-tests busbw")
    return {
        "size": int(fields[0]),
        "count": int(fields[1]),
        "type": fields[2],
        "redop": fields[3],
        "root": int(fields[4]) if offset == 5 and _is_int(fields[4]) else None,
        "algbw": to_float(fields[offset + 1], "nccl-tests algbw"),
        "busbw": to_float(fields[offset + 2], "nccl-tests busbw"),
        "wrong_out": fields[offset + 3],
        "wrong_in": fields[offset + 7],
    }


def _is_int(token: str) -> bool:
    return token.lstrip("-").isdigit()


def _close(value: float, target: float) -> bool:
    return abs(value - target) <= _FACTOR_TOLERANCE * target


def operation_from_table(rows: list[dict], ranks: int | None) -> str | None:
    """The collective a table without its program line was printed by, from its
    largest row: the size over count x type size (1, or the rank count for the
    collectives that print the whole buffer), the redop ("none" where nothing is
    reduced), the root (>= 0 for rooted collectives), the busbw / algbw factor
    (2(n-1)/n all-reduce, 1 sendrecv; src/<collective>.cu GetBw) and alltoall's
    unchecked in-place result. None when the table cannot tell (e.g. all_gather
    and alltoall with validation off, or all_reduce and sendrecv on 2 ranks)."""
    usable = [r for r in rows if r["count"] and r["algbw"] > 0]
    width = TYPE_BYTES.get(usable[-1]["type"]) if usable else None
    if not width:
        return None
    row = max(usable, key=lambda r: r["size"])
    per_count = row["size"] / (row["count"] * width)
    n = ranks or (round(per_count) if per_count > 1.5 else None)
    if not n or n < 2:
        return None
    reduces = row["redop"] != "none"
    if abs(per_count - n) < 0.5:
        if reduces:
            return "reduce_scatter"
        checked_in_place = row["wrong_in"] != "N/A"
        if row["wrong_out"] != "N/A":
            return "all_gather" if checked_in_place else "all_to_all"
        return None
    if abs(per_count - 1) > 0.01:
        return None
    if row["root"] is not None and row["root"] >= 0:
        return "reduce" if reduces else "broadcast"
    if not reduces:
        return None
    factor = row["busbw"] / row["algbw"]
    all_reduce = 2.0 * (n - 1) / n
    if _close(factor, all_reduce) and not _close(1.0, all_reduce):
        return "all_reduce"
    if _close(factor, 1.0) and not _close(1.0, all_reduce):
        return "sendrecv"
    return None


def _wrong_failures(rows: list[dict], operation: str | None) -> list[str]:
    """#wrong > 0 anywhere; "N/A" means validation was off (-c 0), except alltoall's
    in-place column, which nccl-tests never checks."""
    failures = []
    for row in rows:
        tokens = [row["wrong_out"]]
        if operation != "all_to_all":
            tokens.append(row["wrong_in"])
        for token in tokens:
            if token == "N/A":
                failures.append(f"validation off (#wrong N/A) at {row['size']} B")
            elif to_float(token, "nccl-tests #wrong") != 0:
                failures.append(f"#wrong = {token} at {row['size']} B")
    return failures


def _parse_run(run: list[str], index: int) -> dict:
    hosts: list[str] = []
    ranks = 0
    rows: list[dict] = []
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
            rows.append(_row(line))
    if not rows:
        raise LogFormatError(f"nccl-tests run {index} is truncated: no result rows")
    if not footer:
        raise LogFormatError(
            f"nccl-tests run {index} is truncated: no 'Out of bounds values' footer"
            f" after {rows[-1]['size']} B"
        )
    if program:
        operation = operation_from_program(program)
    else:
        operation = operation_from_table(rows, ranks or None)
    return {
        "hosts": hosts,
        "ranks": ranks or None,
        "rows": [(r["size"], r["busbw"]) for r in rows],
        "failures": [*_wrong_failures(rows, operation), *failures],
        "operation": operation,
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
    ops = {run["operation"] for run in runs}
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
    args = document.get("args") or [""]
    operation = operation_from_program(str(args[0])) if args[0] else None
    rows, failures = [], []
    for row in results:
        try:
            size = int(row["size"])
            place = row["out_of_place"]
            rows.append((size, float(place["bus_bw"])))
            checks = [place.get("nwrong")]
            if operation != "all_to_all":  # its in-place result is never checked
                checks.append((row.get("in_place") or {}).get("nwrong"))
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
    return ParsedLog(
        tool="nccl",
        tool_version=str(document.get("nccl_version") or "") or None,
        operation=operation,
        hosts=hosts,
        gpu_count=len(devices) or None,
        measurements=tuple(measurements),
        failures=tuple(failures),
        skipped=(),
    )
