"""The articles a statutory evaluation rests on, each quoted from the text it was read in.

A rule in this package carries the ``Article`` it applies, so a validator's message, a
report line and a reviewer can all point to the same sentence of law. ``primary`` says
whether the quote was read in the primary text (the law or regulation as published);
``primary=False`` marks a quote taken from a secondary source only (a commentary, a
republication), which a reviewer should check before relying on it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Article"]


@dataclass(frozen=True)
class Article:
    law: str  # the instrument, in Chinese as cited: "政府采购法实施条例"
    article: str  # "第二十条" / "Art. 20" as cited
    quote_zh: str  # the article's text (or the clause applied), verbatim
    primary: bool  # True: read in the primary text; False: secondary source only
    source: str = ""  # where the quote was read (repository and path, or address)

    @property
    def citation(self) -> str:
        """ "《政府采购法实施条例》第二十条" — how a report cites it."""
        return f"《{self.law}》{self.article}"
