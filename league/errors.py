"""The one error type of the club's bookkeeping services.

Every service refuses bad input with a `BooksError` that carries a stable `code` (for the
API), a German-translatable `message` (for the pages), the `field` it concerns and the HTTP
`status` an API answers with (400 bad input, 404 unknown, 409 conflict, 412 stale version).
Nothing is written when one is raised (services run in one transaction).
"""


class BooksError(Exception):
    """A refused change to the books. Attributes: code, message, field (or None), status."""

    def __init__(self, code: str, message: str, *, field: str | None = None, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.field = field
        self.status = status

    def as_dict(self) -> dict:
        """The API's error body: {"code", "message", "field"}."""
        return {"code": self.code, "message": self.message, "field": self.field}
