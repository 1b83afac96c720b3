"""Collusion signals across bids, for the committee to judge; never disqualifying alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from .articles import Article

__all__ = ["CollusionFacts", "CollusionSignal", "SignalKind", "collusion_signals"]

SignalKind = Literal[
    "same_contact",
    "same_phone",
    "same_email",
    "same_author",
    "same_typos",
    "similar_text",
    "price_steps",
    "same_bond_account",
]


@dataclass(frozen=True)
class CollusionFacts:
    bid_id: str
    contact_person: str = ""
    phone: str = ""
    email: str = ""
    doc_authors: tuple[
        str, ...
    ] = ()  # author / creator in uploaded documents' metadata
    bond_account: str = ""  # the account the bid bond was paid from
    text: str = ""  # the technical proposal's text
    price_cny: Decimal | None = None


@dataclass(frozen=True)
class CollusionSignal:
    kind: SignalKind
    bid_ids: tuple[str, ...]  # sorted
    evidence: str  # what was found, quoted
    article: Article


def collusion_signals(facts: Sequence[CollusionFacts]) -> tuple[CollusionSignal, ...]:
    raise NotImplementedError
