"""Finding claims in a bid's text: sentences, numbers, the accelerator a claim is
about (the one named nearest before it in its sentence)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sizing.engine.catalog import Accelerator

from .facts import BidSpec

_BEFORE = r"(?:(?<=\d[xX×])|(?<![A-Za-z0-9]))"
_AFTER = r"(?![A-Za-z0-9])"
MODEL_RE = re.compile(
    _BEFORE + r"(GB[23]00|GH200|H100|H200|H800|H20|A100|A800|A40|A30|B100|B200|B300"
    r"|L40S|L40|L20|L4|MI\d{3}X?|910[BC]|Gaudi\s?3|RTX\s?\d{4}D?)" + _AFTER,
    re.IGNORECASE,
)
_VARIANT_RE = re.compile(r"[\s-]*(NVL(?!ink)|PCIe|SXM)", re.IGNORECASE)
NUMBER = r"(?<![A-Za-z\d.,])(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
SNIPPET_CHARS = 100
SENTENCE_MAX_CHARS = 400
MAX_MATCHES = 50
_CLAUSE_END = re.compile(r"[，,;；。!?！？、]")
_SENTENCE_END = re.compile(r"(?<=[。；;！!？?\n])|(?<=\.)\s+")


@dataclass(frozen=True)
class Found:
    """A number found in a sentence: its value, span and the sentence."""

    value: float
    start: int
    end: int
    sentence: str

    def before(self, chars: int) -> str:
        return self.sentence[max(0, self.start - chars) : self.start]

    def after(self, chars: int) -> str:
        return self.sentence[self.end : self.end + chars]

    @property
    def snippet(self) -> str:
        """The sentence, or the 100 characters around the claim in a long one."""
        if len(self.sentence) <= SNIPPET_CHARS:
            return self.sentence
        start = max(0, min(self.start - 50, len(self.sentence) - SNIPPET_CHARS))
        text = self.sentence[start : start + SNIPPET_CHARS].strip()
        head = "…" if start > 0 else ""
        tail = "…" if start + SNIPPET_CHARS < len(self.sentence) else ""
        return f"{head}{text}{tail}"


def number(text: str) -> float:
    return float(text.replace(",", ""))


def sentences(bid: BidSpec) -> list[str]:
    """The bid's text fields and proposal cut into sentences, a long run without a
    sentence end into pieces of SENTENCE_MAX_CHARS (each claim's context is read
    within its sentence, so the work stays linear in the text's length)."""
    texts = (bid.server_model, bid.scaleup_link, bid.network_fabric, bid.proposal_text)
    pieces = []
    for text in texts:
        for sentence in _SENTENCE_END.split(text or ""):
            sentence = (sentence or "").strip()
            for start in range(0, len(sentence), SENTENCE_MAX_CHARS):
                pieces.append(sentence[start : start + SENTENCE_MAX_CHARS])
    return pieces


def _variants(text: str) -> set[str]:
    return {v.lower() for v in re.findall(r"NVL(?!ink)|PCIe|SXM", text, re.IGNORECASE)}


def _norm_model(token: str) -> str:
    return re.sub(r"\s", "", token).upper()


def is_offered(found: Found, sheet: Accelerator | None) -> bool:
    """The claim is about the offered part: no model named before it in its sentence,
    or the nearest one named is the offered one (and not another SKU of it)."""
    mentions = [m for m in MODEL_RE.finditer(found.sentence) if m.end() <= found.start]
    if not mentions:
        return True
    if sheet is None:
        return False
    nearest = mentions[-1]
    own = {_norm_model(m) for m in MODEL_RE.findall(f"{sheet.name} {sheet.key}")}
    if _norm_model(nearest.group(1)) not in own:
        return False
    variant = _VARIANT_RE.match(found.sentence, nearest.end(), found.start)
    if variant is None:
        return True
    own_variants = _variants(sheet.name) or _variants(sheet.form_factor)
    return variant.group(1).lower() in own_variants


def find(
    pattern: re.Pattern, texts: list[str], sheet: Accelerator | None, *, offered=True
) -> list[tuple[re.Match, Found]]:
    """(match, Found) for every match of ``pattern`` (its number in group "n", if
    any), only those about the offered part unless ``offered`` is False; the first
    MAX_MATCHES sentences' worth (no proposal restates a figure more often, and a
    crafted text cannot make the comparison slow)."""
    out: list[tuple[re.Match, Found]] = []
    for sentence in texts:
        if len(out) >= MAX_MATCHES:
            break
        for match in pattern.finditer(sentence):
            has_number = "n" in pattern.groupindex and match.group("n")
            start = match.start("n") if has_number else match.start()
            value = number(match.group("n")) if has_number else 0.0
            found = Found(value, start, match.end(), sentence)
            if not offered or is_offered(found, sheet):
                out.append((match, found))
    return out


def numbers_around(found: Found, chars: int = 30) -> tuple[str, str]:
    """The text of ``found``'s clause before and after it, up to the neighbouring
    numbers (at most ``chars`` each side): where its precision, dense/sparse label or
    direction are said. Commas between digits ("1,979") are not clause ends."""
    spans = [m.span("n") for m in re.finditer(NUMBER, found.sentence)]
    prev_end = max((e for s, e in spans if e <= found.start), default=0)
    next_start = min(
        (s for s, e in spans if s >= found.end), default=len(found.sentence)
    )
    before = found.sentence[max(prev_end, found.start - chars) : found.start]
    after = found.sentence[found.end : min(next_start, found.end + chars)]
    return _CLAUSE_END.split(before)[-1], _CLAUSE_END.split(after, maxsplit=1)[0]


def nearest(pattern: re.Pattern, before: str, after: str) -> re.Match | None:
    """The match of ``pattern`` closest to the number between ``before`` and ``after``."""
    matches = list(pattern.finditer(before))
    last = matches[-1] if matches else None
    first = pattern.search(after)
    if last is None or first is None:
        return last or first
    return last if len(before) - last.end() <= first.start() else first


def fmt(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.1f}".rstrip("0").rstrip(".")


def within(claimed: float, expected: float, tolerance: float) -> bool:
    return abs(claimed - expected) <= tolerance * expected


def missing(sheet: Accelerator | None, what: str) -> tuple[tuple[str, str], str]:
    name = sheet.name if sheet else ""
    en = f"not in the catalog ({name})" if name else "no catalog row"
    zh = f"目录中无此数据（{name}）" if name else "目录中无此加速器"
    return (en + f": {what}", zh + f"：{what}"), sheet.source if sheet else ""
