"""Cells of the CSV files the club exchanges with spreadsheets (exports and the club book).

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and, in some programs,
a tab or carriage return) as a formula: a person named `=HYPERLINK(...)` would become a
link the treasurer clicks. Every export writes such a text cell with a leading `'`, which
spreadsheets show as text; the club-book import takes that `'` away again, so a name
travels out and back unchanged. Numbers the books write (-3 points, -1,50 EUR) stay numbers.
Source: the OWASP advice on CSV injection.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["FORMULA_STARTS", "has_control_character", "spreadsheet_cell", "spreadsheet_text"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A plain number as the books write it (German or English decimal mark): not a formula.
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def spreadsheet_cell(value: object) -> object:
    """The cell as an export writes it: a text that a spreadsheet would run gets a leading
    `'`; numbers and every other value are returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def spreadsheet_text(text: str) -> str:
    """The text a cell written by `spreadsheet_cell` stood for: a leading `'` before a
    formula start is taken away; anything else is returned as it is."""
    if len(text) > 1 and text[0] == "'" and text[1] in FORMULA_STARTS:
        return text[1:]
    return text


def has_control_character(text: str) -> bool:
    """True when `text` holds a control character (NUL, bell, escape, tab, line breaks...),
    which no name, date or number of the books contains."""
    return any(unicodedata.category(char) == "Cc" for char in text)
