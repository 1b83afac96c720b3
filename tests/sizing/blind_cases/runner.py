"""The blind published cases (``cases.json``, written by an agent that had not seen the
engine; copied verbatim) run through the engine: each case's inputs become a workload
or a catalogue lookup, and its metric is read from the result.

Split by position in ``cases.json`` (1-based): odd = calibration, even = validation.
A case the engine has no output for returns ``None`` with the reason (``UNMAPPED``).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from sizing.engine import estimate, workload_from_dict
from sizing.engine.goodput import LLAMA3_FAILURES_PER_GPU_HOUR, practice_of
from sizing.engine.sized_workload import size_workload

CASES = json.loads((Path(__file__).parent / "cases.json").read_text())
# the second blind set (48 serving rows from GPUStack, SGLang/LMSYS, sgl-cookbook,
# InferenceX, NVIDIA NIM and DataCrunch; written by another agent that had not seen
# the engine, copied verbatim)
SERVING_CASES_2 = json.loads(
    (Path(__file__).parent / "serving_cases_2.json").read_text()
)


def split(half: str, cases: list[dict] | None = None) -> list[dict]:
    parity = 1 if half == "calibration" else 0
    chosen = CASES if cases is None else cases
    return [c for i, c in enumerate(chosen, 1) if i % 2 == parity]


def accelerator_key(gpu: str) -> str | None:
    g = gpu.upper()
    if "96GB HBM2E" in g:  # Grand Teton's 96 GB H100 variant: not in the catalogue
        return None
    for needle, key in (
        ("GB200", "gb200-nvl-186gb"),
        ("B200", "b200-sxm-180gb"),
        ("H200", "h200-sxm-141gb"),
        ("H800", "h800-sxm-80gb"),
        ("H100", "h100-sxm-80gb"),
        ("A100-SXM4-40GB", "a100-sxm-40gb"),
        ("A100", "a100-sxm-80gb"),
        ("H20", "h20-sxm-96gb"),
    ):
        if needle in g:
            return key
    return None


def precision_of(text: str | None) -> str:
    t = (text or "BF16").upper()
    if "FP4" in t:
        return "mxfp4" if "MXFP4" in t else "nvfp4"
    if "FP8" in t:
        return "fp8"
    if "FP16" in t and "BF16" not in t:
        return "fp16"
    return "bf16"


def model_of(spec: dict) -> dict:
    """The case's architecture as the engine's custom-model fields."""
    mlp = (spec.get("mlp") or "swiglu").lower()
    heads = spec["heads"]
    model = dict(
        layers=spec["layers"],
        hidden_size=spec["hidden"],
        attention_heads=heads,
        kv_heads=spec.get("kv_heads") or heads,
        head_dim=spec.get("head_dim") or spec["hidden"] // heads,
        vocab_size=spec["vocab"],
        gated_ffn=mlp.startswith("swiglu") or mlp.startswith("geglu"),
        tied_embeddings=bool(spec.get("tied_embeddings")),
    )
    moe = spec.get("moe")
    if moe:
        model.update(
            moe_experts=moe["num_experts"],
            moe_active_experts=moe["top_k"],
            moe_ffn_hidden_size=moe["expert_ffn"],
            moe_shared_experts=moe.get("shared_experts") or 0,
            moe_dense_layers=moe.get("dense_layers") or 0,
            ffn_hidden_size=spec.get("dense_ffn")
            or spec.get("ffn")
            or moe["expert_ffn"],
        )
    else:
        model["ffn_hidden_size"] = spec["ffn"]
    attention = str(spec.get("attention") or "")
    if attention.startswith("MLA"):
        numbers = dict(re.findall(r"(\w+_rank|\w+_head_dim) (\d+)", attention))
        model.update(
            q_lora_rank=int(numbers.get("q_lora_rank", 0)) or None,
            kv_lora_rank=int(numbers["kv_lora_rank"]),
            qk_nope_head_dim=int(numbers["qk_nope_head_dim"]),
            qk_rope_head_dim=int(numbers["qk_rope_head_dim"]),
            v_head_dim=int(numbers["v_head_dim"]),
            head_dim=int(numbers["qk_nope_head_dim"])
            + int(numbers["qk_rope_head_dim"]),
            kv_heads=heads,
        )
    if spec.get("params_b"):
        model["params_b"] = spec["params_b"]
    return model


def _training_plan(catalog, inputs: dict, **extra):
    spec = inputs["model"]
    acc = accelerator_key(inputs["hardware"].get("gpu") or "")
    if acc is None or "layers" not in spec:
        return None
    seq_len = inputs.get("seq_len") or 4096
    batch = inputs.get("global_batch_tokens") or 4 * 2**20
    body = dict(
        kind="training",
        model=model_of(spec),
        tokens_b=(inputs.get("tokens_total") or 1e9) / 1e9,
        gpu_count=inputs["hardware"]["num_gpus"],
        seq_len=seq_len,
        global_batch_tokens=max(int(batch), seq_len),
        precision=precision_of(inputs.get("precision")),
        **extra,
    )
    micro = inputs.get("micro_batch")
    if micro:
        body["micro_batch"] = micro
    if "full activation checkpointing" in str(inputs.get("precision")):
        body["recompute"] = "full"
    workload = workload_from_dict(body, catalog)
    sized = size_workload(workload, catalog.accelerators[acc], catalog)
    return sized.training, workload


def training_throughput(catalog, case: dict) -> float | None:
    planned = _training_plan(catalog, case["inputs"])
    if planned is None:
        return None
    plan, workload = planned
    seconds = plan.days * 86400.0 * plan.goodput  # the steps alone
    tokens = (workload.tokens_b or 0.0) * 1e9
    per_gpu = tokens / seconds / plan.gpus
    metric = case["metric"]
    if metric == "training_throughput_tokens_per_s_per_gpu":
        return per_gpu
    if metric == "training_model_tflops_per_gpu":
        return plan.model_flops / tokens * per_gpu / 1e12
    if metric == "training_step_time_s":
        return workload.global_batch_tokens / (per_gpu * plan.gpus)
    if metric == "training_gpu_hours_per_trillion_tokens":
        return plan.gpus * plan.days * 24.0 / (workload.tokens_b / 1000.0)
    return None


def _era(inputs: dict) -> str:
    return "manual" if (inputs.get("year") or 2024) <= 2022 else "automated"


def goodput_case(catalog, case: dict) -> float | None:
    inputs, metric = case["inputs"], case["metric"]
    gpus = (inputs.get("hardware") or {}).get("num_gpus")
    if metric == "effective_training_time_pct" and gpus:
        practice = practice_of(_era(inputs), None, None, None)
        return 100.0 * practice.goodput(gpus, 0.02)
    if metric == "unexpected_job_interruptions_in_window" and gpus:
        return LLAMA3_FAILURES_PER_GPU_HOUR * gpus * inputs["window_days"] * 24.0
    if metric in ("wall_clock_days", "pretraining_wall_clock_days"):
        if not inputs.get("tokens_total") or "layers" not in inputs.get("model", {}):
            return None
        planned = _training_plan(catalog, inputs, restart_practice=_era(inputs))
        return None if planned is None else planned[0].days
    return None


def _serving(catalog, case: dict) -> dict | None:
    inputs = case["inputs"]
    spec = inputs.get("model") or {}
    acc = accelerator_key((inputs.get("hardware") or {}).get("gpu") or "")
    if acc is None or "layers" not in spec:
        return None
    shape = request_shape(inputs)
    concurrency = _count(inputs.get("concurrency") or 1)
    if shape is None or concurrency is None:
        return None  # no request shape published, or a saturation point
    body = dict(
        kind="inference",
        model=model_of(spec),
        precision=precision_of(inputs.get("precision")),
        context_tokens=shape[0],
        output_tokens=shape[1],
        concurrent_requests=concurrency,
        gpu_count=(inputs.get("hardware") or {}).get("num_gpus"),
        arrival=arrival_of(inputs),
        output_lengths=output_lengths_of(inputs),
    )
    result = estimate(workload_from_dict(body, catalog), catalog, acc)
    return result.inference


def arrival_of(inputs: dict) -> str:
    """ "burst" when every request of the run arrives at once: a static batch, or all
    prompts issued at request rate inf with no concurrency cap below their number;
    else "steady" (a closed loop at fixed concurrency refills as requests finish)."""
    framework = str(inputs.get("framework") or "").lower()
    if "static batch" in framework or "at once" in framework:
        return "burst"
    prompts = _count(inputs.get("num_prompts")) or _requests_of(
        str(inputs.get("input_tokens"))
    )
    concurrency = _count(inputs.get("concurrency"))
    if str(inputs.get("request_rate")) == "inf" and prompts and concurrency:
        return "burst" if prompts <= concurrency else "steady"
    return "steady"


def output_lengths_of(inputs: dict) -> str:
    """ "fixed" when the case gives the output length as a number (a synthetic
    benchmark's fixed length); "varied" for a dataset (ShareGPT, sglang's random
    lengths), described in words with its mean."""
    return "fixed" if isinstance(inputs.get("output_tokens"), int | float) else "varied"


def _count(value) -> int | None:
    if isinstance(value, int | float):
        return int(value)
    return None


def _requests_of(text: str) -> int | None:
    """The request count a dataset's description states ("1000 prompts", "984
    successful", "over 80 requests", "/ 1000 req")."""
    found = re.search(
        r"(?:over |/ )?([\d,]+) (?:prompts|successful|requests|req\b)", text
    )
    return int(found.group(1).replace(",", "")) if found else None


