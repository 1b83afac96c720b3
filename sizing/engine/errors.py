"""The one exception the sizing engine raises for bad input."""

from __future__ import annotations

from typing import Any


class SizingInputError(ValueError):
    """Input the engine cannot size.

    ``field`` is the dotted path of the offending value in the API body (for example
    ``workload.model.hidden_size``) so an entry point can attach the message to it.
    ``code`` names the rule that refused it and ``params`` hold its figures, so the app
    can say the same in the user's language (``sizing/input_errors.py``); ``message``
    stays the engine's English, for logs and the command line.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str = "",
        code: str = "",
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})

    def at(self, field: str) -> SizingInputError:
        """The same refusal named by another path (an API path as a form field)."""
        return SizingInputError(
            self.message, field=field, code=self.code, params=self.params
        )
