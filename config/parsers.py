"""The API's JSON parser: DRF's, with a body nested deeper than the decoder can follow refused
like any other malformed JSON (400 in the API's error shape, config/api.py), not a 500 from the
decoder's RecursionError (docs/security.md)."""

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            # The API answers every ParseError with one plain sentence (config.api).
            raise ParseError() from exc
