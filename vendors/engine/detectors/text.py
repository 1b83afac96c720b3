"""Text helpers the detectors share: evidence snippets, figures for reason texts, and
the character-shingle similarity that catches a copied proposal."""

from __future__ import annotations

import functools
import re

_NON_TEXT = re.compile(r"[\W_]+", re.UNICODE)


def snippet(text: str, start: int, end: int, width: int = 25) -> str:
    """The matched span with ``width`` characters either side, whitespace collapsed."""
    left = max(0, start - width)
    right = min(len(text), end + width)
    return " ".join(text[left:right].split())


def format_figure(value: float) -> str:
    """A figure for a reason text: at most two decimals, no trailing zeros."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


# A comparison checks every bid's proposal against every other bid's, so each text
# would be cut into shingles once per pair (n² times for n bids): texts up to
# _MEMO_MAX_CHARS are memoised, at most _MEMO_TEXTS of them (a few MB at most).
_MEMO_MAX_CHARS = 8_000
_MEMO_TEXTS = 128


def shingles(text: str, n: int) -> frozenset[str]:
    """The character n-grams of ``text`` once case, whitespace and punctuation go."""
    if len(text) <= _MEMO_MAX_CHARS:
        return _memo_shingles(text, n)
    return _shingles(text, n)


@functools.lru_cache(maxsize=_MEMO_TEXTS)
def _memo_shingles(text: str, n: int) -> frozenset[str]:
    return _shingles(text, n)


def _shingles(text: str, n: int) -> frozenset[str]:
    compact = _NON_TEXT.sub("", text.lower())
    return frozenset(compact[i : i + n] for i in range(len(compact) - n + 1))


def text_similarity(a: str, b: str, *, n: int = 4) -> float:
    """Jaccard similarity of character n-gram shingles of two texts (0-1).

    Characters, not words, so it works on Chinese without word segmentation; case,
    whitespace and punctuation are ignored so reflowing a copied text does not hide it.
    """
    shingles_a, shingles_b = shingles(a, n), shingles(b, n)
    if not shingles_a or not shingles_b:
        return 0.0
    return len(shingles_a & shingles_b) / len(shingles_a | shingles_b)


# --- negation and hedging ------------------------------------------------------------
#
# A detector that matches a word ("guarantee", 保证, Slurm) must know whether the
# sentence asserts it: "我方不作绝对保证", "offered without guarantee" and "does not
# support Slurm" contain the word and say the opposite. A negator governs the word when
# it stands in the same clause (cut at the sentence end, a full-width comma, a contrast
# word or a new subject) a few words before it; a trailing predicate ("... is not
# guaranteed", "零故障无法保证") negates the word in front of it.

_SENTENCE_END = re.compile(r"[。！？；;!?\n\r]|\.(?=\s|$)")
_CLAUSE_BREAK = re.compile(
    r"[，：:（）()]"
    r"|,\s*(?=(?:and |so |then )?(?:we|our|it|this|they|the vendor)\b)"
    r"|\b(?:but|however|yet|whereas|although|though|we)\b"
    r"|但是|但|然而|不过|而是|同时|另外|此外|即可|从而|因此|所以|并且|而且|因而"
    r"|我方|我司|我们|本公司",
    re.IGNORECASE,
)
# A verb negator reaches a few words ahead ("do not promise that the cluster never
# fails", 不对可用性作绝对保证); a determiner only its noun ("no guarantee", "without
# any guarantee", 无任何保证), so "no single point of failure guarantees..." stays a
# promise.
_NEGATOR_VERB = re.compile(
    r"\b(?:not|never|cannot|can't|don't|doesn't|won't|isn't|aren't|unable|neither"
    r"|nor)\b|不|未|无法|无从|无需|没有|没|并非|绝非|难以",
    re.IGNORECASE,
)
_NEGATOR_DETERMINER = re.compile(r"\b(?:no|without|none)\b|无任何|毫无", re.IGNORECASE)
_VERB_REACH_WORDS = 6.0  # an English word counts 1, a Chinese character 0.5
_DETERMINER_REACH_WORDS = 2.0
# Words that contain a negator and negate nothing: "not only", "no later than",
# 不仅 (not only), 不断 (continually), 不低于 (no less than), 不间断 (uninterrupted)...
_FALSE_NEGATOR = re.compile(
    r"\bnot (?:only|just)\b|\bno (?:later|more|less|fewer) than\b|\bno matter\b"
    r"|不仅|不但|不只|不断|不同|不少|不过|不间断|不停|不限|不久|不足|不高于|不超过|不低于"
    r"|不小于|不大于|不多于|不少于|毫不|不可或缺|不良|没问题",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(?:aim(?:s|ed|ing)?|target(?:s|ed|ing)?|strive|striving|endeavou?r"
    r"|best[- ]effort|goal|objective|hope|expect(?:s|ed)? to)\b"
    r"|力争|争取|目标|尽力|尽量|努力|力求|期望|希望|预期",
    re.IGNORECASE,
)
# Wording that makes a sentence a statement of practice, not a promise, wherever it
# stands in the sentence (issue 24): "原则上 4 小时到场", "一般情况下…", "…视情况而定",
# "in principle", "typically", "where possible".
_SENTENCE_HEDGE = re.compile(
    r"\b(?:in principle|generally|typically|usually|normally|where possible"
    r"|as far as possible|subject to|depending on|estimated|approximately"
    r"|we will try|endeavou?r|best[- ]effort|strive|aim(?:s|ed)? (?:to|for))\b"
    r"|原则上|一般情况下|一般而言|通常情况下|通常|正常情况下|视情况|视具体情况|视现场"
    r"|视实际|根据实际情况|以实际为准|以实测为准|尽可能|尽量|尽力|力争|力求|争取|预计"
    r"|预估|估算|参考值|仅供参考|不作为承诺|非承诺|为(?:服务|工作|质量|运维)?目标|作为目标"
    r"|\bas (?:our|a|the) (?:goal|target|aim)\b",
    re.IGNORECASE,
)
_PARAGRAPH_BREAK = re.compile(
    r"\n\s*\n|\n(?=\s*(?:[0-9一二三四五六七八九十]+[、.．)）]|[（(][0-9一二三四五六七八九十]+[)）]|[-•*#]))"
)
_NEGATED_AFTER_EN = re.compile(
    r"^\W*(?:[\w-]+\W+){0,3}?"
    r"(?:(?:(?:is|are|was|were|will|can|could|would|be)\s+(?:not|never)|cannot|can't"
    r"|isn't|aren't|won't)\s+(?:be\s+)?"
    r"(?:guaranteed|promised|assured|supported|available|provided|offered|included"
    r"|compatible|possible|realistic|achievable)"
    r"|(?:is|are)\s+(?:unsupported|unavailable|impossible|unrealistic"
    r"|not a (?:promise|guarantee)))\b",
    re.IGNORECASE,
)
_NEGATED_AFTER_ZH = re.compile(
    r"^[^，,。；;]{0,4}?(?:是|都|均|亦|也)?"
    r"(?:(?:暂|均|都)?(?:无法|不能|不可|不作|不予|难以|并不|并非|未必|不)"
    r"(?:受?支持|兼容|提供|包含|保证|承诺|确保|做到|实现|现实|达到|作保证|作承诺)"
    r"|不可能(?=的|$|[。；;，,]))"
)
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9'%.-]+|[\u3400-\u9fff]")


def sentence_span(text: str, position: int) -> tuple[int, int]:
    """Start and end of the sentence holding ``position``: split on 。！？；;.!? and
    line ends (a full stop only when a space or the end follows, so 99.9 stays)."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.end() <= position:
            start = match.end()
        elif match.start() >= position:
            return start, match.start()
    return start, len(text)


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentence spans of ``text``, empty ones dropped."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if text[start : match.start()].strip():
            spans.append((start, match.start()))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def clause_before(text: str, start: int) -> str:
    """The clause in front of ``start``: from the last clause break of its sentence."""
    sentence_start, _ = sentence_span(text, start)
    before = text[sentence_start:start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    return before[breaks[-1].end() :] if breaks else before


def clause_after(text: str, end: int) -> str:
    """The rest of the clause after ``end``."""
    _, sentence_end = sentence_span(text, end)
    after = text[end:sentence_end]
    cut = re.search(r"[，：:]|\b(?:but|however|whereas)\b|但|然而", after, re.I)
    return after[: cut.start()] if cut else after


def words_between(text: str) -> float:
    """How far apart two points are, in words (a Chinese character is half a word)."""
    return sum(
        0.5 if _CJK.match(word.group(0)) else 1.0 for word in _WORD.finditer(text)
    )


def _governs(pattern: re.Pattern[str], before: str, reach_words: float) -> bool:
    return any(
        words_between(before[match.end() :]) <= reach_words
        for match in pattern.finditer(before)
    )


def is_preceded_by(
    text: str, start: int, pattern: re.Pattern[str], reach_words: float = 3.0
) -> bool:
    """Whether ``pattern`` matches in the clause before ``start``, at most
    ``reach_words`` words ahead of it ("instead of Slurm", "相比 Slurm")."""
    return _governs(pattern, clause_before(text, start), reach_words)


def is_negated(text: str, start: int, end: int) -> bool:
    """Whether a negator governs ``text[start:end]``: one shortly before it in its
    clause (不/不作/未/无法/并非, not/never/cannot; no/without just before the noun),
    or a negated predicate after it ("... is not guaranteed", "... 不作保证",
    "... 是不可能的")."""
    before = _FALSE_NEGATOR.sub(
        lambda m: " " * len(m.group(0)), clause_before(text, start)
    )
    if _governs(_NEGATOR_VERB, before, _VERB_REACH_WORDS) or _governs(
        _NEGATOR_DETERMINER, before, _DETERMINER_REACH_WORDS
    ):
        return True
    after = clause_after(text, end)
    return bool(
        _NEGATED_AFTER_EN.search(after) or _NEGATED_AFTER_ZH.search(after.lstrip())
    )


def is_hedged(text: str, start: int) -> bool:
    """Whether the clause before ``start`` states an aim, not a promise (力争零故障,
    "we aim for zero downtime", "our target is 99.95 % availability")."""
    return _governs(_HEDGE, clause_before(text, start), _VERB_REACH_WORDS)


def is_asserted(text: str, start: int, end: int) -> bool:
    """Neither negated nor hedged: the text says it."""
    return not is_negated(text, start, end) and not is_hedged(text, start)


def is_sentence_hedged(text: str, position: int) -> bool:
    """Whether the sentence holding ``position`` states practice or an estimate, not
    a promise (原则上, 一般情况下, 视情况, 预计, "in principle", "typically"), or an
    aim before it in its clause (``is_hedged``)."""
    start, end = sentence_span(text, position)
    return bool(_SENTENCE_HEDGE.search(text, start, end)) or is_hedged(text, position)


def paragraph_span(text: str, position: int) -> tuple[int, int]:
    """Start and end of the paragraph holding ``position``: cut at a blank line, or
    at a line that starts a numbered or bulleted point (1、 (2) - •). A text without
    such breaks is one paragraph."""
    start, end = 0, len(text)
    for match in _PARAGRAPH_BREAK.finditer(text):
        if match.end() <= position:
            start = match.end()
        elif match.start() >= position:
            end = match.start()
            break
    return start, end
