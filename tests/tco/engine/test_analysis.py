import json
import os
import subprocess
import sys
from pathlib import Path

from tco.engine import CONVENTIONS, full_analysis

REPO = Path(__file__).resolve().parents[3]


def test_full_analysis_is_json_and_reports_progress(hand_inputs):
    seen = []
    analysis = full_analysis(hand_inputs, draws=1_000, progress=seen.append)
    json.dumps(analysis)
    assert seen == [0, 10, 30, 90, 100]
    assert analysis["result"]["total_cost"] == 1_841_680.0
    assert analysis["conventions"] == CONVENTIONS
    assert {"sensitivity", "monte_carlo", "hidden_costs", "defaults"} <= set(analysis)
    # the hand case gives most fields; those it leaves out are reported as defaults
    assert "currency" not in analysis["defaults_used"]
    assert set(analysis["defaults"]) == set(analysis["defaults_used"])


def test_engine_imports_without_django():
    code = (
        "import sys, tco.engine, tco.engine.charts;"
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')];"
        "assert not loaded, loaded"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=True)
