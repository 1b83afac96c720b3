"""Misspellings of the technical terms a GPU-cluster bid uses.

Two bids that misspell a term the same way ("Kubernets", "Infiniband" is *not* one:
case is ignored) share an error few writers make independently — a collusion signal
(招标投标法实施条例 第四十条（四）异常一致). A token is a misspelling of a term when it is
within one edit (insertion, deletion, substitution or swap of neighbours) of the term,
case-insensitively, but not the term itself.
"""

from __future__ import annotations

import re

__all__ = ["TERMS", "misspelt_terms"]

TERMS = (
    "kubernetes",
    "infiniband",
    "nvidia",
    "slurm",
    "ethernet",
    "pflops",
    "tflops",
    "nvlink",
    "nvswitch",
    "mellanox",
    "supermicro",
    "inspur",
    "huawei",
    "ascend",
    "lustre",
    "weka",
    "ceph",
    "rdma",
    "roce",
    "pytorch",
    "megatron",
    "deepspeed",
    "prometheus",
    "grafana",
    "docker",
    "container",
    "hopper",
    "blackwell",
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9-]{3,}")


def _one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i, j = diff[0], diff[-1]
        return len(diff) == 2 and j == i + 1 and a[i] == b[j] and a[j] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def misspelt_terms(text: str) -> list[str]:
    """The tokens of ``text`` that misspell one of ``TERMS``, once each, in order."""
    found: list[str] = []
    for token in _TOKEN.findall(text):
        lower = token.casefold()
        if (
            lower in TERMS
            or lower.rstrip("s") in TERMS
            or any(t.casefold() == token.casefold() for t in found)
        ):
            continue
        if any(len(term) >= 5 and _one_edit(lower, term) for term in TERMS):
            found.append(token)
    return found
