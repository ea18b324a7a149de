"""The one error the rules raise for entries that could not have happened at the table.

Source: docs/rules.md section 7 (``RuleViolation(ValueError)`` with a stable ``.code`` and a
readable message). Standard library only.
"""

from __future__ import annotations

__all__ = ["RuleViolation"]


class RuleViolation(ValueError):
    """An entry that the rules of Schocken (docs/rules.md) do not allow.

    Attributes:
        code: stable snake_case name of the broken rule, e.g. ``"keep_not_one"``; forms, the
            API and the import map it to their own messages, so it never changes.
        message: the German explanation without the attempt prefix.
        attempt: 1-based number of the attempt (Versuch) the entry broke, or ``None`` when
            the violation is not about one attempt.
        rule: where the rule is written down, e.g. ``"docs/rules.md 3, keep_only_ones"``.
        player: whose entry the game engine refused (for a form to mark), else None.

    ``str(exc)`` is the German message, prefixed with ``"Versuch n: "`` when ``attempt`` is
    set, so it can be shown to the secretary as it is.
    """

    def __init__(
        self,
        code: str,
        message: str,
        attempt: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.attempt = attempt
        self.rule = rule
        self.player: object = None
        super().__init__(self._text())

    def _text(self) -> str:
        if self.attempt is None:
            return self.message
        return f"Versuch {self.attempt}: {self.message}"

    def __str__(self) -> str:
        return self._text()

    def __repr__(self) -> str:
        return (
            f"RuleViolation(code={self.code!r}, message={self.message!r}, "
            f"attempt={self.attempt!r}, rule={self.rule!r})"
        )

    def __reduce__(self) -> tuple[type[RuleViolation], tuple[str, str, int | None, str | None]]:
        # Exceptions cross process boundaries (Celery results, multiprocessing in the
        # simulator); the default reduce would call __init__ with the formatted text only.
        return (type(self), (self.code, self.message, self.attempt, self.rule))
