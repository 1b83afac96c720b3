import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_engine_and_reference_data_import_without_django():
    code = (
        "import sys, sizing.engine, sizing.reference_data\n"
        "sizing.reference_data.load_catalog()\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
