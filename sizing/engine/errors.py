"""The one exception the sizing engine raises for bad input."""


class SizingInputError(ValueError):
    """Input the engine cannot size.

    ``field`` is the dotted path of the offending value in the API body (for example
    ``workload.model.hidden_size``) so an entry point can attach the message to it.
    """

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
