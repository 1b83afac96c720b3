"""The golden-output rule (tests/golden.py) itself, on a planted file: an output that
changes under the same ENGINE_VERSION fails, a bump without regenerating fails, and
UPDATE_GOLDEN=1 rewrites the file after a bump but never under the old version."""

from __future__ import annotations

import json

import pytest

from tests.golden import check_golden, figures


@pytest.fixture
def golden(tmp_path):
    path = tmp_path / "golden" / "engine.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"engine_version": "x-1.0.0", "outputs": {"a": 1.5}}))
    return path


def test_the_same_outputs_under_the_same_version_pass(golden):
    check_golden(golden, version="x-1.0.0", where="x.py", outputs={"a": 1.5})


def test_a_changed_output_without_a_bump_fails_and_names_it(golden, monkeypatch):
    monkeypatch.setenv("UPDATE_GOLDEN", "1")  # regenerating does not excuse it
    with pytest.raises(pytest.fail.Exception) as failed:
        check_golden(golden, version="x-1.0.0", where="x.py", outputs={"a": 1.75})
    assert ".a: 1.5 in the file, 1.75 now" in str(failed.value)
    assert "Bump ENGINE_VERSION in x.py" in str(failed.value)
    assert json.loads(golden.read_text())["outputs"] == {"a": 1.5}


def test_a_bump_needs_the_file_regenerated(golden, monkeypatch):
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    with pytest.raises(pytest.fail.Exception) as failed:
        check_golden(golden, version="x-1.1.0", where="x.py", outputs={"a": 1.75})
    assert "the golden file records 'x-1.0.0'" in str(failed.value)
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    check_golden(golden, version="x-1.1.0", where="x.py", outputs={"a": 1.75})
    stored = json.loads(golden.read_text())
    assert stored == {"engine_version": "x-1.1.0", "outputs": {"a": 1.75}}


def test_floats_keep_ten_significant_digits_and_prose_is_left_out():
    assert figures({"v": 1 / 3, "formula": "a / b", "n": [2, None, "GPUs"]}) == {
        "v": 0.3333333333,
        "n": [2, None, "GPUs"],
    }
