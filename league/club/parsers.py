"""The API's JSON parser, bounded: a body of at most `API_MAX_BODY_BYTES` (256 KiB unless
the environment says otherwise) nested at most `MAX_DEPTH` levels. A body past the size is a 400
`body_too_large` (refused before it is parsed; a declared size past it is refused before it
is read, league/club/body_limits.py), one nested too deeply a 400 `parse_error`, each with
a German message, never a 500 (a deeply nested array made the decoder recurse until Python
gave up)."""

from __future__ import annotations

import io
import re

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from league.club.body_limits import body_too_large_message, max_body_bytes

MAX_DEPTH = 32


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_A_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_EMPTY_PAIR = re.compile(rb"\[\]|\{\}")


def nesting_depth(raw: bytes, *, limit: int | None = None) -> int:
    """How deeply lists and objects nest in a valid JSON text (a scalar is 0), counted
    past `limit` at most. Without walking the parsed values one by one (a body of a
    million values took a second so): the strings are cut out and the brackets kept, then
    every empty pair is removed, one level a pass, each pass in C."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_A_BRACKET)
    depth = 0
    while brackets and (limit is None or depth <= limit):
        inner = _EMPTY_PAIR.sub(b"", brackets)
        if len(inner) == len(brackets):  # not valid JSON: the brackets do not pair up
            break
        brackets = inner
        depth += 1
    return depth


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
        if nesting_depth(raw, limit=MAX_DEPTH) > MAX_DEPTH:
            raise ParseError(_("The JSON is nested too deeply."))
        return data
