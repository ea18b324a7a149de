"""Numbers and money as the API and the pages read them: ASCII digits only, bounded.

Python's own parsers are generous: int() and Decimal() read "1_000", the digits of other
scripts ("١٢", "１２") and surrounding whitespace, Decimal() also "1E2", "NaN" and
"Infinity"; DRF's and Django's number fields pass their input to them. A number the books
take is written in ASCII digits: a string must match `-?[0-9]+` (whole numbers) or
`-?[0-9]+([.,][0-9]{1,2})?` (money, a point or the German comma before the cents), and it
is bounded (a whole number by the database's 64-bit integer unless the field says less).
A JSON number that is integral (12, 12.0) is a whole number; money is always a string, so
no float reaches the books. Query parameters are read by league.club.selectors.whole_number.

Refusals: 400 with the stable codes `invalid_number` / `invalid_amount` (German message),
DRF's `min_value` / `max_value` for a number out of bounds.
"""

import datetime
import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.rules.ruleset import DICE, MAX_ATTEMPTS

__all__ = [
    "DICE",
    "FIRST_YEAR",
    "INTEGER_MAX",
    "MAX_ATTEMPTS",
    "MAX_NEW_GUESTS",
    "MAX_PEOPLE",
    "MAX_ROUNDS",
    "MAX_SCHOCK_AUS",
    "MAX_THROWS",
    "BoundedDictField",
    "BoundedListField",
    "BoundedListSerializer",
    "DateFormField",
    "StrictDateField",
    "bounded_many",
    "MoneyField",
    "MoneyFormField",
    "StrictIntegerField",
    "StrictIntegerFormField",
    "date_refusal",
    "last_year",
    "parse_iso_date",
    "parse_whole_number",
    "too_many_items",
]

INTEGER_MAX = 2**63 - 1
"""The largest whole number the database stores (a signed 64-bit integer)."""

_WHOLE = re.compile(r"-?[0-9]+")
_MONEY = re.compile(r"-?[0-9]+(?:[.,][0-9]{1,2})?")
_TEXT_MAX = 24  # characters: more than any bounded number needs, less than int()'s limit


def parse_whole_number(data: object) -> int | None:
    """`data` as a whole number: an int (not a bool), an integral float (a JSON number such
    as 12.0) or a string of ASCII digits with an optional minus; None for anything else
    ("1E2", "1_000", "١٢", " 12", "12.5", true). Not bounded: the caller checks the range."""
    if isinstance(data, bool):
        return None
    if isinstance(data, int):
        return data
    if isinstance(data, float):
        return int(data) if data.is_integer() else None
    if isinstance(data, str) and len(data) <= _TEXT_MAX and _WHOLE.fullmatch(data):
        return int(data)
    return None


