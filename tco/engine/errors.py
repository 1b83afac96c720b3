"""The TCO engine's one exception: an input it cannot use, named by its field."""

from __future__ import annotations


class TcoInputError(ValueError):
    """A scenario input is invalid; ``field`` names it as the form/API knows it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
