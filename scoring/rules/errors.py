"""The one error type of the scoring engine.

Every refusal names the input field at fault and, where one applies, the RULES.md section broken,
so that an HTTP edge can map it to a field-level 400 and the command line can print one line.
The message is a template and its figures (``"{tricks} is not between 0 and 13"``, ``tricks=14``)
so that the edge can say it in the reader's language (scoring/shared/error_messages.py,
docs/i18n.md).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ScoringError"]


class ScoringError(ValueError):
    """Bad scoring input.

    ``field`` names the input at fault (``"tricks"``, ``"deals[3].tricks"``), ``rule`` the RULES.md
    section broken (``"RULES 3.6"``) or None, ``message`` says what is wrong; ``str(error)`` is
    the one-line ``"field: message (RULES x)"``.

    The message is given as a ``str.format`` template, a literal (no f-string), and its figures as
    keywords: ``ScoringError("tricks", "{tricks} is not between 0 and 13", "RULES 1", tricks=14)``.
    ``template`` and ``params`` keep them for translation; ``message`` is the English text. As
    with Django's ``ValidationError``, a template without params is used as it is (no braces to
    escape).
    """

    def __init__(
        self, field: str, template: str, rule: str | None = None, /, **params: object
    ) -> None:
        self.field = field
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        self.rule = rule
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}" if self.field else self.message
        return f"{text} ({self.rule})" if self.rule else text

    def __reduce__(self) -> tuple[Callable[..., ScoringError], tuple[object, ...]]:
        return (_rebuild, (type(self), self.field, self.template, self.rule, dict(self.params)))

    def within(self, prefix: str) -> ScoringError:
        """The same error, its field placed under ``prefix`` (``tricks`` → ``deals[3].tricks``)."""
        if not prefix:
            return self
        field = f"{prefix}.{self.field}" if self.field else prefix
        return ScoringError(field, self.template, self.rule, **self.params)


def _rebuild(
    cls: type[ScoringError], field: str, template: str, rule: str | None, params: dict[str, object]
) -> ScoringError:
    """Unpickle: the keyword params cannot ride in the plain constructor arguments."""
    return cls(field, template, rule, **params)
