import pytest

from sizing.engine import Catalog, workload_from_dict
from sizing.reference_data import load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def make(catalog):
    def _make(**body):
        return workload_from_dict(body, catalog)

    return _make
