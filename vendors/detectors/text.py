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
