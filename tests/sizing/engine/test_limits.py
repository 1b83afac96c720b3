"""Every number the engine reads has a ceiling (sizing.engine.limits): its own
``maximum`` when the parser gives one, else its row in MAXIMA, else the default."""

from __future__ import annotations

import pytest

from sizing.engine import SizingInputError
from sizing.engine.fields import read_number
from sizing.engine.limits import DEFAULT_MAXIMUM, MAXIMA, ceiling


def test_a_value_at_the_ceiling_is_read():
    assert read_number({"layers": 10_000}, "layers", "m", integer=True) == 10_000


@pytest.mark.parametrize("value", [10_001, 1e308, 2**40])
def test_a_value_over_the_ceiling_names_the_field_and_the_limit(value):
    with pytest.raises(SizingInputError) as refused:
        read_number({"layers": value}, "layers", "workload.model", integer=True)
    assert refused.value.field == "workload.model.layers"
    assert refused.value.message == "must be at most 10,000"


def test_the_callers_maximum_wins_over_the_table():
    assert ceiling("mfu", 1.0) == 1.0
    assert ceiling("layers") == MAXIMA["layers"]
    assert ceiling("some_new_count") == DEFAULT_MAXIMUM
    with pytest.raises(SizingInputError):
        read_number({"some_new_count": 1e13}, "some_new_count", "w")
