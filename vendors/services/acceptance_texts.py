"""A clause's command, source and basis in the reader's language.

The acceptance engine (``vendors.engine.acceptance.plan``) and the service and safety
clauses (``acceptance_inputs``) write each clause's texts in English, and the clause
rows keep them as written. What a person reads is shown here:

* ``command``: the shell command is code and stays as it is (``all_reduce_perf -b 1G
  ...``); a note the engine writes after two spaces in brackets (``gpu_burn -d 3600
  (wilicc/gpu-burn, all GPUs, 1 h)``) and a command that is an instruction in words
  ("Electrical inspection of the racks: ...") are put into the reader's language.
* ``source`` and ``basis``: each part (the engine joins them with "; ") through the
  catalogue, the engine's English as the msgid; the parts with a figure in them
  through the patterns below.

A fixed text of the engine without a Chinese entry shows in English: the test
``tests/vendors/test_acceptance_texts.py`` builds the clauses of an NVIDIA, an
Ascend and a PCIe plan and fails on any such text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext, gettext_lazy, gettext_noop

#: "code  (note)": the engine's convention for a note after a command.
_NOTE = re.compile(r"^(?P<code>.+?)\s{2}\((?P<note>[^()]*)\)$")

#: Texts with a figure in them: (pattern, msgid with the pattern's groups).
_PATTERNS: tuple[tuple[re.Pattern, object], ...] = (
    (
        re.compile(
            r"^full-load run for (?P<hours>[\d.]+) h \(training job or gpu_burn\) with"
            r" no XID, ECC or link error$"
        ),
        gettext_lazy(
            "full-load run for %(hours)s h (training job or gpu_burn) with no XID, "
            "ECC or link error"
        ),
    ),
    (
        re.compile(r"^(?P<hours>[\d.]+) h without a hardware error$"),
        gettext_lazy("%(hours)s h without a hardware error"),
    ),
    (
        re.compile(r"^1\.0 x the plan's read throughput (?P<figure>[\d.,]+) GB/s$"),
        gettext_lazy("1.0 x the plan's read throughput %(figure)s GB/s"),
    ),
    (
        re.compile(r"^1\.0 x the plan's write throughput (?P<figure>[\d.,]+) GB/s$"),
        gettext_lazy("1.0 x the plan's write throughput %(figure)s GB/s"),
    ),
    (
        re.compile(r"^tightened to the bid's promise (?P<figure>[\d.,e+-]+)$"),
        gettext_lazy("tightened to the bid's promise %(figure)s"),
    ),
    (
        re.compile(r"^the bid's promise (?P<figure>[\d.,e+-]+)$"),
        gettext_lazy("the bid's promise %(figure)s"),
    ),
    (
        re.compile(r"^FP64 peak: (?P<source>.+)$"),
        gettext_lazy("FP64 peak: %(source)s"),
    ),
    (
        re.compile(r"^response time promised for (?P<severity>\S+)$"),
        gettext_lazy("response time promised for %(severity)s"),
    ),
)


#: Words inside the engine's formulas ("0.9 x NVLS 480/450 x 450 GB/s per direction
#: (900 GB/s bidirectional, datasheet) = 432.00 GB/s busbw"): each phrase translated
#: where it stands, the figures and symbols kept. Longest first.
_FORMULA_PHRASES = tuple(
    (re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])"), phrase)
    for phrase in (
        gettext_noop("(assumed share: no published all-to-all figure found)"),
        gettext_noop("(assumed share; no Huawei figure)"),
        gettext_noop("FP64 peak per node"),
        gettext_noop("node NVLink figure"),
        gettext_noop("GPUs per node"),
        gettext_noop("line rate per NPU"),
        gettext_noop("per direction"),
        gettext_noop("bidirectional"),
        gettext_noop("datasheet"),
        gettext_noop("line rate"),
        gettext_noop("per NIC"),
        gettext_noop("per node"),
        gettext_noop("HCCS ring"),
        gettext_noop("ring share"),
        gettext_noop("as algbw"),
        gettext_noop("ring"),
    )
)
_NODES = re.compile(r"\b(?P<n>\d+) nodes\b")


def _shown_formula(part: str) -> str:
    for pattern, phrase in _FORMULA_PHRASES:
        part = pattern.sub(lambda _m, p=phrase: gettext(p), part)
    return _NODES.sub(lambda m: gettext("%(n)s nodes") % {"n": m["n"]}, part)


def shown_text(text: str) -> str:
    """``text`` (a source or a basis; parts joined with "; ") in the active language."""
    if not text:
        return text
    return "; ".join(_shown_part(part) for part in _parts(text))


def _parts(text: str) -> list[str]:
    """``text`` split at its "; " outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and text.startswith("; ", i):
            parts.append(text[start:i])
            start = i + 2
    return [*parts, text[start:]]


def _shown_part(part: str) -> str:
    for pattern, msgid in _PATTERNS:
        if match := pattern.match(part):
            return str(msgid) % match.groupdict()
    shown = gettext(part)
    return shown if shown != part else _shown_formula(part)


@dataclass(frozen=True)
class ShownCommand:
    code: str  # the command to run, as it is ("" for an instruction in words)
    note: str  # words about it, in the active language

    def __str__(self) -> str:
        if self.code and self.note:
            return f"{self.code} ({self.note})"
        return self.code or self.note


def shown_command(command: str) -> ShownCommand:
    """A clause's command split into its code and its words, the words translated."""
    if not command:
        return ShownCommand("", "")
    words = _shown_part(command)
    if words != command or not _looks_like_code(command):
        return ShownCommand("", words)
    if match := _NOTE.match(command):
        return ShownCommand(match["code"], gettext(match["note"]))
    return ShownCommand(command, "")


# A command starts with its program: a lower-case word, a path or an option.
_PROGRAM = re.compile(r"^(?:\./|/)?[a-z][\w./-]*(?:\s|$)")


def _looks_like_code(command: str) -> bool:
    return bool(_PROGRAM.match(command)) and not command.startswith("the ")
