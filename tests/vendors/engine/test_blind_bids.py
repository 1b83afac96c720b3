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


# The validation half, run once after the rules were frozen (issue 24). Per detector:
# the ids it missed and the ids it flagged falsely. Not fixed here - a fix would be
# tuned on this half - but named, with the rule that fails:
#   bid 20, gpu_only: a turnkey "other" line that lists its switches, optics and file
#     system without 含/包括 is not read as covering network and storage.
#   bid 04, over_promising: a conditional suggestion ("若坚持30天，可将本期训练量调整为
#     约700亿tokens") is read as a 30-day promise; and 3,600 tokens/s for 192 x H20 is
#     above twice the sizing engine's 863 tokens/s, which the bid hedges (以验收实测为准).
#   bid 24, closed_ecosystem: "native scheduler access: none" on bare servers with no
#     cluster software and no vendor platform is read as a lock.
VALIDATION_MISSED = {
    "gpu_only": set(),
    "over_promising": set(),
    "template_proposal": set(),
    "closed_ecosystem": set(),
    "delivery_below_floor": set(),
}
VALIDATION_FALSE = {
    "gpu_only": {20},
    "over_promising": {4},
    "template_proposal": set(),
    "closed_ecosystem": {24},
    "delivery_below_floor": set(),
}


def test_validation_half_stays_at_its_measured_accuracy():
    """No new miss or false flag on the validation half (fixing a known one is
    welcome: the lists shrink, they never grow)."""
    table = corpus.score("validation")
    for detector in corpus.DETECTORS:
        assert set(table[detector]["missed"]) <= VALIDATION_MISSED[detector], detector
        assert set(table[detector]["false"]) <= VALIDATION_FALSE[detector], detector


def test_validation_half_has_the_flags_it_was_measured_with():
    """The half measured: 32 bids, 43 expected flags (9 gpu_only, 15 over_promising,
    6 template_proposal, 4 closed_ecosystem, 9 delivery below the floor)."""
    validation = corpus.half("validation")
    assert len(validation) == 32
    counts = {
        d: sum(1 for b in validation if b["expected"].get(d)) for d in corpus.DETECTORS
    }
    assert counts == {
        "gpu_only": 9,
        "over_promising": 15,
        "template_proposal": 6,
        "closed_ecosystem": 4,
        "delivery_below_floor": 9,
    }
