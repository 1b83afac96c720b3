"""The TCO engine's one exception: an input it cannot use, named by its field."""

from __future__ import annotations

from typing import Any


class TcoInputError(ValueError):
    """A scenario input is invalid; ``field`` names it as the form/API knows it.

    ``code`` names the rule and ``params`` its figures, so the app can say it in the
    user's language (``tco/labels.py``); ``message`` stays the engine's English.
    """

    def __init__(
        self,
        field: str,
        message: str,
        *,
        code: str = "",
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})