def request_shape(inputs: dict) -> tuple[int, int] | None:
    """(prompt, output) tokens: fixed lengths, or a dataset's means (its published
    token totals over its requests, or the mean it states); None when a length is
    not published (a decode-only measurement, a dataset without totals)."""
    given_in, given_out = inputs.get("input_tokens"), inputs.get("output_tokens")
    text = f"{given_in} | {given_out}"
    requests = _requests_of(text)
    totals = re.search(r"totals ([\d,]+) in / ([\d,]+) out", text)
    legacy_in = re.search(r"([\d,]{4,}) input tokens", str(given_in))
    legacy_out = re.search(r"~?([\d,]+)(k?) output tokens", str(given_out))

    def length(value, total: str | None, mean_of: str) -> int | None:
        if isinstance(value, int | float):
            return int(value)
        if total and requests:
            return max(1, round(int(total.replace(",", "")) / requests))
        mean = re.search(r"~([\d,]+) mean", mean_of)
        return int(mean.group(1).replace(",", "")) if mean else None

    prompt = length(
        given_in,
        totals.group(1) if totals else legacy_in and legacy_in.group(1),
        str(given_in),
    )
    output = length(
        given_out,
        totals.group(2) if totals else None,
        str(given_out),
    )
    if output is None and legacy_out and requests:
        raw = legacy_out.group(1).replace(",", "")
        output = round(
            int(raw) * (1000 if "k output" in str(given_out) else 1) / requests
        )
    if prompt is None or output is None:
        return None
    return prompt, output


