"""The one error type of the scoring engine.

Every refusal names the input field at fault and, where one applies, the RULES.md section broken,
so that an HTTP edge can map it to a field-level 400 and the command line can print one line.
"""

from __future__ import annotations

__all__ = ["ScoringError"]


class ScoringError(ValueError):
    """Bad scoring input.

    ``field`` names the input at fault (``"tricks"``, ``"deals[3].tricks"``), ``rule`` the RULES.md
    section broken (``"RULES 3.6"``) or None, ``message`` says what is wrong; ``str(error)`` is
    the one-line ``"field: message (RULES x)"``.
    """

    def __init__(self, field: str, message: str, rule: str | None = None) -> None:
        self.field = field
        self.message = message
        self.rule = rule
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}" if self.field else self.message
        return f"{text} ({self.rule})" if self.rule else text

    def __reduce__(self) -> tuple[type[ScoringError], tuple[str, str, str | None]]:
        return (type(self), (self.field, self.message, self.rule))

    def within(self, prefix: str) -> ScoringError:
        """The same error, its field placed under ``prefix`` (``tricks`` → ``deals[3].tricks``)."""
        if not prefix:
            return self
        field = f"{prefix}.{self.field}" if self.field else prefix
        return ScoringError(field, self.message, self.rule)
