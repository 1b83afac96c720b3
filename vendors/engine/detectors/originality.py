"""What a proposal owes to others and what is its own (issue 24): the buyer's RFP
copied back, text shared with one other bid and no one else, and the design work a
vendor does for this workload.

All on character n-grams after case, whitespace and punctuation go (``text.shingles``),
so Chinese needs no word segmentation and rewording one sentence leaves the rest of a
copy in view:

* ``rfp_echo``: the share of the proposal's 4-grams found in the RFP (containment, not
  Jaccard: the RFP is longer than any answer). Restating a few requirements is normal;
  a proposal made mostly of the RFP's own sentences is the RFP returned.
* ``shared_own_text``: of the 6-grams of tokens (a Chinese character or a Latin word)
  two bids share, those neither in the RFP nor in any third bid - each vendor's own wording, and the rare typos and errors two copies
  carry - as a share of the shorter text's own 6-grams. Whole-text Jaccard falls fast
  when one sentence is reworded (0.726 -> 0.607 in the issue's pair); what two texts
  share exclusively does not. ``OWN_TEXT_LIMIT`` (6 %) is set on the calibration half
  of the blind corpus: a pair rewritten sentence by sentence shares 7.9 % of its own
  token 6-grams (whole-text Jaccard 0.20), every other pair at most 4.3 % (two
  English bids with Jaccard 0.18 share 1.4 %: common technical English is not copied
  text).
* ``no_design_work``: a full proposal (``MIN_PROPOSAL_WORDS`` and more, about 240
  Chinese characters) that covers none of the design topics a vendor works out for the
  buyer's workload: parallelism, checkpoint sizing, fabric design, storage design and
  the workload's own arithmetic. (Calibration: at two topics, a productised
  "one-box" bid that designs only its fabric was flagged; one topic is the bar.)
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from .findings import FactCode, Pitfall, PitfallCode, fact, pitfall
from .text import _MEMO_MAX_CHARS, shingles, words_between

_CODE = PitfallCode.TEMPLATE_PROPOSAL
RFP_ECHO_LIMIT = 0.5
RFP_SHINGLE = 4
OWN_SHINGLE = 6
OWN_TEXT_LIMIT = 0.06
MIN_OWN_SHINGLES = 40
MIN_PROPOSAL_WORDS = 120.0  # a Chinese character counts half a word
MIN_DESIGN_TOPICS = 1

_NUMBER = r"\d+(?:\.\d+)?"
DESIGN_TOPICS: dict[str, re.Pattern[str]] = {
    "parallelism": re.compile(
        r"张量并行|流水线?并行|数据并行|专家并行|序列并行|上下文并行|[23]D\s*并行|ZeRO|FSDP"
        r"|\b(?:TP|PP|DP|EP|CP|SP)\s*[=＝:：]?\s*\d|tensor[- ]parallel|pipeline[- ]parallel"
        r"|data[- ]parallel|expert[- ]parallel|sequence[- ]parallel|parallelism"
        r"|\bTP\d|\bPP\d|并行策略|并行切分|切分策略",
        re.IGNORECASE,
    ),
    "checkpoint": re.compile(
        rf"(?:checkpoint|检查点|断点|ckpt|快照)[^。；;\n]{{0,40}}?{_NUMBER}\s*"
        r"(?:GB|TB|GiB|TiB|GB/s|分钟|min|秒|s\b|小时)"
        rf"|{_NUMBER}\s*(?:GB|TB|GiB|TiB)[^。；;\n]{{0,20}}?(?:checkpoint|检查点|ckpt)",
        re.IGNORECASE,
    ),
    "fabric": re.compile(
        r"轨道优化|多轨|rail[- ]?(?:optimi[sz]ed|aligned)|胖树|fat[- ]tree|非阻塞|无阻塞"
        r"|non[- ]blocking|收敛比|oversubscri|\bleaf\b|\bspine\b|叶脊|叶交换机|脊交换机"
        r"|Leaf|Spine|SHARP|自适应路由|adaptive routing|\d+\s*口|\d+-port|\d+\s*端口"
        r"|拓扑|topolog|NVSwitch|NVLink|(?:每|per)\s*(?:节点|node|GPU|卡)[^。；;\n]{0,8}?"
        r"(?:网卡|NIC|400G|200G|\d+\s*[×x*]\s*\d+G)|\d+\s*(?:台|x|×)\s*(?:QM\d+|SN\d+|CE\d+"
        r"|交换机|switch)",
        re.IGNORECASE,
    ),
    "storage": re.compile(
        r"元数据|metadata|\bMDS\b|\bOST\b|\bOSS\b|全闪|NVMe|分层|热数据|冷数据|\btier"
        r"|纠删码|erasure|副本|replica|GPFS|Lustre|WEKA|3FS|JuiceFS|BeeGFS|CephFS|DDN"
        r"|Storage Scale|GDS|GPUDirect Storage|缓存层|cache tier|存储节点|并行文件系统"
        r"|parallel file ?system|AS\d{4,}|OceanStor|AI400",
        re.IGNORECASE,
    ),
    "workload": re.compile(
        r"FLOPs|算力需求|KV\s*-?cache|显存占用|显存需求|每卡显存|memory (?:per GPU|footprint)"
        r"|batch|批大小|micro[- ]?batch|tokens?\s*/\s*(?:s|秒|天|day)|GPU\s*[·*×x-]?\s*(?:时|hours?)"
        r"|序列长度|MFU|tokens/GPU|吞吐测算|训练时长|training time|步长|global batch",
        re.IGNORECASE,
    ),
}


def _containment(part: frozenset[str], whole: frozenset[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


def rfp_echo(text: str, rfp_text: str) -> list[Pitfall]:
    """One finding when most of the proposal is the RFP's own text."""
    if not rfp_text.strip():
        return []
    own = shingles(text, RFP_SHINGLE)
    if len(own) < MIN_OWN_SHINGLES:
        return []
    share = _containment(own, shingles(rfp_text, RFP_SHINGLE))
    if share < RFP_ECHO_LIMIT:
        return []
    return [
        pitfall(
            _CODE,
            f"{share:.0%} of the proposal's text is the buyer's own RFP copied back.",
            f"方案文本的 {share:.0%} 来自采购人自己的招标文件。",
            facts=(fact(FactCode.RFP_ECHO, share=round(share, 3)),),
        )
    ]


