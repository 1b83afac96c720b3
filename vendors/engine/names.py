"""The ways a text names a vendor: its legal name's fragments (each script's half of a
bilingual name, the name less its company suffixes, its distinctive first word) and
its aliases, as one pattern (pure: `visibility` redacts with it for blind grading)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Words too common in company names to identify one ("Quokka Systems Ltd" is found by
# "Quokka"; "Systems" alone says nothing and would blank ordinary prose).
GENERIC_NAME_WORDS = frozenset(
    {
        "co",
        "co.",
        "corp",
        "corp.",
        "corporation",
        "company",
        "compute",
        "computing",
        "cloud",
        "data",
        "group",
        "holdings",
        "inc",
        "inc.",
        "international",
        "limited",
        "ltd",
        "ltd.",
        "networks",
        "server",
        "servers",
        "solutions",
        "systems",
        "tech",
        "technologies",
        "technology",
    }
)
GENERIC_NAME_SUFFIXES_ZH = (
    "股份有限公司",
    "有限责任公司",
    "有限公司",
    "集团",
    "科技",
    "技术",
    "信息",
    "电子",
    "服务器",
)
_CJK = re.compile(r"[\u3400-\u9fff]")
MIN_WORD_CHARS = 4


def name_fragments(name: str) -> list[str]:
    """The ways a text names a vendor: its name, each script's half of a bilingual
    name ("智算集成 Balanced Compute Co."), each less its company suffixes ("Quokka
    Systems Ltd" -> "Quokka"; "华为技术有限公司" -> "华为") and its first word, the
    one a company is called by, when that is distinctive ("Quokka", not "GPU")."""
    name = " ".join(name.split())
    fragments = [name]
    for part in _script_parts(name):
        words = part.split()
        fragments.append(part)
        while len(words) > 1 and words[-1].casefold() in GENERIC_NAME_WORDS:
            words.pop()
            fragments.append(" ".join(words))
        fragments += _stems_zh(part)
        first = words[0].strip(",;()（）")
        is_cjk = _CJK.search(first) is not None
        if first.casefold() not in GENERIC_NAME_WORDS and (
            len(first) >= MIN_WORD_CHARS or (is_cjk and len(first) >= 2)
        ):
            fragments += [first, *_stems_zh(first)]
    return [f for f in dict.fromkeys(fragments) if f]


def _script_parts(name: str) -> list[str]:
    """A bilingual name's Chinese and Latin halves (runs of words of one script)."""
    parts: list[list[str]] = []
    for word in name.split():
        if parts and (_CJK.search(parts[-1][-1]) is None) == (
            _CJK.search(word) is None
        ):
            parts[-1].append(word)
        else:
            parts.append([word])
    return [" ".join(words) for words in parts]


def _stems_zh(name: str) -> list[str]:
    """ "华为技术有限公司" -> ["华为技术", "华为"]: the name less each company suffix."""
    stems = []
    stem = name
    while True:
        suffix = next(
            (
                s
                for s in GENERIC_NAME_SUFFIXES_ZH
                if stem.endswith(s) and len(stem) > len(s) + 1
            ),
            None,
        )
        if suffix is None:
            return stems
        stem = stem.removesuffix(suffix)
        stems.append(stem)


def name_pattern(
    names: Iterable[str], aliases: Iterable[str] = ()
) -> re.Pattern | None:
    """One case-insensitive pattern for every fragment of ``names`` and every one of
    ``aliases`` (as written: a brand, a product line), longest first; Latin fragments
    only as whole words ("Recompute" is not "Compute")."""
    fragments = sorted(
        {f for name in names for f in name_fragments(name)}
        | {" ".join(a.split()) for a in aliases if a and a.strip()},
        key=len,
        reverse=True,
    )
    if not fragments:
        return None
    return re.compile("|".join(_alternative(f) for f in fragments), re.IGNORECASE)


def _alternative(fragment: str) -> str:
    """A CJK fragment anywhere; a Latin one as a whole word, and one that starts or
    ends with a digit not inside a longer number ("TJ-AI8000" is not "TJ-AI80001")."""
    if _CJK.match(fragment):
        return re.escape(fragment)
    left = r"(?<![^\W_])" if fragment[0].isdigit() else r"(?<![^\W\d_])"
    right = r"(?![^\W_])" if fragment[-1].isdigit() else r"(?![^\W\d_])"
    return f"{left}{re.escape(fragment)}{right}"
