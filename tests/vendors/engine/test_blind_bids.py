"""The blind corpus of issue 24 (tests/vendors/blind_bids/, files kept verbatim as
written): bids written by someone who had not seen the detector code, each with the
flags it should raise. The rules were calibrated on the odd ids only and frozen; the
even ids were then run once. Both halves stay in the suite: the calibration half bid
by bid, the validation half as its measured accuracy with its known misses and false
flags listed, so that a change which fits the rules to one half shows in the other.
"""

import pytest

from . import blind_corpus as corpus

CALIBRATION = corpus.half("calibration")


@pytest.mark.parametrize(
    "bid", CALIBRATION, ids=[f"bid_{b['id']:02d}" for b in CALIBRATION]
)
def test_calibration_bid_raises_exactly_its_expected_flags(bid):
    got = corpus.raised(corpus.run(bid))
    want = {name: bool(bid["expected"].get(name)) for name in corpus.DETECTORS}
    assert got == want, bid["rationale"]


def test_the_corpus_is_split_in_two_halves_by_id():
    ids = [b["id"] for b in corpus.bids()]
    assert len(ids) == len(set(ids)) >= 40
    assert {b["id"] % 2 for b in CALIBRATION} == {1}
    assert {b["id"] % 2 for b in corpus.half("validation")} == {0}
