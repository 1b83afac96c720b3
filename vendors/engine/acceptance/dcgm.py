"""`dcgmi diag -r 3 -j` JSON (NVIDIA/DCGM), across the schema changes between versions.

Two real layouts are read:
- DCGM 3.x: root key "DCGM GPU Diagnostic", "version" inside it (may be absent),
  results keyed "gpu_ids" (a "0,1,..." string or an int) or "gpu_id"; statuses
  "PASS"/"Pass"/"Skip". (NVIDIA/DCGM nvvs JsonResult test "Deserialize real output",
  3.1.0; NVIDIA/DCGM#139.)
- DCGM 4.x: root key "DCGM Diagnostic" (nvvs/include/NvvsJsonStrings.h NVVS_NAME),
  version under "metadata", results per entity ("entity_group", "entity_id"), a
  "test_summary" per test, devices in "entity_groups"
  (testing/python3/dcgm_diag_schema.json).
Statuses come from dcgmi/Diag.cpp: Pass, Skip, Warn, Fail, "Not Run". Only Pass
passes: Skip and Not Run are recorded as skipped (a skipped test is not a pass);
Warn, Fail and any word not in that list are failures.
"""

from __future__ import annotations

from .records import LogFormatError, Measurement, ParsedLog

ROOT_3X = "DCGM GPU Diagnostic"
ROOT_4X = "DCGM Diagnostic"
_SKIPPED = {"skip", "skipped", "not run", "notrun"}
# Tests that only run at level 2 and above: a log without any of them is a -r 1 run.
_LEVEL3_WORDS = ("stress", "power", "diagnostic", "memory", "bandwidth", "pcie", "eud")


def _schema(document: dict) -> tuple[str, dict, str | None]:
    if ROOT_4X in document:
        root = document[ROOT_4X]
        version = (document.get("metadata") or {}).get("version")
        return "4.x", root, version or (root or {}).get("version")
    if ROOT_3X in document:
        root = document[ROOT_3X]
        return "3.x", root, (root or {}).get("version")
    raise LogFormatError("not dcgmi diag JSON: no 'DCGM Diagnostic' root key")


def _gpu_ids(result: dict) -> list[str]:
    if "entity_id" in result:
        if str(result.get("entity_group", "GPU")).upper() != "GPU":
            return []
        return [str(result["entity_id"])]
    raw = result.get("gpu_ids", result.get("gpu_id"))
    if raw is None:
        return []
    return [part.strip() for part in str(raw).split(",") if part.strip()]


def _warnings(result: dict) -> str:
    found = result.get("warnings") or result.get("warning") or []
    if isinstance(found, dict | str):
        found = [found]
    texts = [w.get("warning", "") if isinstance(w, dict) else str(w) for w in found]
    return "; ".join(t for t in texts if t)


def _walk(root: dict) -> tuple[list[str], list[str], set[str], list[str]]:
    failures, skipped, gpus, names = [], [], set(), []
    categories = root.get("test_categories")
    if not isinstance(categories, list):
        raise LogFormatError("dcgmi diag JSON is truncated: no test_categories")
    for category in categories:
        for test in (category or {}).get("tests") or []:
            if not test:  # DCGM 3.1 writes null between tests
                continue
            name = str(test.get("name", "?"))
            names.append(name)
            results = test.get("results") or []
            if not results:
                skipped.append(f"{name}: no result")
            for result in results:
                ids = _gpu_ids(result)
                gpus.update(ids)
                status = str(result.get("status", "")).strip().lower()
                where = f"{name}: GPU {','.join(ids) or '?'}"
                if status == "pass":
                    continue
                if status in _SKIPPED:
                    skipped.append(f"{where} {status}")
                else:
                    reason = _warnings(result)
                    failures.append(
                        f"{where} {status or 'no status'}: {reason}".rstrip(": ")
                    )
    return failures, skipped, gpus, names


def parse_dcgm(document: object) -> ParsedLog:
    if not isinstance(document, dict):
        raise LogFormatError("not dcgmi diag JSON: the document is not an object")
    schema, root, version = _schema(document)
    if not isinstance(root, dict):
        raise LogFormatError("dcgmi diag JSON is corrupted: its root is not an object")
    failures, skipped, gpus, names = _walk(root)
    if root.get("runtime_error"):
        failures.append(f"runtime error: {root['runtime_error']}")
    if not names:
        raise LogFormatError("dcgmi diag JSON is truncated: no test ran")
    if not any(w in n.lower() for n in names for w in _LEVEL3_WORDS):
        skipped.append("no level 2/3 test in the log (Deployment only): run -r 3")
    for group in document.get("entity_groups") or []:
        if str(group.get("entity_group", "")).upper() == "GPU":
            gpus.update(str(e.get("entity_id")) for e in group.get("entities") or [])
    passed = not failures and not skipped
    return ParsedLog(
        tool="dcgm",
        tool_version=version or f"{schema} (version not in the log)",
        operation="diag",
        hosts=(),
        gpu_count=len(gpus) or None,
        measurements=(Measurement("pass", 1.0 if passed else 0.0, ""),),
        failures=tuple(failures),
        skipped=tuple(skipped),
    )
