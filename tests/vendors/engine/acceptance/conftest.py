from pathlib import Path

import pytest

SAMPLES = Path(__file__).parent / "samples"


@pytest.fixture
def sample():
    def read(name: str) -> bytes:
        return (SAMPLES / name).read_bytes()

    return read
