"""Bytes -> ParsedLog: which tool wrote a log, then that tool's parser."""

from __future__ import annotations

from .records import ParsedLog


def parse_log(data: bytes, *, tool: str | None = None) -> ParsedLog:
    raise NotImplementedError
