"""The step model against published whole-run GPU-hours (docs/methodology.md A.4): a
check, not the calibration (that is the steady-state set of
``test_training_calibration``; the whole runs include evaluation, data-pipeline stalls,
ablations and downtime that no step model sees).

Each run is sized with the engine's defaults and the published GPU count, tokens,
sequence and batch; the error is predicted / published GPU-hours - 1. Published
whole-run figures for identical setups already differ by 40 % (Phi-3-mini vs
Phi-3.5-mini: same model, same 512 H100, 3.3 vs 3.4 T tokens, 7 vs 10 days).

Measured (sizing-2.2.0): median |error| 29 % over 25 runs (the former model, whose
memory-bound penalty was fitted on this table, had 8 % here and was 22-62 % too slow
against NVIDIA's steady-state H100 tables). The known misses are the small Hopper
models whose published GPU-hours are 2-3x their steady-state step time: Llama 3.1 8B
(1.46 M GPU-hours for ~15 T tokens is 2,854 tokens/s/GPU; NVIDIA's recipe runs the
same model at 14,451 in FP8), Phi-3.5-mini and Phi-3-medium; and DeepSeek-V3 on
2,048 H800 (+80 %), whose DualPipe schedule hides the all-to-all and pipeline traffic
that the layout search counts as exposed.
"""

import statistics

import pytest

from sizing.engine import estimate, workload_from_dict
from tests.sizing.engine.calibration_runs import RUNS, Run

MEDIAN_ERROR_LIMIT = 0.30
LOW, HIGH = 0.5, 1.7  # predicted / published GPU-hours of every run but the misses
KNOWN_MISSES = {
    "Llama 3.1 8B",
    "Phi-3.5-mini 3.8B",
    "Phi-3-medium 14B",
    "DeepSeek-V3 671B-A37B",
}


def predicted_gpu_hours(catalog, run: Run) -> float:
    body = dict(
        kind="training",
        model=run.model,
        tokens_b=run.tokens_b,
        gpu_count=run.gpus,
        seq_len=run.seq_len,
        global_batch_tokens=run.batch_tokens,
        precision=run.precision,
    )
    result = estimate(workload_from_dict(body, catalog), catalog, run.accelerator)
    assert result.training["fits"], run.name
    return result.training["gpu_hours"]


def error(catalog, run: Run) -> float:
    return predicted_gpu_hours(catalog, run) / run.gpu_hours - 1.0


@pytest.mark.parametrize("run", RUNS, ids=[run.name for run in RUNS])
def test_published_run_is_predicted_within_the_scatter_of_published_figures(
    catalog, run
):
    ratio = 1.0 + error(catalog, run)
    within = LOW < ratio < HIGH
    assert within != (run.name in KNOWN_MISSES), f"{run.name}: {ratio - 1:+.1%}"


def test_median_error_over_the_published_runs_is_at_most_30_percent(catalog):
    rows = [(run, error(catalog, run)) for run in RUNS]
    table = "\n".join(
        f"{run.name:40s} {run.gpus:>6} GPUs {'(assumed)' if not run.gpus_published else '':9s}"
        f" published {run.gpu_hours:>13,.0f} GPU-h  error {err:+6.1%}"
        for run, err in rows
    )
    median = statistics.median(abs(err) for _, err in rows)
    print(f"\n{table}\nmedian |error| {median:.1%} over {len(rows)} runs")
    assert len(rows) >= 15
    assert median <= MEDIAN_ERROR_LIMIT, table
