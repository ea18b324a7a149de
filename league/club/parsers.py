"""The API's JSON parser, bounded: a body of at most `API_MAX_BODY_BYTES` (1 MiB unless the
environment says otherwise) nested at most `MAX_DEPTH` levels. A body past the size is a 400
`body_too_large` (refused before it is parsed; a declared size past it is refused before it
is read, league/club/body_limits.py), one nested too deeply a 400 `parse_error`, each with
a German message, never a 500 (a deeply nested array made the decoder recurse until Python
gave up)."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from league.club.body_limits import body_too_large_message, max_body_bytes

MAX_DEPTH = 32


def nesting_depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar is 0). Iterative,
    so it cannot run out of stack itself."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            pending.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            pending.extend((child, depth + 1) for child in item)
        else:
            continue
        deepest = max(deepest, depth + 1)
    return deepest


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser with a bound on the body's size and on its nesting depth."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = max_body_bytes()
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise ParseError(body_too_large_message(), code="body_too_large")
        try:
            data = super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(_("The JSON is nested too deeply.")) from exc
        if nesting_depth(data) > MAX_DEPTH:
            raise ParseError(_("The JSON is nested too deeply."))
        return data