_TOKEN = re.compile(r"[\u3400-\u9fff]|[a-z0-9]+(?:[.][0-9]+)?", re.IGNORECASE)


def token_grams(text: str, n: int = OWN_SHINGLE) -> frozenset[str]:
    """n-grams of tokens: a Chinese character or a Latin word is one token, so an
    English text's n-grams are phrases, not fragments of common words. Memoised as
    ``text.shingles`` is: every pair of bids reads every third bid's."""
    if len(text) <= _MEMO_MAX_CHARS:
        return _memo_token_grams(text, n)
    return _token_grams(text, n)


@functools.lru_cache(maxsize=256)
def _memo_token_grams(text: str, n: int) -> frozenset[str]:
    return _token_grams(text, n)


def _token_grams(text: str, n: int) -> frozenset[str]:
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    return frozenset(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def shared_own_text(
    text: str, other: str, others: Sequence[str], rfp_text: str = ""
) -> float:
    """The share of the shorter text's own 6-grams (not in the RFP) that the two
    texts share and no third bid has (0 when either text is too short)."""
    rfp = token_grams(rfp_text) if rfp_text else frozenset()
    mine = token_grams(text) - rfp
    theirs = token_grams(other) - rfp
    if min(len(mine), len(theirs)) < MIN_OWN_SHINGLES:
        return 0.0
    common = mine & theirs
    if not common:
        return 0.0
    seen: Counter[str] = Counter()
    skipped_other = False
    for third in others:
        if not skipped_other and third == other:
            skipped_other = True
            continue
        seen.update(token_grams(third) & common)
    exclusive = {s for s in common if not seen[s]}
    return len(exclusive) / min(len(mine), len(theirs))


def design_topics(text: str) -> tuple[str, ...]:
    """The design topics the text works out (of ``DESIGN_TOPICS``)."""
    return tuple(
        name for name, pattern in DESIGN_TOPICS.items() if pattern.search(text)
    )


def no_design_work(text: str) -> list[Pitfall]:
    """One finding when a full proposal works out too few design topics."""
    if words_between(text) < MIN_PROPOSAL_WORDS:
        return []
    covered = design_topics(text)
    if len(covered) >= MIN_DESIGN_TOPICS:
        return []
    return [
        pitfall(
            _CODE,
            "The proposal shows no design work of its own for this workload "
            "(parallelism, checkpoint sizing, fabric or storage design).",
            "方案没有针对本次工作负载的自主设计（并行策略、检查点测算、网络或存储设计）。",
            facts=(fact(FactCode.NO_DESIGN, covered=covered),),
        )
    ]
