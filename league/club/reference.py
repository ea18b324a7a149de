"""The ISO 11649 creditor reference ("RF" reference) of a person's transfer to the kitty.

The reference is "RF", two check digits (ISO 7064 MOD 97-10, computed and checked by
python-stdnum's ``stdnum.iso11649``) and the club's code for the person and season:
``M<member id>S<season id>``, e.g. ``RF71M12S3``. It is derived from the ids only, so
every reprint of a GiroCode carries the same reference, and a bank line carrying it names
the person without guessing by name or amount. The EPC GiroCode puts it into the
structured remittance field (EPC069-12 line 10), where banks pass it on unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stdnum import iso11649
from stdnum.iso7064 import mod_97_10

_BODY = re.compile(r"^M([1-9]\d{0,8})S([1-9]\d{0,8})$")
_START = re.compile(r"RF\d\d")


@dataclass(frozen=True)
class ParsedReference:
    """What a reference names: the ids of the person (``member_id``) and the season."""

    member_id: int
    season_id: int


def creditor_reference(*, member_id: int, season_id: int) -> str:
    """The compact RF reference of ``member_id`` in ``season_id`` (at most 25 characters,
    ISO 11649), e.g. ``creditor_reference(member_id=12, season_id=3)`` -> "RF71M12S3"."""
    body = f"M{member_id}S{season_id}"
    return f"RF{mod_97_10.calc_check_digits(body + 'RF')}{body}"


def parse_reference(text: str) -> ParsedReference | None:
    """The person and season of a valid RF reference of ours, or None (not RF, a wrong
    check digit, another creditor's code). Spaces and case are ignored."""
    if not iso11649.is_valid(text):
        return None
    match = _BODY.match(iso11649.compact(text)[4:])
    if match is None:
        return None
    return ParsedReference(member_id=int(match.group(1)), season_id=int(match.group(2)))


def find_reference(text: str) -> ParsedReference | None:
    """The first of our RF references found in a bank line's free text (the remittance
    information or purpose), or None. A word that is a reference wins; else, as banks
    wrap and space the text, spaces are removed and the longest valid reference at each
    "RF" start wins (a check digit makes a chance hit unlikely: 1 in 97)."""
    for token in text.split():
        found = parse_reference(token)
        if found is not None:
            return found
    compact = "".join(text.upper().split())
    for start in _START.finditer(compact):
        begin = start.start()
        for end in range(min(len(compact), begin + 25), begin + 4, -1):
            found = parse_reference(compact[begin:end])
            if found is not None:
                return found
    return None
