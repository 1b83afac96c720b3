"""Aliases learnt from a vendor's own texts (issue 22: "华东智算…" in the text, "天际
TJ-AI8000" as the server model and "天际 AI 平台" as the software stayed visible to
blind evaluators)."""

from vendors.engine.aliases import cjk_terms, latin_terms, learn_aliases
from vendors.engine.names import name_pattern

OWN = [
    (
        "bid #1 · proposal_text",
        "华东智算为贵司提供天际 TJ-AI8000 集群，配套天际 AI 平台。",
    ),
    ("bid #1 · server_model", "天际 TJ-AI8000"),
    ("bid #1 · line item", "天际 AI 平台 软件许可（3 年）"),
    (
        "case study #4 · solution_details",
        "华东智算为某银行交付 H100 集群，InfiniBand 网络。",
    ),
    ("bid #1 · frameworks", "PyTorch · vLLM"),
    ("bid #1 · scaleup_link", "XLink-9 互联"),
]
OTHERS = [
    "我们为贵司提供 H100 集群，InfiniBand 网络，PyTorch 与 vLLM。",
    "Quokka Q8 server, H100, InfiniBand NDR, PyTorch.",
]


def test_recurring_brands_are_learnt_and_shared_words_are_not():
    report = learn_aliases(OWN, OTHERS, known=["H100", "NVIDIA"])
    learnt = [c.term for c in report.learnt]
    assert learnt == ["TJ-AI8000", "华东智算", "天际"]
    # Every bidder writes these: they name no one.
    for shared in ("H100", "InfiniBand", "PyTorch", "集群", "为贵司提供"):
        assert shared not in learnt
    huadong = next(c for c in report.learnt if c.term == "华东智算")
    assert [o.source for o in huadong.occurrences] == [
        "bid #1 · proposal_text",
        "case study #4 · solution_details",
    ]
    assert huadong.occurrences[0].snippet.startswith("华东智算为贵司")
    # Said once: not learnt, listed for the buyer to declare.
    assert [c.term for c in report.remaining] == ["XLink-9"]


def test_terms_already_masked_are_neither_learnt_nor_listed():
    report = learn_aliases(OWN, OTHERS, masked=["华东智算科技有限公司", "天际"])
    assert [c.term for c in report.learnt] == ["TJ-AI8000"]


def test_what_counts_as_a_term():
    assert latin_terms("Our PromiseAI stack on X8 nodes with NVMe and RoCEv2") == {
        "PromiseAI",
        "X8",
    }
    # Every piece but the common word "平台" and those ending in "的".
    assert cjk_terms("天际平台的") == {"天际", "际平", "天际平", "际平台", "天际平台"}


def test_aliases_join_the_name_pattern_as_written():
    pattern = name_pattern(["Quokka Systems"], aliases=["天际 AI 平台", "TJ-AI8000"])
    text = "Quokka 天际 AI 平台 on TJ-AI8000, not TJ-AI80001"
    assert pattern.sub("[vendor]", text) == (
        "[vendor] [vendor] on [vendor], not TJ-AI80001"
    )
