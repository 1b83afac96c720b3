"""Every clause text a reader sees is in the reader's language: the command's words,
the source and the basis of every clause the engine builds (NVIDIA NVLink, NVIDIA
PCIe, Ascend HCCS; training, serving; a bid's promise) and of the service and safety
clauses. Code (the command itself), names (NVIDIA, BabelStream, nccl-tests#119) and
symbols stay as written; a lower-case English word left in the Chinese text fails."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from vendors.engine.acceptance.plan import build_clauses
from vendors.engine.acceptance.records import AcceptanceInputs
from vendors.models import Bid
from vendors.services.acceptance_inputs import _safety_clauses, _service_clauses
from vendors.services.acceptance_texts import shown_command, shown_text

# Tokens that are not words of a language: code, paths, references, figures, units.
NOT_WORDS = re.compile(
    r"\S*[\d/_#@=<>$.:-]\S*"  # figures, paths, options, refs (8xH100, nccl-tests#212)
    r"|\b[A-Z]\w*"  # names and acronyms (NVIDIA, BabelStream, GB, SLO, Pass)
    r"|\b(?:x|min|busbw|algbw|triad|mpirun|fio|mdtest|dcgmi|diag|perftest|gpu_burn)\b"
)
ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")


def _inputs(family: str, link: str, bw: float, kind: str, unit: str | None):
    return AcceptanceInputs(
        "x", family, 16, 2, 8, link, bw, 4.8, 67.0, 8, 400.0, 56.0, 13.7,
        kind, 100.0, unit, promised={"nccl_all_reduce_node": 500.0},
    )  # fmt: skip


def _texts() -> list[tuple[str, str]]:
    texts = []
    for family, link, bw in (
        ("nvidia", "NVLink4", 900.0),
        ("huawei", "HCCS", 392.0),
        ("nvidia", "PCIe Gen5", 128.0),
    ):
        for kind, unit in (
            ("training", "s"),
            ("training", "tokens/s"),
            ("serving", None),
        ):
            for c in build_clauses(_inputs(family, link, bw, kind, unit)):
                texts += [
                    ("command", c.command),
                    ("source", c.source),
                    ("basis", c.basis),
                ]
    bid = Bid(
        response_hours={"P1": 4},
        onsite_hours=8,
        availability_pct=99.9,
        warranty_years=3,
        peak_power_kw=80,
    )
    for row in _service_clauses(bid) + _safety_clauses(bid):
        texts += [(k, row[k]) for k in ("command", "source", "basis") if row.get(k)]
    return sorted(set(texts))


def _shown(kind: str, text: str) -> str:
    if kind == "command":
        return shown_command(text).note  # the code is code
    return shown_text(text)


@pytest.mark.parametrize("kind,text", _texts())
def test_every_clause_text_reads_in_chinese(kind, text):
    with translation.override("zh-hans"):
        shown = _shown(kind, text)
    left = ENGLISH_WORD.findall(NOT_WORDS.sub(" ", shown))
    assert not left, (text, shown)


@pytest.mark.parametrize("kind,text", _texts())
def test_in_english_a_clause_text_is_the_engine_s_own(kind, text):
    with translation.override("en"):
        command = shown_command(text) if kind == "command" else None
        assert (str(command) if command else shown_text(text)) in (
            text,
            text.replace("  (", " ("),
        )


def test_a_command_keeps_its_code_and_translates_its_note():
    with translation.override("zh-hans"):
        c = shown_command("gpu_burn -d 3600  (wilicc/gpu-burn, all GPUs, 1 h)")
        words = shown_command("Warranty years written in the signed contract.")
        burn = shown_command(
            "full-load run for 168 h (training job or gpu_burn) with no XID, ECC or"
            " link error"
        )
    assert (c.code, c.note) == ("gpu_burn -d 3600", "wilicc/gpu-burn，全部 GPU，1 小时")
    assert (words.code, words.note) == ("", "已签合同中写明的保修年限。")
    assert (
        burn.note
        == "满负载运行 168 小时（训练任务或 gpu_burn），无 XID、ECC 或链路错误"
    )
    assert str(shown_command("all_reduce_perf -b 1G -e 16G -f 2 -g 8")) == (
        "all_reduce_perf -b 1G -e 16G -f 2 -g 8"
    )
