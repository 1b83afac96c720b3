"""Bytes -> ParsedLog: which tool wrote a log, then that tool's parser."""

from __future__ import annotations

from dataclasses import replace

from . import dcgm, fio, hccl, hpl, nccl, perftest
from .records import TOOLS, LogFormatError, Measurement, ParsedLog
from .text import decode_text, load_json_document

_NAMES = "nccl-tests, dcgmi diag -j, HPL, fio JSON, mdtest, ib_write_bw, hccl_test"


def _sniff(text: str) -> str:
    if '"DCGM GPU Diagnostic"' in text or '"DCGM Diagnostic"' in text:
        return "dcgm"
    if '"fio version"' in text:
        return "fio"
    if '"nccl_version"' in text or ('"bus_bw"' in text and '"results"' in text):
        return "nccl"
    if "RDMA_Write BW Test" in text:
        return "ib_write_bw"
    if "# nThread" in text or "#  Rank " in text:
        return "nccl"
    if "HPLinpack" in text or "HPL-NVIDIA" in text or "||Ax-b||" in text:
        return "hpl"
    if "SUMMARY rate" in text or "mdtest-" in text:
        return "mdtest"
    if "alg_bandwidth" in text and "data_size" in text:
        return "hccl"
    raise LogFormatError(f"foreign log: none of the known tools ({_NAMES}) wrote it")


def _parse(tool: str, text: str, node: str | None) -> ParsedLog:
    if tool == "nccl":
        if text.lstrip().startswith("{"):
            return nccl.parse_nccl_json(load_json_document(text, "nccl-tests"))
        return nccl.parse_nccl_text(text)
    if tool == "dcgm":
        return dcgm.parse_dcgm(load_json_document(text, "dcgmi diag"))
    if tool == "fio":
        return fio.parse_fio(load_json_document(text, "fio"))
    if tool == "mdtest":
        return fio.parse_mdtest(text)
    if tool == "hpl":
        return hpl.parse_hpl(text)
    if tool == "ib_write_bw":
        return perftest.parse_ib_write_bw(text, node=node)
    return hccl.parse_hccl(text)


def _attach_node(log: ParsedLog, node: str) -> ParsedLog:
    """The uploader's node name for figures the log itself does not place."""
    measurements = tuple(
        m if m.node else Measurement(m.metric, m.value, m.unit, node, m.size_bytes)
        for m in log.measurements
    )
    return replace(log, measurements=measurements, hosts=log.hosts or (node,))


def parse_log(
    data: bytes, *, tool: str | None = None, node: str | None = None
) -> ParsedLog:
    """Parse one tool's log. ``tool`` skips detection; ``node`` names the host for a
    log that does not show it (DCGM, HPL, fio). Raises LogFormatError saying why."""
    if tool is not None and tool not in TOOLS:
        raise LogFormatError(
            f"unknown tool {tool!r}: expected one of {', '.join(TOOLS)}"
        )
    text = decode_text(data, tool or "uploaded")
    chosen = tool or _sniff(text)
    log = _parse(chosen, text, node)
    if node and chosen != "ib_write_bw":
        if not log.hosts or len(log.hosts) == 1:
            log = _attach_node(log, node)
    return log
