"""The API's JSON parser: DRF's, with two bodies that are valid JSON but cannot be answered
refused like any other malformed JSON (400 in the API's error shape, config/api.py), never a 500:

- a body nested deeper than the decoder can follow (the decoder's RecursionError);
- a string holding a lone surrogate (`"\\ud800"`): JSON's escapes can spell one, but it is no
  character and no UTF-8 can carry it, so neither the database nor an answer repeating the value
  could (docs/security.md).
"""

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


def _has_lone_surrogate(value: Any) -> bool:
    """Whether any string in a decoded JSON value, keys included, fails to encode as UTF-8 (only
    a lone surrogate can: the decoder joins a valid pair into one character)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode()
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            # The API answers every ParseError with one plain sentence (config.api).
            raise ParseError() from exc
        if _has_lone_surrogate(data):
            raise ParseError()
        return data
