"""Collusion signals: robust to Chinese rewording, quiet on honest bids."""

from decimal import Decimal as D

from vendors.engine.regimes import CollusionFacts, collusion_signals
from vendors.engine.regimes.collusion import (
    SIMILAR_TEXT_THRESHOLD,
    distinctive_similarity,
)
from vendors.engine.regimes.typos import misspelt_terms

from .proposals import HONEST, ORIGINAL, REWORDED, RFP


def _texts():
    return [
        CollusionFacts("orig", text=ORIGINAL),
        CollusionFacts("copy", text=REWORDED),
        *(CollusionFacts(f"honest{i}", text=t) for i, t in enumerate(HONEST)),
    ]


def _kinds(signals):
    return [(s.kind, s.bid_ids) for s in signals]


def test_reworded_copy_is_flagged_and_honest_bids_are_not():
    signals = collusion_signals(_texts(), rfp_text=RFP)
    assert _kinds(signals) == [("similar_text", ("copy", "orig"))]
    (signal,) = signals
    assert signal.score >= SIMILAR_TEXT_THRESHOLD
    assert signal.article.article == "第四十条"
    assert "shingles" in signal.evidence


def test_threshold_margins():
    """The margins the collusion docstring reports (the same five texts)."""
    reworded = distinctive_similarity(ORIGINAL, REWORDED)
    honest = [
        distinctive_similarity(a, b)
        for a in (ORIGINAL, REWORDED, *HONEST)
        for b in HONEST
        if a != b
    ]
    assert 0.25 < reworded < 0.28  # raw 3-gram Jaccard 0.263
    assert max(honest) < 0.04  # raw, the RFP's wording still counted
    assert max(honest) + 0.08 < SIMILAR_TEXT_THRESHOLD < reworded - 0.1


def test_honest_bids_alone_raise_no_text_signal():
    facts = [CollusionFacts(f"h{i}", text=t) for i, t in enumerate(HONEST)]
    assert collusion_signals(facts, rfp_text=RFP) == ()


def test_identity_signals_normalise_values():
    facts = [
        CollusionFacts(
            "a",
            contact_person="张 伟",
            phone="+86 138-0013-8000",
            email="Bid@Example.com",
            bond_account="6222 0210 0101 2345",
        ),
        CollusionFacts(
            "b",
            contact_person="张伟",
            phone="13800138000",
            email="bid@example.com ",
            bond_account="6222021001012345",
        ),
        CollusionFacts(
            "c",
            contact_person="李娜",
            phone="13900139000",
            email="sales@other.cn",
            bond_account="6222021001019999",
        ),
    ]
    kinds = _kinds(collusion_signals(facts))
    assert ("same_phone", ("a", "b")) in kinds
    assert ("same_email", ("a", "b")) in kinds
    assert ("same_bond_account", ("a", "b")) in kinds
    assert all("c" not in ids for _, ids in kinds)
    # the contact is only the same after spaces go: "张 伟" vs "张伟"
    assert ("same_contact", ("a", "b")) not in kinds


def test_same_contact_cites_order_87_art_37():
    facts = [
        CollusionFacts("a", contact_person="王芳"),
        CollusionFacts("b", contact_person="王芳"),
    ]
    (signal,) = collusion_signals(facts)
    assert signal.kind == "same_contact" and signal.evidence == "王芳"
    assert signal.article.article == "第三十七条" and not signal.article.primary


def test_document_author_shared_but_generic_names_ignored():
    facts = [
        CollusionFacts("a", doc_authors=("Administrator", "liu.yang")),
        CollusionFacts("b", doc_authors=("administrator", "Liu.Yang")),
        CollusionFacts("c", doc_authors=("Administrator",)),
    ]
    assert _kinds(collusion_signals(facts)) == [("same_author", ("a", "b"))]


def test_same_misspelling_of_a_technical_term():
    assert misspelt_terms("部署 Kubernets 与 Slrum，InfiniBand 与 NVLinks") == [
        "Kubernets",
        "Slrum",
    ]
    facts = [
        CollusionFacts("a", text="调度采用 Kubernets 平台"),
        CollusionFacts("b", text="我们同样使用 kubernets"),
        CollusionFacts("c", text="调度采用 Kubernetes 平台"),
    ]
    signals = [s for s in collusion_signals(facts) if s.kind == "same_typos"]
    assert _kinds(signals) == [("same_typos", ("a", "b"))]
    assert signals[0].evidence == "Kubernets"


def test_reported_errors_shared_by_two_bids():
    facts = [
        CollusionFacts("a", errors=("第3.2节页码错为第32页",)),
        CollusionFacts("b", errors=("第3.2节页码错为第32页",)),
    ]
    assert _kinds(collusion_signals(facts)) == [("same_typos", ("a", "b"))]


def test_prices_in_regular_steps():
    facts = [
        CollusionFacts("a", price_cny=D(36_800_000)),
        CollusionFacts("b", price_cny=D(37_300_000)),
        CollusionFacts("c", price_cny=D(37_800_000)),
        CollusionFacts("d", price_cny=D(35_120_431)),
        CollusionFacts("e", price_cny=D(39_004_017)),
    ]
    (signal,) = collusion_signals(facts)
    assert signal.kind == "price_steps" and signal.bid_ids == ("a", "b", "c")
    assert "36,800,000, 37,300,000, 37,800,000" in signal.evidence


def test_prices_in_a_constant_ratio():
    facts = [
        CollusionFacts(x, price_cny=p)
        for x, p in (("a", D(10_000_000)), ("b", D(10_200_000)), ("c", D(10_404_000)))
    ]
    assert _kinds(collusion_signals(facts)) == [("price_steps", ("a", "b", "c"))]


def test_honest_prices_raise_no_signal():
    prices = (D(35_120_431), D(36_870_112), D(37_455_800), D(38_912_004), D(39_004_017))
    facts = [CollusionFacts(f"b{i}", price_cny=p) for i, p in enumerate(prices)]
    assert collusion_signals(facts) == ()


def test_random_honest_prices_rarely_look_like_steps():
    """20 bids priced uniformly in 35-40 M CNY to the yuan: the false-signal rate the
    collusion docstring reports (3 of 300 tenders with seed 1)."""
    import random

    rng = random.Random(1)
    flagged = 0
    for _ in range(300):
        facts = [
            CollusionFacts(f"b{i}", price_cny=D(rng.randint(35_000_000, 40_000_000)))
            for i in range(20)
        ]
        flagged += any(s.kind == "price_steps" for s in collusion_signals(facts))
    assert flagged == 3
