"""Names as the club writes them: the one check of every free-text name (a person, a club,
a bank account's holder) on every path that stores one: the services (and so the pages,
the API and the admin), the API's and the pages' fields, the model fields, the club-book
import.

A name is printable text on one line: no character of Unicode's general categories Cc
(control: NUL, tab, line feed, escape, DEL, C1), Cf (format: zero-width space and joiner,
soft hyphen, the bidirectional overrides U+202A..U+202E and isolates U+2066..U+2069, the
byte order mark), Cs (surrogates), Co (private use), Cn (unassigned), Zl (line separator
U+2028) or Zp (paragraph separator U+2029). Such a character is invisible or moves the
text around it, so two names that look alike differ, a CSV written from the books breaks
or is read back otherwise (the club book refused its own export), and a terminal or a
spreadsheet may act on it. Other spaces (U+00A0, U+3000, ...) are folded: runs of white
space become one ASCII space, the ends are trimmed. At most `NAME_MAX` characters after
folding (the columns' length).

Refusals: `BooksError` with the stable codes `name_required`, `name_invalid_character`
and `name_too_long` (400, German message) from `clean_name`; the same codes from the DRF
field `NameField`; Django's ValidationError with those codes from `validate_name` and
`NameFormField`.
"""

import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers

from league.club.errors import BooksError

__all__ = [
    "NAME_MAX",
    "NameField",
    "NameFormField",
    "clean_name",
    "name_refusal",
    "refused_character",
    "validate_name",
]

NAME_MAX = 100
"""Characters a name may hold after folding its white space (Member.name, Club.name)."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode general categories no name may hold (see the module's text)."""


def refused_character(text: str) -> str | None:
    """The first character of `text` of a `REFUSED_CATEGORIES` category, else None."""
    category = unicodedata.category
    for char in text:
        if category(char) in REFUSED_CATEGORIES:
            return char
    return None


def name_refusal(text: str, *, max_length: int = NAME_MAX) -> tuple[str, str] | None:
    """(code, German message) when `text` is no name, else None; `text` as folded by
    `fold_name` is what is checked for emptiness and length."""
    char = refused_character(text)
    if char is not None:
        message = _(
            "The name holds an invisible or control character (U+%(code)s); "
            "please write it with letters, digits, spaces and punctuation only."
        ) % {"code": f"{ord(char):04X}"}
        return "name_invalid_character", message
    name = fold_name(text)
    if not name:
        return "name_required", _("Please enter a name.")
    if len(name) > max_length:
        message = _("The name is longer than %(max)s characters.") % {"max": max_length}
        return "name_too_long", message
    return None


def fold_name(text: str) -> str:
    """`text` with every run of white space (any Unicode space) one ASCII space, trimmed."""
    return " ".join(text.split())


def clean_name(text: str, *, field: str = "name", max_length: int = NAME_MAX) -> str:
    """`text` as a name (folded, checked): what the services store.

    Raises BooksError `name_required`, `name_invalid_character` or `name_too_long` (400,
    on `field`)."""
    if not isinstance(text, str):
        raise BooksError("name_required", _("Please enter a name."), field=field)
    refusal = name_refusal(text, max_length=max_length)
    if refusal is not None:
        raise BooksError(refusal[0], refusal[1], field=field)
    return fold_name(text)


def validate_name(value: str) -> None:
    """A Django validator (model fields, the admin's forms): ValidationError with the
    codes of `name_refusal`."""
    refusal = name_refusal(value)
    if refusal is not None:
        raise ValidationError(refusal[1], code=refusal[0])


class NameField(serializers.CharField):
    """A DRF field of a name: folded and checked by `clean_name` (refusal codes
    `name_required`, `name_invalid_character`, `name_too_long`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", NAME_MAX)  # checked on the folded name
        kwargs["trim_whitespace"] = False  # folded by clean_name, after its check
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        refusal = name_refusal(text)
        if refusal is not None:
            raise serializers.ValidationError(refusal[1], code=refusal[0])
        return fold_name(text)


class NameFormField(forms.CharField):
    """A page's field of a name: folded and checked like `clean_name` (the German message
    at the field)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", NAME_MAX)
        kwargs["strip"] = False
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("maxlength", str(NAME_MAX))

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return ""
        refusal = name_refusal(text)
        if refusal is not None:
            raise ValidationError(refusal[1], code=refusal[0])
        return fold_name(text)
