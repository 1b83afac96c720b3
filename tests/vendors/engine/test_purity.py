import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_vendor_engines_import_without_loading_django():
    code = (
        "import importlib, pkgutil, sys\n"
        "import vendors.autoscore, vendors.capability, vendors.compliance, "
        "vendors.detectors, vendors.importing, vendors.scoring, vendors.spec_claims\n"
        "detector_modules = [\n"
        "    importlib.import_module(f'vendors.detectors.{info.name}')\n"
        "    for info in pkgutil.iter_modules(vendors.detectors.__path__)\n"
        "]\n"
        "assert len(detector_modules) >= 6, detector_modules\n"
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(REPO), "PATH": ""},
    )
    assert result.stdout.strip() == ""