def serving_case(catalog, case: dict) -> float | None:
    serving = _serving(catalog, case)
    if serving is None:
        return None
    metric = case["metric"]
    if metric == "time_to_first_token_ms":
        return serving["ttft_ms"]
    if metric in ("inter_token_latency_ms", "time_per_output_token_ms"):
        return serving["tpot_ms"]
    if metric == "output_tokens_per_s":
        return serving["tokens_per_second"]
    if metric == "output_tokens_per_s_per_gpu":
        gpus = case["inputs"]["hardware"]["num_gpus"]
        return serving["tokens_per_second"] / gpus
    return None


PLATFORM = {
    "gpu_memory_capacity_gb": lambda cat: cat.accelerators["h20-sxm-96gb"].memory_gb,
    "gpu_memory_bandwidth_tb_s": lambda cat: (
        cat.accelerators["h20-sxm-96gb"].mem_bw_tbs
    ),
    "dense_fp16_bf16_tensor_tflops": lambda cat: (
        cat.accelerators["h20-sxm-96gb"].bf16_tflops
    ),
    "nvlink_bandwidth_gb_s_per_gpu": lambda cat: (
        cat.accelerators["h20-sxm-96gb"].scaleup_gbs
    ),
}
PLATFORM_SERVERS = {
    "E05": "dgx-h100",
    "E06": "dgx-b200",
    "E07": "atlas-800t-a2",
}


def platform_case(catalog, case: dict) -> float | None:
    metric = case["metric"]
    if metric in PLATFORM:
        return PLATFORM[metric](catalog)
    server = PLATFORM_SERVERS.get(case["id"][:3])
    if server and server in catalog.servers:
        return catalog.servers[server].nic_count
    return None


RUNNERS = {
    "training_throughput": training_throughput,
    "training_wallclock_goodput": goodput_case,
    "serving_latency_at_load": serving_case,
    "serving_throughput_moe": serving_case,
    "platform_facts": platform_case,
}


def predict(catalog, case: dict) -> float | None:
    try:
        return RUNNERS[case["category"]](catalog, case)
    except Exception as exc:  # an input the engine refuses is a miss, reported
        return f"engine refused: {exc}"  # type: ignore[return-value]


def ratio(catalog, case: dict) -> float | None:
    value = predict(catalog, case)
    if not isinstance(value, int | float) or not case["expected_value"]:
        return None
    return float(value) / float(case["expected_value"])


def within(case: dict, r: float) -> bool:
    tol = (case.get("tolerance_pct") or 0) / 100.0
    return abs(r - 1.0) <= tol + 1e-9


def table(catalog, cases: list[dict]) -> dict[str, dict]:
    """Per category: the ratios, median and worst |log ratio| as a ratio, hits."""
    out: dict[str, dict] = {}
    for case in cases:
        row = out.setdefault(
            case["category"], {"ratios": {}, "unmapped": [], "within": 0}
        )
        r = ratio(catalog, case)
        if r is None:
            row["unmapped"].append(case["id"])
            continue
        row["ratios"][case["id"]] = r
        row["within"] += within(case, r)
    for row in out.values():
        logs = sorted(abs(math.log(r)) for r in row["ratios"].values() if r > 0)
        row["median_ratio"] = math.exp(logs[len(logs) // 2]) if logs else None
        row["max_ratio"] = math.exp(logs[-1]) if logs else None
    return out


def worse_than_measured(rows: dict, measured: dict) -> list:
    """Categories whose median, worst factor or hits are worse than recorded."""
    worse = []
    for category, (median, worst, hits) in measured.items():
        row = rows[category]
        if (
            row["median_ratio"] > median + 0.005
            or row["max_ratio"] > worst + 0.005
            or row["within"] < hits
        ):
            worse.append((category, row))
    return worse


def misses_and_unmapped(rows: dict, cases: list[dict]) -> tuple[set, set]:
    """(cases outside their published tolerance, cases the engine has no output for)."""
    by_id = {c["id"]: c for c in cases}
    misses = {
        case_id
        for row in rows.values()
        for case_id, r in row["ratios"].items()
        if not within(by_id[case_id], r)
    }
    unmapped = {case_id for row in rows.values() for case_id in row["unmapped"]}
    return misses, unmapped