class StrictIntegerField(serializers.IntegerField):
    """A DRF IntegerField that takes only what `parse_whole_number` reads, bounded by the
    database's integer unless `min_value` / `max_value` say less. Refusal: `invalid_number`."""

    default_error_messages = {
        "invalid_number": _("Send a whole number in ASCII digits, e.g. 12."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -INTEGER_MAX)
        kwargs.setdefault("max_value", INTEGER_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        value = parse_whole_number(data)
        if value is None or abs(value) > INTEGER_MAX:
            self.fail("invalid_number")
        return value


class MoneyField(serializers.DecimalField):
    """A money amount given as a decimal string in ASCII digits with at most two decimal
    places ("15.50", "15,50", "15"): a JSON number is refused (`amount_not_string`), so no
    float ever reaches the books; "1E2", "1_000", "١٥" or " 15" are `invalid_amount`. The
    bounds (`min_value`, `max_value`, Decimal) give DRF's `min_value` / `max_value`."""

    default_error_messages = {
        "amount_not_string": _('Send the amount as a string with a decimal point, e.g. "15.50".'),
        "invalid_amount": _(
            'The amount must be written in digits with at most two decimal places, e.g. "15.50".'
        ),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 10)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Decimal:
        if not isinstance(data, str):
            self.fail("amount_not_string")
        if len(data) > _TEXT_MAX or not _MONEY.fullmatch(data):
            self.fail("invalid_amount")
        return super().to_internal_value(data.replace(",", "."))


class StrictIntegerFormField(forms.IntegerField):
    """Django's IntegerField for query filters and forms, reading only ASCII digits with an
    optional minus (`parse_whole_number` of the text), bounded by the database's integer
    unless `min_value` / `max_value` say less. Refusal: Django's `invalid`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -INTEGER_MAX)
        kwargs.setdefault("max_value", INTEGER_MAX)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = parse_whole_number(str(value))
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class MoneyFormField(forms.DecimalField):
    """Django's DecimalField for money on a page: digits with at most two decimal places,
    the German comma (and a point between thousands, "1.234,50") when localized; "1E2",
    "1_000" or digits of other scripts are refused as Django's `invalid`. Give `min_value`
    and `max_value` as Decimal (a float minimum such as 0.01 refuses Decimal("0.01"))."""

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]  # stubs: IntegerField
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if self.localize:
            text = formats.sanitize_separators(text)
        if len(text) > _TEXT_MAX or not _MONEY.fullmatch(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return Decimal(text.replace(",", "."))


# --- dates -----------------------------------------------------------------------------------

FIRST_YEAR = 1900
"""The first year a date of the books may name: the club book starts 1979, a year before
1900 is a typing error (0182 for 1982)."""

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits only; fullmatch


def last_year() -> int:
    """The last year a date of the books may name: next year (the club's zone), so a
    season or an evening can be prepared ahead."""
    return timezone.localdate().year + 1


def parse_iso_date(text: object, *, last: int | None = None) -> datetime.date | None:
    """The date of an ISO text `YYYY-MM-DD` in ASCII digits (no time, no spaces, not
    "２０２６-01-01" or "٢٠٢٦-01-01") whose year lies in FIRST_YEAR .. `last` (default:
    `last_year()`), else None (`date_refusal` says why). A `datetime.date` (not a
    datetime) passes when its year lies in the bounds."""
    if isinstance(text, datetime.date) and not isinstance(text, datetime.datetime):
        date: datetime.date | None = text
    elif isinstance(text, str) and _ISO_DATE.fullmatch(text):
        try:
            date = datetime.date.fromisoformat(text)
        except ValueError:
            return None
    else:
        return None
    assert date is not None
    if not FIRST_YEAR <= date.year <= (last_year() if last is None else last):
        return None
    return date


def date_refusal(text: object, *, last: int | None = None) -> tuple[str, str]:
    """(code, German message) for a date `parse_iso_date` refused: `date_out_of_range`
    for a well-formed date of a year outside FIRST_YEAR .. `last` (default next year;
    0182, 1850, 2100), `invalid_date` for anything else."""
    last = last_year() if last is None else last
    if isinstance(text, datetime.date):
        year: int | None = text.year
    elif isinstance(text, str) and _ISO_DATE.fullmatch(text):
        year = int(text[:4])
    else:
        year = None
    if year is not None and not FIRST_YEAR <= year <= last:
        message = gettext("The year %(year)s lies outside %(first)s to %(last)s.") % {
            "year": f"{year:04d}",
            "first": FIRST_YEAR,
            "last": last,
        }
        return "date_out_of_range", message
    return "invalid_date", gettext("Write the date as year-month-day in digits, e.g. 2026-03-14.")


class StrictDateField(serializers.DateField):
    """A DRF DateField reading only `parse_iso_date`'s dates: ISO `YYYY-MM-DD` in ASCII
    digits, a year from 1900 to next year. Refusals: `invalid_date`, `date_out_of_range`
    (German message)."""

    def to_internal_value(self, value: Any) -> datetime.date:
        date = parse_iso_date(value)
        if date is None:
            code, message = date_refusal(value)
            raise serializers.ValidationError(message, code=code)
        return date


class DateFormField(forms.DateField):
    """A page's (and a query filter's) date: what `parse_iso_date` reads, the German
    message of `date_refusal` at the field (codes `invalid_date`, `date_out_of_range`).
    Pages send it from an `<input type="date">`, which writes ISO dates."""

    def to_python(self, value: Any) -> datetime.date | None:
        if value in self.empty_values:
            return None
        text = value if isinstance(value, datetime.date) else str(value)
        date = parse_iso_date(text)
        if date is None:
            code, message = date_refusal(text)
            raise ValidationError(message, code=code)
        return date


# --------------------------------------------------------------------------- list bounds
#
# Every list a request body carries has a length bound, checked before its first element
# is looked at: a list of 200,000 people took a worker 11 to 30 seconds to refuse item by
# item (DRF's ListField runs its `max_length` validator only after every element was
# validated). The bounds are the largest the rules allow; where the rules set no number
# the bound is a decision, named here. Refusal: 400 `too_many_items` naming the list.

MAX_PEOPLE = 200
"""People one list of an evening names at most: present members, guests, absent members,
and so the players of a game, the throws of a round and the players who did not throw.
The rules set no number of players (docs/rules.md 4: everyone present plays); a club register
of 200 is far above any Schocken table (the club's evenings seat 6 to 15)."""

MAX_SCHOCK_AUS = 3 * MAX_PEOPLE
"""Schock-Aus throwers of one game at most: a round with a Schock-Aus ends the game or a
half (docs/rules.md 4), so at most three parts (first half, second half, final) end with one,
and in such a round every player may have thrown 1-1-1 (docs/rules.md 2)."""

MAX_ROUNDS = 500
"""Entries (rounds, Ausscheidung steps, actions) of one game at most. The rules set no
number (Deckel may go back and forth in the Ablegen); a game of the club's book has at
most a few dozen rounds."""

MAX_THROWS = 1_000
"""Throws of one game at most, over all its rounds (players who did not throw counted
too): 125 rounds of 8 players, 50 of 20. The rules set no number; with MAX_ROUNDS rounds
of MAX_PEOPLE throws a body was read throw by throw for half a minute
(bench/bench_body_bounds.py)."""

MAX_NEW_GUESTS = 50
"""Names of first-time guests one evening write brings at most."""

_TOO_MANY_MESSAGE = _("Send at most %(max)s items in this list.")


def too_many_items(max_length: int) -> serializers.ValidationError:
    """The refusal of a list longer than `max_length`: 400 `too_many_items`."""
    return serializers.ValidationError(
        _TOO_MANY_MESSAGE % {"max": max_length}, code="too_many_items"
    )


class BoundedListField(serializers.ListField):
    """DRF's ListField with a required `max_length`, checked before any element is
    validated: a longer list is refused at once as 400 `too_many_items` (the schema shows
    `maxItems`). The elements are validated until the first bad one, which alone is
    reported (DRF goes on through all of them, and a list of bad elements cost a message
    each). `min_length` is DRF's as before."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)

    def to_internal_value(self, data: Any) -> list:
        if isinstance(data, list) and len(data) > self.max_length:  # type: ignore[operator]
            raise too_many_items(self.max_length)  # type: ignore[arg-type]
        return super().to_internal_value(data)

    def run_child_validation(self, data: Any) -> list:
        result = []
        for index, item in enumerate(data):
            try:
                result.append(self.child.run_validation(item))
            except serializers.ValidationError as exc:
                # Keyed by the index, as DRF's own ListField reports it.
                detail: Any = {index: exc.detail}
                raise serializers.ValidationError(detail) from exc
        return result


class BoundedListSerializer(serializers.ListSerializer):
    """A nested serializer's list (`many=True`) whose `max_length` is required and refused
    as `too_many_items` before any item is validated (DRF's own check gives `max_length`
    and no bound at all when none is named). Use it through `bounded_many`."""

    def __init__(self, *args: Any, max_length: int, **kwargs: Any) -> None:
        kwargs["max_length"] = max_length
        super().__init__(*args, **kwargs)
        self.bound = max_length
        # Never reached at run time (to_internal_value refuses first); gives the schema
        # its `maxItems`, as DRF's ListField's own validator does.
        self.validators.append(MaxLengthValidator(max_length))

    def to_internal_value(self, data: Any) -> list:
        at_least = getattr(self, "min_length", None) or 0
        if not isinstance(data, list) or not data or len(data) < at_least:
            return super().to_internal_value(data)  # DRF's refusals
        if len(data) > self.bound:
            raise too_many_items(self.bound)
        # Until the first bad item, which alone is reported (as BoundedListField does).
        result = []
        for index, item in enumerate(data):
            try:
                result.append(self.run_child_validation(item))
            except serializers.ValidationError as exc:
                raise serializers.ValidationError([{}] * index + [exc.detail]) from exc
        return result


def bounded_many(child: serializers.Serializer, *, max_length: int, **kwargs: Any):
    """`child` as a list of at most `max_length` items (a BoundedListSerializer), e.g.
    ``throws = bounded_many(ThrowEntrySerializer(), max_length=MAX_PEOPLE, required=False)``."""
    return BoundedListSerializer(child=child, max_length=max_length, **kwargs)


class BoundedDictField(serializers.DictField):
    """DRF's DictField with at most `max_length` keys, checked before any value: more is
    400 `too_many_items` (the schema shows `maxProperties`)."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        self.max_length = max_length
        super().__init__(**kwargs)
        self.validators.append(MaxLengthValidator(max_length))  # the schema's maxProperties

    def to_internal_value(self, data: Any) -> dict:
        if isinstance(data, dict) and len(data) > self.max_length:
            raise too_many_items(self.max_length)
        return super().to_internal_value(data)
