"""The words of a cost item's basis in the reader's language.

The engine writes each basis as a short formula in English words
(``"8 nodes x 20,000/node"``, ``"12 nodes: 6 switches x 64 ports x 4,050 + ..."``,
``"1,100 TB (pfs-good) x 1,440/TB"``). The basis is stored as written (a TCO run and a
frozen decision keep it as JSON); a page, a PDF or a bilingual finding shows it through
:func:`basis_in`, which puts the engine's own counted words into Chinese. Like the
input table's ``label_en``/``label_zh``, the words live beside the engine that writes
them, so a new word is added here, once.
"""

from __future__ import annotations

import re

#: Counted words the engine writes after a number, and their Chinese (measure word
#: and noun: "8 个节点", "6 台交换机").
COUNTED_ZH: dict[str, str] = {
    "nodes": "个节点",
    "node": "个节点",
    "switches": "台交换机",
    "switch": "台交换机",
    "ports": "个端口",
    "port": "个端口",
    "links": "条链路",
    "link": "条链路",
    "NICs": "块网卡",
    "NIC": "块网卡",
    "line(s)": "条报价行",
    "y": "年",
    "FTE": "名全职人员",
}
#: Words the engine writes after a slash (a price per unit) and other loose words.
PER_ZH: dict[str, str] = {
    "node": "节点",
    "y": "年",
    "TB": "TB",
    "W": "W",
    "kWh": "kWh",
    "kW/month": "kW/月",
}
WORDS_ZH: dict[str, str] = {
    "quoted": "已报价",
    "plan": "方案",
    "over": "共",
}

_COUNTED = re.compile(
    r"(?P<n>\d[\d,.]*) (?P<word>"
    + "|".join(re.escape(w) for w in sorted(COUNTED_ZH, key=len, reverse=True))
    + r")(?![\w(])"
)
_PER = re.compile(
    r"/(?P<word>"
    + "|".join(re.escape(w) for w in sorted(PER_ZH, key=len, reverse=True))
    + r")\b"
)
_WORDS = re.compile(r"\b(?P<word>" + "|".join(WORDS_ZH) + r")\b")
_TERM = re.compile(r"\byears (?P<a>\d+)-(?P<b>\d+)\b")
_OUTSIDE = "outside the horizon"


def basis_in(basis: str, lang: str) -> str:
    """``basis`` as a reader of ``lang`` sees it: unchanged in English; in Chinese
    ("zh", "zh-hans", ...) the engine's counted words, per-unit words and the few
    loose words put into Chinese, figures and symbols (x, +, TB, kW) kept."""
    if not basis or not (lang or "").lower().startswith("zh"):
        return basis
    text = _TERM.sub(lambda m: f"第 {m['a']}-{m['b']} 年", basis)
    text = text.replace(_OUTSIDE, "不在测算周期内")
    text = _COUNTED.sub(lambda m: f"{m['n']} {COUNTED_ZH[m['word']]}", text)
    text = _PER.sub(lambda m: "/" + PER_ZH[m["word"]], text)
    return _WORDS.sub(lambda m: WORDS_ZH[m["word"]], text)
