"""The club book since 1979: parse, validate, import and export the two CSV files.

Formats (examples: tests/samples/club-book-*.csv), UTF-8, comma separated, one header line:
- attendance: `date,name,role`: one row per person per evening; role `secretary` (a present
  club member who kept the evening's books), `member` (a present club member), `guest` or
  `absent` (a club member who was not there and pays 6 Marks).
- games: `date,number,loser,schock_aus`: one row per game; the Schock-Aus throwers joined by
  `;` in throwing order (empty when there was none), each name guarded on its own with a
  leading `'` where a spreadsheet would run it (`'=1+1;'@SUM(1)`).

Decisions where the issue is silent:
- All or nothing: every file is validated in Python first; every bad row is reported as
  (file, line, reason) and nothing is written when there is one. The import itself runs in
  one transaction; the database's triggers and constraints check every row again.
- Idempotent: evenings are matched by club and date. An evening that exists with the same
  attendance and games is skipped; one that exists with different data is a bad row
  ("an evening on this date exists with different attendance/games"): history is never
  rewritten silently; correct it on the evening's page instead.
- Members are created as needed (a guest if the name appears as `guest`); a name used both
  as a guest and as a club member is a bad row (a person is one or the other in the app).
  Seasons are created as needed (calendar year; 1.00 DM per Mark up to 2001, 0.50 EUR from
  2002). The Vorleger is not in the format: game 1 is opened by the secretary, every later
  game by the previous game's loser (docs/rules.md 4.5).
- Rows are written set-based: on PostgreSQL one COPY (psycopg 3) each
  for the evenings, attendance, games and absence charges, no model instances; the
  Schock-Aus and the lost games' charges by one INSERT ... SELECT each from the games
  just written (nothing read back into Python); the database's checks of new rows run
  once per statement (games migration 0008); elsewhere bulk_create. Every row the import
  writes (club, people, seasons, evenings, attendance, games, Schock-Aus, ledger charges)
  gets its audit-trail record, reason "club book import", author the importing user
  (None from the command without --user): the bulk rows by one INSERT ... SELECT per
  table (`_record_history`), the club and seasons, which services create one by one, by
  marking their records. The ledger charges carry the same keys as `ledger_sync_evening`
  would write. The time of each step: bench/bench_import.py.
- Export writes the canonical order: evenings by date; attendance per evening present club
  members (the secretary among them), then guests, then absent members, each group by name
  (case and umlauts folded); games by number. The sample files are in this order, so
  export after import gives them back byte for byte. Line ends are CRLF like the samples.
"""

import csv
import datetime
import io
import logging
import operator
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import EmptyResultSet
from django.db import IntegrityError, connection, models, transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import get_history_model_for_model

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club import names
from league.club.books import CLUB_BOOK_IMPORT as IMPORT_REASON
from league.club.books import books_changed, register_changed
from league.club.database import tables_analyze
from league.club.errors import books_error_from_integrity
from league.club.fields import FIRST_YEAR, last_year, parse_iso_date
from league.club.models import Club, Member, Season
from league.club.money import marks_to_money
from league.club.services import season_get_or_create
from league.club.spreadsheet import spreadsheet_text
from league.club.statutes import Statutes, season_statutes
from league.clubbook.selectors import (
    ATTENDANCE_COLUMNS,
    GAMES_COLUMNS,
)
from league.ledger.models import LedgerEntry
from league.ledger.selectors import (
    Charge,
    absence_charge,
    absence_source_key,
    game_lost_charge,
    game_source_key,
)
from league.standings.selectors import seasons_standings

ROLES = ("secretary", "member", "guest", "absent")
PRESENT_ROLES = ("secretary", "member", "guest")

logger = logging.getLogger(__name__)

_BATCH = 2000  # rows per INSERT of the bulk writes
_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits only (not ², ٣); fullmatch
_NUMBER_RE = re.compile(r"[0-9]+")
# Game.number is a PositiveIntegerField: a 32-bit integer column on every database Django
# supports; a larger number (3000000000) would make PostgreSQL refuse the INSERT (a 500).
GAME_NUMBER_MAX = 2_147_483_647
NAME_MAX = Member._meta.get_field("name").max_length or 100
assert NAME_MAX == names.NAME_MAX
# Unicode's control characters (category Cc: U+0000..U+001F and U+007F..U+009F, fixed by
# Unicode's stability policy): the same set `has_control_character` finds with
# unicodedata, as one precompiled search per row (a test compares them on every code point).
CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class RowError:
    """One bad row: the file's name, the 1-based line number, a stable code (e.g.
    "unknown_role") and the reason (German)."""

    file: str
    line: int
    code: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class BookGame:
    number: int
    loser: str
    throwers: list[str]
    line: int


@dataclass
class BookEvening:
    """One evening of the book: date, first line, people in file order with their role."""

    date: datetime.date
    line: int
    roles: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    games: list[BookGame] = field(default_factory=list)

    @property
    def secretary(self) -> str | None:
        return next((n for n, r in self.roles.items() if r == "secretary"), None)

    def present(self, name: str) -> bool:
        return self.roles.get(name) in PRESENT_ROLES


@dataclass
class SeasonTotals:
    """Recomputed figures of a season after the import (from `season_standings`)."""

    year: int
    currency: str
    evenings: int
    games: int
    schock_aus: int
    runden: int
    marks_total: int
    money_total: Decimal
    new_evenings: int = 0


@dataclass
class ImportResult:
    """What an import did (or, in a dry run, would do). `errors` non-empty means nothing
    was written. `created` counts new rows per kind; `skipped` the evenings that exist
    already with the same data; `seasons` the recomputed totals of every season touched."""

    dry_run: bool
    errors: list[RowError] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    seasons: list[SeasonTotals] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def changed(self) -> bool:
        return any(self.created.values())


# --- reading the files ---------------------------------------------------------------------


def _decode_lines(data: bytes, file: str, errors: list[RowError]) -> tuple[list[str], set[int]]:
    """The file's lines as text and the 1-based numbers of the lines that are not UTF-8
    (each reported in `errors`, kept with replacement characters)."""
    bad_lines = set()
    texts = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            texts.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad_lines.add(number)
            errors.append(
                RowError(
                    file,
                    number,
                    "not_utf8",
                    _("Not UTF-8: byte 0x%(byte)02x at position %(pos)s.")
                    % {"byte": raw[exc.start], "pos": exc.start + 1},
                )
            )
            texts.append(raw.decode("utf-8", "replace"))
    return texts, bad_lines


def _decode(data: bytes, file: str, errors: list[RowError]) -> tuple[str, set[int]]:
    """The file as text and the 1-based numbers of its lines that are not UTF-8: one
    decode of the whole file when it is UTF-8 (the usual case), line by line otherwise
    (`_decode_lines`, which reports each bad line)."""
    try:
        return data.decode("utf-8"), set()
    except UnicodeDecodeError:
        texts, bad_lines = _decode_lines(data, file, errors)
        return "\n".join(texts), bad_lines


def _header_ok(
    reader: Iterator[list[str]], file: str, columns: list[str], errors: list[RowError]
) -> bool:
    """Read the header line: False (reported) when it is missing or names other columns."""
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        errors.append(RowError(file, 1, "empty_file", _("The file is empty.")))
        return False
    if [h.strip().lower() for h in header] != columns:
        errors.append(
            RowError(
                file,
                1,
                "wrong_columns",
                _("Wrong columns: expected %(expected)s, found %(found)s.")
                % {"expected": ",".join(columns), "found": ",".join(header)},
            )
        )
        return False
    return True


def _csv_rows(reader: Any, file: str, errors: list[RowError]) -> Iterator[tuple[int, list[str]]]:
    """(first line number, fields) of every CSV record after the header; a record the csv
    module cannot read is reported as `unreadable_line` and skipped."""
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            errors.append(
                RowError(
                    file, start, "unreadable_line", _("Unreadable line: %(error)s") % {"error": exc}
                )
            )
            continue
        yield start, row


def _read_rows(
    data: bytes,
    file: str,
    columns: list[str],
    errors: list[RowError],
    undecodable: list[tuple[int, list[str]]] | None = None,
) -> list[tuple[int, list[str]]]:
    """(line number, fields) of every data row; bad encoding, a wrong header, a wrong
    number of fields and a control character are reported in `errors` (those rows are left
    out; undecodable rows go to `undecodable`, read with replacement characters).

    Cost: one decode and one csv pass over the file, one precompiled search per row
    (`CONTROL_CHARACTER`: a unicodedata lookup per character was a third
    of the import of a 48-season book)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not data.strip():
        errors.append(RowError(file, 1, "empty_file", _("The file is empty.")))
        return []
    text, bad_lines = _decode(data, file, errors)
    reader = csv.reader(io.StringIO(text, newline=""))
    if not _header_ok(reader, file, columns, errors):
        return []
    rows = []
    width = len(columns)
    control = CONTROL_CHARACTER.search
    for start, row in _csv_rows(reader, file, errors):
        joined = "".join(row)
        if not joined.strip():  # no fields, or only blank ones
            continue
        if start in bad_lines:
            if undecodable is not None:
                undecodable.append((start, row))
            continue
        if len(row) != width:
            errors.append(
                RowError(
                    file,
                    start,
                    "wrong_field_count",
                    _("Expected %(expected)s fields, found %(found)s.")
                    % {"expected": width, "found": len(row)},
                )
            )
            continue
        if control(joined):
            errors.append(
                RowError(
                    file,
                    start,
                    "control_character",
                    _("The line holds a control character (e.g. a tab or a NUL byte)."),
                )
            )
            continue
        fields = [f.strip() for f in row]
        if "'" in joined:  # a spreadsheet's `'` can only lead a field of a line holding one
            fields = [spreadsheet_text(f) if f[:1] == "'" else f for f in fields]
        rows.append((start, fields))
    return rows


def _parse_date(text: str, last: int | None = None) -> datetime.date | None:
    """The date of a `YYYY-MM-DD` text in ASCII digits whose year lies in FIRST_YEAR ..
    `last` (default: `last_year()`, next year), or None (`_date_error` says why): the
    API's and the pages' own reading of a date (league/club/fields.py `parse_iso_date`)."""
    return parse_iso_date(text, last=last)


class _Dates:
    """`_parse_date` for one parse of the book: next year read once, each distinct text
    parsed once (an evening's date repeats on every one of its rows)."""

    def __init__(self) -> None:
        self.last = last_year()
        self.parsed: dict[str, datetime.date | None] = {}

    def __call__(self, text: str) -> datetime.date | None:
        try:
            return self.parsed[text]
        except KeyError:
            date = self.parsed[text] = _parse_date(text, self.last)
            return date


def _date_error(text: str) -> tuple[str, str]:
    """(code, German reason) for a date text `_parse_date` refused: `year_out_of_range`
    for a well-formed date of a year outside FIRST_YEAR .. next year (1850, 0001, 2100),
    `malformed_date` otherwise."""
    if _DATE_RE.fullmatch(text):
        year = int(text[:4])
        if not FIRST_YEAR <= year <= last_year():
            reason = _("The year %(year)s lies outside %(first)s to %(last)s.")
            values = {"year": text[:4], "first": FIRST_YEAR, "last": last_year()}
            return "year_out_of_range", reason % values
    return "malformed_date", _malformed_date(text)


def _clean_name(text: str) -> str:
    return names.fold_name(text)


def _name_too_long(name: str) -> str | None:
    """The German reason when `name` is longer than a person's name may be (the column's
    max_length, 100 characters), else None."""
    if len(name) <= NAME_MAX:
        return None
    return _("The name is longer than %(max)s characters.") % {"max": NAME_MAX}


@dataclass
class _AttendanceReader:
    """Reads the attendance file row by row (club_book_parse). `blocks`: the evenings in
    file order (a date given twice makes two blocks); `kinds`: name -> ("guest" or
    "member", first line); `broken`: dates with a bad row, whose games get no presence
    checks (their people cannot be known)."""

    file: str
    errors: list[RowError]
    blocks: list[BookEvening] = field(default_factory=list)
    kinds: dict[str, tuple[str, int]] = field(default_factory=dict)
    broken: set[datetime.date] = field(default_factory=set)
    current: BookEvening | None = None
    dates: _Dates = field(default_factory=_Dates)

    def _error(self, line: int, code: str, reason: str) -> None:
        self.errors.append(RowError(self.file, line, code, reason))

    def read(self, line: int, date_text: str, name_text: str, role_text: str) -> None:
        """Take one row: a person with a role on a date, or a reported bad row."""
        checked = self._fields(line, date_text, name_text, role_text)
        if checked is None:
            return
        date, name, role = checked
        if self.current is None or self.current.date != date:
            self.current = BookEvening(date=date, line=line)
            self.blocks.append(self.current)
        if self._person_refused(self.current, line, name, role):
            return
        self.current.roles[name] = role
        self.current.lines[name] = line

    def _fields(
        self, line: int, date_text: str, name_text: str, role_text: str
    ) -> tuple[datetime.date, str, str] | None:
        """(date, name, role) of a row, or None when one of them is bad (reported)."""
        date = self.dates(date_text)
        name = _clean_name(name_text)
        role = role_text.lower()
        if date is None:
            self._error(line, *_date_error(date_text))
            return None
        if names.refused_character(name_text) is not None:
            # A format character (zero-width, a bidirectional override) or a separator:
            # the name the pages and the API refuse (league/club/names.py).
            self.broken.add(date)
            self._error(line, *names.name_refusal(name_text))  # type: ignore[misc]
            return None
        if not name:
            self.broken.add(date)
            self._error(line, "name_missing", _("The name is missing."))
            return None
        too_long = _name_too_long(name)
        if too_long:
            self.broken.add(date)
            self._error(line, "name_too_long", too_long)
            return None
        if role not in ROLES:
            self.broken.add(date)
            self._error(
                line,
                "unknown_role",
                _("Unknown role “%(role)s” (secretary, member, guest or absent).") % {"role": role},
            )
            return None
        return date, name, role

    def _person_refused(self, evening: BookEvening, line: int, name: str, role: str) -> bool:
        """Report a person twice on a date, a guest who is a club member elsewhere in the
        file (or the reverse), or a second secretary: True when the row is refused."""
        if name in evening.roles:
            self._error(
                line,
                "person_twice",
                _("%(name)s is listed twice on this date (line %(line)s).")
                % {"name": name, "line": evening.lines[name]},
            )
            return True
        kind = "guest" if role == "guest" else "member"
        seen = self.kinds.setdefault(name, (kind, line))
        if seen[0] != kind:
            self.broken.add(evening.date)
            self._error(line, "guest_and_member", _kind_conflict(name, seen[1], kind))
            return True
        if role == "secretary" and evening.secretary is not None:
            self._error(
                line,
                "second_secretary",
                _("A second secretary on this date (%(name)s is the first).")
                % {"name": evening.secretary},
            )
            return True
        return False


def _evenings_of(
    blocks: list[BookEvening], file: str, errors: list[RowError]
) -> dict[datetime.date, BookEvening]:
    """The evenings by date from the attendance blocks: a date given again is reported
    (`date_twice`, or `date_twice_different_attendance`) and the first block kept; an
    evening without a secretary is reported (`no_secretary`)."""
    evenings: dict[datetime.date, BookEvening] = {}
    for block in blocks:
        first = evenings.get(block.date)
        if first is None:
            evenings[block.date] = block
            continue
        code, reason = (
            (
                "date_twice_different_attendance",
                _(
                    "The date %(date)s was given at line %(line)s already, with different "
                    "attendance."
                ),
            )
            if first.roles != block.roles
            else ("date_twice", _("The date %(date)s was given at line %(line)s already."))
        )
        errors.append(
            RowError(file, block.line, code, reason % {"date": block.date, "line": first.line})
        )
    for evening in evenings.values():
        if evening.roles and evening.secretary is None:
            errors.append(
                RowError(file, evening.line, "no_secretary", _("No secretary on this date."))
            )
    return evenings


def club_book_parse(
    *,
    attendance: bytes,
    games: bytes,
    attendance_name: str = "club-book-attendance.csv",
    games_name: str = "club-book-games.csv",
) -> tuple[dict[datetime.date, BookEvening], list[RowError]]:
    """Parse and check the two files on their own (no database): returns the evenings by
    date (in date order) and every bad row. Reasons: empty file, wrong columns, not UTF-8,
    wrong number of fields, malformed date, unknown role, missing name, person twice on a
    date, no or two secretaries, a date given twice with different attendance, a guest who
    is a club member elsewhere in the file, game number not a whole number >= 1, game number
    twice, a date without attendance, unknown person, loser or thrower not present; and the
    bounds of the columns: a control character (NUL), a name over 100
    characters, a game number over 2147483647, a year outside 1900 .. next year."""
    errors: list[RowError] = []
    undecodable: list[tuple[int, list[str]]] = []
    rows = _read_rows(attendance, attendance_name, ATTENDANCE_COLUMNS, errors, undecodable)
    unusable = not rows and bool(errors)  # empty, or wrong columns
    reader = _AttendanceReader(attendance_name, errors)
    for _line, fields in undecodable:
        date = reader.dates(fields[0]) if fields else None
        if date is not None:
            reader.broken.add(date)  # its people cannot be known: no presence checks
    for line, (date_text, name_text, role) in rows:
        reader.read(line, date_text, name_text, role)
    evenings = _evenings_of(reader.blocks, attendance_name, errors)
    if unusable:  # the games cannot be judged without attendance: only read them
        _read_rows(games, games_name, GAMES_COLUMNS, errors)
    else:
        _parse_games(games, games_name, attendance_name, evenings, reader, errors)
    return dict(sorted(evenings.items())), errors


def _malformed_date(text: str) -> str:
    return _("Malformed date “%(date)s” (expected YYYY-MM-DD).") % {"date": text}


def _kind_conflict(name: str, line: int, kind: str) -> str:
    if kind == "guest":
        return _("%(name)s is a club member (line %(line)s), not a guest.") % {
            "name": name,
            "line": line,
        }
    return _("%(name)s is a guest (line %(line)s), not a club member.") % {
        "name": name,
        "line": line,
    }


def _games_evening(
    date_text: str,
    line: int,
    file: str,
    attendance_name: str,
    evenings: dict[datetime.date, BookEvening],
    reader: _AttendanceReader,
    errors: list[RowError],
) -> BookEvening | None:
    """The evening a game row belongs to, or None: a malformed date or a date without
    attendance is reported; a date whose attendance is broken (`reader.broken`) is skipped
    silently (its attendance is reported already; presence cannot be judged)."""
    date = reader.dates(date_text)
    if date is None:
        errors.append(RowError(file, line, *_date_error(date_text)))
        return None
    if date in reader.broken:
        return None
    evening = evenings.get(date)
    if evening is None:
        errors.append(
            RowError(
                file,
                line,
                "no_attendance_for_date",
                _("There is no attendance for %(date)s in %(file)s.")
                % {"date": date_text, "file": attendance_name},
            )
        )
    return evening


def _game_number(
    number_text: str, date_text: str, line: int, file: str, taken: dict[int, int]
) -> int | RowError:
    """The game number of a row, or its error: not a whole number >= 1 in ASCII digits
    (`invalid_game_number`: "3e9", "²", "٣"), more than the column holds
    (`game_number_too_large`, GAME_NUMBER_MAX), or given twice on the date (`taken`:
    number -> line, which a good number joins)."""
    if len(number_text) < 10 and number_text.isascii() and number_text.isdigit():
        number = int(number_text)  # the usual row: ASCII digits, below GAME_NUMBER_MAX
        if number_text[0] != "0" and number not in taken:
            taken[number] = line
            return number
    digits = number_text.lstrip("0")
    if not _NUMBER_RE.fullmatch(number_text) or not digits:
        reason = _("The game number “%(number)s” is not a whole number of 1 or more.")
        return RowError(file, line, "invalid_game_number", reason % {"number": number_text})
    # the length first: int() of more than 4300 digits raises ValueError
    if len(digits) > len(str(GAME_NUMBER_MAX)) or int(digits) > GAME_NUMBER_MAX:
        reason = _("The game number %(number)s is larger than %(max)s.")
        values = {"number": number_text[:20], "max": GAME_NUMBER_MAX}
        return RowError(file, line, "game_number_too_large", reason % values)
    number = int(digits)
    if number in taken:
        reason = _("Game %(number)s of %(date)s is given twice (line %(line)s).")
        values = {"number": number, "date": date_text, "line": taken[number]}
        return RowError(file, line, "game_number_twice", reason % values)
    taken[number] = line
    return number


def _game_people_problems(
    loser: str, throwers: list[str], evening: BookEvening, kinds: dict[str, tuple[str, int]]
) -> list[tuple[str, str]]:
    """(code, reason) of every problem with a game's loser and Schock-Aus throwers."""
    present = evening.present
    if loser and present(loser) and all(t and present(t) for t in throwers):
        return []  # the usual row: everyone named was there (a present name is known)
    problems = []
    if not loser:
        problems.append(("loser_missing", _("The loser is missing.")))
    else:
        problems += _presence_problems(loser, evening, kinds, _("loser"))
    if any(not t for t in throwers):
        problems.append(("empty_thrower", _("An empty name among the Schock-Aus throwers.")))
    for thrower in throwers:
        if thrower:
            problems += _presence_problems(thrower, evening, kinds, _("Schock-Aus thrower"))
    return problems


def _parse_games(
    data: bytes,
    file: str,
    attendance_name: str,
    evenings: dict[datetime.date, BookEvening],
    reader: _AttendanceReader,
    errors: list[RowError],
) -> None:
    """Read the games file into `evenings` (each game to its evening's `games`); every bad
    row is reported in `errors`. `reader`: the attendance file as read (its people's
    kinds, its broken dates, its date parser)."""
    numbers: dict[datetime.date, dict[int, int]] = defaultdict(dict)
    for line, (date_text, number_text, loser_text, throwers_text) in _read_rows(
        data, file, GAMES_COLUMNS, errors
    ):
        evening = _games_evening(date_text, line, file, attendance_name, evenings, reader, errors)
        if evening is None:
            continue
        number = _game_number(number_text, date_text, line, file, numbers[evening.date])
        if isinstance(number, RowError):
            errors.append(number)
            continue
        loser = _clean_name(loser_text)
        # Each thrower was guarded on its own by the export (`'=1+1;'@SUM(1)`).
        throwers = (
            [_clean_name(spreadsheet_text(t.strip())) for t in throwers_text.split(";")]
            if throwers_text
            else []
        )
        problems = _game_people_problems(loser, throwers, evening, reader.kinds)
        if problems:
            errors.extend(RowError(file, line, code, reason) for code, reason in problems)
            continue
        evening.games.append(BookGame(number, loser, throwers, line))


def _presence_problems(
    name: str, evening: BookEvening, kinds: dict[str, tuple[str, int]], what: str
) -> list[tuple[str, str]]:
    if name not in kinds:
        reason = _("Unknown person %(name)s (%(what)s): not in the attendance file.")
        return [("unknown_person", reason % {"name": name, "what": what})]
    if not evening.present(name):
        reason = _("%(name)s (%(what)s) was not present on %(date)s.")
        return [("not_present", reason % {"name": name, "what": what, "date": evening.date})]
    return []


# --- importing -------------------------------------------------------------------------------


class _DryRunDone(Exception):
    """Raised at the end of a dry run to roll the transaction back."""


_Snapshot = tuple[dict[str, str], dict[int, tuple[str, list[str]]]]


def _db_evening_snapshot(club: Club, dates: list[datetime.date]) -> dict[datetime.date, _Snapshot]:
    """date -> (roles {name: role with 'secretary'}, games {number: (loser, [throwers])})
    of the club's stored evenings on `dates`. Three queries."""
    evenings = {
        pk: (date, secretary_id)
        for pk, date, secretary_id in Evening.objects.filter(club=club, date__in=dates).values_list(
            "pk", "date", "secretary_id"
        )
    }
    if not evenings:
        return {}
    roles: dict[int, dict[str, str]] = defaultdict(dict)
    for evening_id, member_id, name, role in Attendance.objects.filter(
        evening_id__in=evenings
    ).values_list("evening_id", "member_id", "member__name", "role"):
        is_secretary = member_id == evenings[evening_id][1] and role == "member"
        roles[evening_id][name] = "secretary" if is_secretary else role
    games: dict[int, dict[int, tuple[str, list[str]]]] = defaultdict(dict)
    game_index = {}
    for pk, evening_id, number, loser in Game.objects.filter(evening_id__in=evenings).values_list(
        "pk", "evening_id", "number", "loser__name"
    ):
        games[evening_id][number] = (loser, [])
        game_index[pk] = (evening_id, number)
    for game_id, name in (
        SchockAus.objects.filter(game__evening_id__in=evenings)
        .order_by("game_id", "position")
        .values_list("game_id", "thrower__name")
    ):
        evening_id, number = game_index[game_id]
        games[evening_id][number][1].append(name)
    return {date: (roles[pk], games[pk]) for pk, (date, _s) in evenings.items()}


def _compare_with_db(
    club: Club,
    evenings: dict[datetime.date, BookEvening],
    attendance_name: str,
    games_name: str,
    errors: list[RowError],
) -> set[datetime.date]:
    """Dates whose evening is stored already with the same data (skipped); a stored
    evening with other data is a bad row."""
    same = set()
    for date, (roles, games) in _db_evening_snapshot(club, list(evenings)).items():
        book = evenings[date]
        if roles != book.roles:
            errors.append(
                RowError(
                    attendance_name,
                    book.line,
                    "evening_exists_different_attendance",
                    _("An evening on %(date)s exists already with different attendance.")
                    % {"date": date.isoformat()},
                )
            )
            continue
        wanted = {g.number: (g.loser, g.throwers) for g in book.games}
        if games != wanted:
            line = book.games[0].line if book.games else book.line
            errors.append(
                RowError(
                    games_name if book.games else attendance_name,
                    line,
                    "evening_exists_different_games",
                    _("An evening on %(date)s exists already with different games.")
                    % {"date": date.isoformat()},
                )
            )
            continue
        same.add(date)
    return same


def _check_kinds_with_db(
    members: dict[str, Member],
    evenings: dict[datetime.date, BookEvening],
    attendance_name: str,
    errors: list[RowError],
) -> None:
    reported = set()
    for evening in evenings.values():
        for name, role in evening.roles.items():
            member = members.get(name)
            if member is None or name in reported:
                continue
            is_guest = role == "guest"
            if is_guest != (member.kind == Member.Kind.GUEST):
                reported.add(name)
                reason = (
                    _("%(name)s is a club member in the books, not a guest.")
                    if is_guest
                    else _("%(name)s is a guest in the books, not a club member.")
                )
                errors.append(
                    RowError(
                        attendance_name,
                        evening.lines[name],
                        "member_kind_in_books",
                        reason % {"name": name},
                    )
                )


def _season_for(club: Club, seasons: list[Season], date: datetime.date) -> Season | None:
    for season in seasons:
        if season.starts_on <= date <= season.ends_on:
            return season
    if any(s.year == date.year for s in seasons):
        return None  # a season of that year with other dates: the date lies outside it
    season = season_get_or_create(club=club, year=date.year)
    seasons.append(season)
    return season


def club_book_import(
    *,
    club_name: str,
    attendance: bytes,
    games: bytes,
    dry_run: bool = False,
    user: AbstractBaseUser | None = None,
    attendance_name: str = "club-book-attendance.csv",
    games_name: str = "club-book-games.csv",
) -> ImportResult:
    """Import the club book into the club named `club_name` (created if
    missing): all or nothing, in one transaction. With `dry_run` everything is done and
    counted, then rolled back. `user` is recorded as the author in the audit trail.

    Returns an ImportResult: `errors` (file, line, reason) when anything is wrong, and then
    nothing was written; otherwise `created` counts, `skipped` evenings and the recomputed
    totals of every season touched.
    """
    result = ImportResult(dry_run=dry_run)
    evenings, errors = club_book_parse(
        attendance=attendance,
        games=games,
        attendance_name=attendance_name,
        games_name=games_name,
    )
    if errors:
        result.errors = errors
        return result
    try:
        with transaction.atomic():
            _import(club_name, evenings, user, attendance_name, games_name, result)
            if result.errors:
                transaction.set_rollback(True)
                result.created, result.seasons, result.skipped = {}, [], 0
            elif dry_run:
                raise _DryRunDone
    except _DryRunDone:
        pass
    except IntegrityError as exc:  # the database refused a row the checks let through
        result.errors = [database_refusal(exc, attendance_name)]
        result.created, result.seasons = {}, []
    return result


def database_refusal(exc: IntegrityError, file: str) -> RowError:
    """The bad row an import reports when the database refused a row its own checks let
    through (a trigger's or a constraint's refusal, during a COPY or at the commit): the
    stable code of `books_error_from_integrity` (`person_of_other_club`,
    `loser_not_present`, ...; `database_refused` for any other refusal) and its German
    reason, never the database's own text (logged for the operator instead)."""
    logger.warning("The club-book import was refused by the database: %s", exc)
    refusal = books_error_from_integrity(exc)
    code = "database_refused" if refusal.code == "conflict" else refusal.code
    return RowError(file, 0, code, _("Refused by the database: %(e)s") % {"e": refusal.message})


def _written_tables() -> list[type[models.Model]]:
    """The tables an import writes, with their audit-trail tables (analysed after it)."""
    return [
        table
        for model in (Club, Member, Season, Evening, Attendance, Game, SchockAus, LedgerEntry)
        for table in (model, get_history_model_for_model(model))
    ]


@dataclass
class _Batch:
    """What one import writes, shared by its steps: the club, the book's evenings that are
    new, the club's people by name, the audit trail's author and reason for
    `bulk_create_with_history` (``default_user``, ``default_change_reason``), and, filled
    step by step, each new evening's season and primary key by date."""

    club: Club
    new: list[BookEvening]
    members: dict[str, Member]
    history: dict[str, Any]
    season_of: dict[datetime.date, Season] = field(default_factory=dict)
    evening_ids: dict[datetime.date, int] = field(default_factory=dict)


def _import(
    club_name: str,
    evenings: dict[datetime.date, BookEvening],
    user: AbstractBaseUser | None,
    attendance_name: str,
    games_name: str,
    result: ImportResult,
) -> None:
    """Write the parsed book into the club named `club_name` (inside the caller's
    transaction), or put the bad rows that only the database shows into `result.errors`
    (then the caller rolls back). Fills `result.created`, `skipped` and `seasons`."""
    history = {"default_user": user, "default_change_reason": IMPORT_REASON}
    club, club_created = _import_club(club_name, history)
    errors = result.errors
    members = {m.name: m for m in Member.objects.filter(club=club)}
    _check_kinds_with_db(members, evenings, attendance_name, errors)
    same = set()
    if not club_created:
        same = _compare_with_db(club, evenings, attendance_name, games_name, errors)
    if errors:
        return
    result.skipped = len(same)
    batch = _Batch(club, [e for d, e in evenings.items() if d not in same], members, history)
    new_members = _create_members(batch)
    new_seasons = _seasons_of(batch, attendance_name, errors)
    if errors:
        return
    created = {"members": new_members, "seasons": new_seasons}
    created["evenings"] = _write_evenings(batch)
    created["attendances"] = _write_attendance(batch)
    created["games"], games, created["schock_aus"] = _write_games(batch)
    created["ledger_entries"] = _write_charges(batch, games)
    if batch.new:
        # Thousands of rows in one transaction and never analysed: the planner would take
        # the tables for empty in the totals below and in the club's first pages.
        tables_analyze(tables=_written_tables())
    touched = {s.pk: s for s in batch.season_of.values()}
    for season_id in touched:
        books_changed(season_id=season_id, reason="club_book_import")
    keys = ["members", "seasons", "evenings", "attendances", "games", "schock_aus"]
    result.created = {key: created[key] for key in [*keys, "ledger_entries"]}
    result.seasons = _season_totals(batch)


def _import_club(club_name: str, history: dict[str, Any]) -> tuple[Club, bool]:
    """The club named `club_name` and whether the import created it (then its audit-trail
    record names the import's author and reason)."""
    club = Club.objects.filter(name=club_name).first()
    created = False
    if club is None:  # a new club's name is checked as the pages and the API check it
        club, created = Club.objects.get_or_create(name=names.clean_name(club_name, field="club"))
    if created:
        _mark_imported(Club, [club.pk], history)
    return club, created


def _mark_imported(model: type[models.Model], ids: list[int], history: dict[str, Any]) -> None:
    """Give the creation records of rows a service created one by one (a club, a season)
    the import's author and reason, as the rows written in bulk have. One query."""
    if ids:
        model.history.filter(id__in=ids, history_type="+").update(  # type: ignore[attr-defined]
            history_user=history["default_user"],
            history_change_reason=history["default_change_reason"],
        )


def _record_history(queryset: QuerySet[Any], history: dict[str, Any]) -> None:
    """Write the audit trail's creation record ("+", now, the import's author and reason)
    of every row of `queryset`, in one INSERT ... SELECT inside the database.

    This is what `bulk_create_with_history` does, minus its Python round trip: that one
    builds a historical model instance per row and sends it back, which made the import of
    a 48-season book (about 125,000 rows, bench/bench_import.py) about a third slower. The
    columns are the history model's tracked fields, so excluded fields stay excluded.
    """
    history_model = get_history_model_for_model(queryset.model)
    columns = {f.attname: f.column for f in history_model._meta.concrete_fields}
    tracked = [f.attname for f in history_model.tracked_fields]
    try:
        select, params = queryset.order_by().values_list(*tracked).query.sql_with_params()
    except EmptyResultSet:  # filtered by an empty list of ids: nothing was written
        return
    quote = connection.ops.quote_name
    targets = [columns[name] for name in tracked] + [
        columns[name]
        for name in ("history_date", "history_user_id", "history_change_reason", "history_type")
    ]
    user = history["default_user"]
    extra = [
        connection.ops.adapt_datetimefield_value(timezone.now()),
        user.pk if user is not None else None,
        history["default_change_reason"],
        "+",
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(history_model._meta.db_table)} "
            f"({', '.join(quote(c) for c in targets)}) "
            f"SELECT rows.*, %s, %s, %s, %s FROM ({select}) rows",
            [*extra, *params],  # in the order of the placeholders
        )


def _create_members(batch: _Batch) -> int:
    """Create the people of the new evenings who are not in the club yet (a guest if the
    name appears as `guest`), in bulk with their audit-trail records; adds them to
    `batch.members`. Returns how many were created."""
    wanted_kinds: dict[str, str] = {}
    for evening in batch.new:
        for name, role in evening.roles.items():
            wanted_kinds.setdefault(name, "guest" if role == "guest" else "member")
    new_members = [
        Member(club=batch.club, name=name, kind=kind)
        for name, kind in sorted(wanted_kinds.items())
        if name not in batch.members
    ]
    new_members = Member.objects.bulk_create(new_members)
    if new_members and new_members[0].pk is None:  # a database that returns no keys
        names = [m.name for m in new_members]
        new_members = list(Member.objects.filter(club=batch.club, name__in=names))
    _record_history(Member.objects.filter(pk__in=[m.pk for m in new_members]), batch.history)
    batch.members.update({m.name: m for m in new_members})
    if new_members:
        register_changed(club=batch.club.pk)  # new people: a change of the register
    return len(new_members)


def _seasons_of(batch: _Batch, attendance_name: str, errors: list[RowError]) -> int:
    """Find or create the season of every new evening into `batch.season_of`; an evening
    outside the dates of its year's season is a bad row (`outside_season`). Returns how
    many seasons were created (their audit-trail records name the import)."""
    seasons = list(Season.objects.filter(club=batch.club))
    seasons_before = {s.pk for s in seasons}
    for evening in batch.new:
        season = _season_for(batch.club, seasons, evening.date)
        if season is None:
            errors.append(
                RowError(
                    attendance_name,
                    evening.line,
                    "outside_season",
                    _("The date lies outside the season %(year)s.") % {"year": evening.date.year},
                )
            )
            continue
        batch.season_of[evening.date] = season
    created = [s.pk for s in seasons if s.pk not in seasons_before]
    _mark_imported(Season, created, batch.history)
    return len(created)


def _insert_rows(model: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """Insert `rows` of `model` set-based, inside the caller's transaction. Each row maps
    attnames (`evening_id`, not `evening`) to plain values; the primary key comes from the
    database, every column a row leaves out gets the field's default, and `auto_now` /
    `auto_now_add` columns one timestamp for the whole import.

    PostgreSQL: one COPY (psycopg 3) per table, no model instances (the
    instances and Django's per-value preparation were most of the import's time); the
    database's constraints and triggers check every row as with INSERT, and a refusal is
    Django's IntegrityError. Other databases (SQLite for a developer): bulk_create.
    """
    if not rows:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    now = timezone.now()
    defaults: dict[str, Any] = {}
    for f in fields:
        if f.attname in rows[0]:
            continue
        auto = getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        defaults[f.attname] = now if auto else f.get_default()
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            [model(**defaults, **row) for row in rows], batch_size=_BATCH
        )
        return
    # The rows' own columns (every row names the same ones), then the defaulted ones.
    given = [f for f in fields if f.attname in rows[0]]
    defaulted = [f for f in fields if f.attname not in rows[0]]
    values = operator.itemgetter(*(f.attname for f in given))
    tail = tuple(defaults[f.attname] for f in defaulted)
    one = len(given) == 1  # itemgetter of one name answers the value, not a tuple
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column or f.attname) for f in given + defaulted)
    sql = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with cursor.cursor.copy(sql) as copy:
            write = copy.write_row
            for row in rows:
                write((values(row), *tail) if one else (*values(row), *tail))


def _new_evening_ids(batch: _Batch) -> Any:
    """The primary keys of the evenings the import wrote, for an `__in` filter: on
    PostgreSQL one array parameter (`unnest`), not one placeholder per evening (a
    48-season book's 1,896 placeholders cost about 15 ms of this process in each of the
    queries that name them); elsewhere the list."""
    ids = list(batch.evening_ids.values())
    if connection.vendor == "postgresql":
        return RawSQL("SELECT unnest(%s::bigint[])", [ids])
    return ids


def _write_evenings(batch: _Batch) -> int:
    """The new evenings, set-based with their audit-trail records; fills
    `batch.evening_ids`. Returns how many were written."""
    _insert_rows(
        Evening,
        [
            {
                "club_id": batch.club.pk,
                "season_id": batch.season_of[e.date].pk,
                "date": e.date,
                "secretary_id": batch.members[e.secretary or ""].pk,
                "version": 1,
            }
            for e in batch.new
        ],
    )
    dates = [e.date for e in batch.new]
    batch.evening_ids = dict(
        Evening.objects.filter(club=batch.club, date__in=dates).values_list("date", "pk")
    )
    _record_history(Evening.objects.filter(pk__in=_new_evening_ids(batch)), batch.history)
    return len(dates)


def _write_attendance(batch: _Batch) -> int:
    """The new evenings' attendance, set-based with its audit-trail records (the book's
    `secretary` is a present club member). Returns how many rows were written."""
    rows = [
        {
            "club_id": batch.club.pk,
            "evening_id": batch.evening_ids[e.date],
            "member_id": batch.members[name].pk,
            "role": "member" if role == "secretary" else role,
        }
        for e in batch.new
        for name, role in e.roles.items()
    ]
    _insert_rows(Attendance, rows)
    _record_history(
        Attendance.objects.filter(evening_id__in=_new_evening_ids(batch)), batch.history
    )
    return len(rows)


@dataclass(frozen=True)
class _WrittenGame:
    """A game the import wrote: its primary key, evening, number and loser."""

    pk: int
    evening_id: int
    number: int
    loser_id: int


def _write_games(batch: _Batch) -> tuple[int, list[_WrittenGame], int]:
    """The new evenings' games (game 1 opened by the secretary, every later one by the
    previous game's loser, docs/rules.md 4.5) and their Schock-Aus in throwing order,
    set-based with their audit-trail records. Returns (how many games were written, the
    games written, how many Schock-Aus were written); on PostgreSQL the games are not
    read back (the Schock-Aus find their games in the database, `_insert_schock_aus`, and
    so do the charges), and the list is empty."""
    club_id = batch.club.pk
    rows: list[tuple[int, int, int, int, int]] = []
    throws: list[tuple[int, int, int, int]] = []  # evening, game number, thrower, position
    ids = {name: member.pk for name, member in batch.members.items()}
    for e in batch.new:
        evening_id = batch.evening_ids[e.date]
        secretary = ids[e.secretary or ""]
        loser_of = {g.number: g.loser for g in e.games}
        for g in sorted(e.games, key=lambda g: g.number):
            previous = loser_of.get(g.number - 1)
            vorleger = ids[previous] if previous else secretary
            rows.append((club_id, evening_id, g.number, ids[g.loser], vorleger))
            for position, name in enumerate(g.throwers, 1):
                throws.append((evening_id, g.number, ids[name], position))
    columns = ("club_id", "evening_id", "number", "loser_id", "vorleger_id")
    _insert_rows(Game, [dict(zip(columns, row, strict=True)) for row in rows])
    new_evenings = _new_evening_ids(batch)
    _record_history(Game.objects.filter(evening_id__in=new_evenings), batch.history)
    games: list[_WrittenGame] = []
    if connection.vendor == "postgresql":
        _insert_schock_aus([club_id], throws)
    else:
        games = [
            _WrittenGame(*values)
            for values in Game.objects.filter(evening_id__in=new_evenings)
            .order_by("evening_id", "number")
            .values_list("pk", "evening_id", "number", "loser_id")
        ]
        game_id = {(g.evening_id, g.number): g.pk for g in games}
        _insert_rows(
            SchockAus,
            [
                {
                    "club_id": club_id,
                    "game_id": game_id[(evening, number)],
                    "thrower_id": thrower,
                    "position": pos,
                }
                for evening, number, thrower, pos in throws
            ],
        )
    _record_history(SchockAus.objects.filter(game__evening_id__in=new_evenings), batch.history)
    return len(rows), games, len(throws)


def _insert_schock_aus(club_ids: list[int], throws: list[tuple[int, int, int, int]]) -> None:
    """PostgreSQL: the Schock-Aus `throws` (evening, game number, thrower, position) of the
    clubs `club_ids` in one
    INSERT ... SELECT that finds each one's game by its evening and number (the 47,700 games of 48
    seasons are not read back for their keys). Rows in the order
    of the games, then the throwing order."""
    if not throws:
        return
    quote = connection.ops.quote_name
    table, games = quote(SchockAus._meta.db_table), quote(Game._meta.db_table)
    evenings, numbers, throwers, positions = (list(c) for c in zip(*throws, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (club_id, game_id, thrower_id, position) "
            "SELECT g.club_id, g.id, t.thrower_id, t.position "
            "FROM unnest(%s::bigint[], %s::integer[], %s::bigint[], %s::integer[]) "
            "AS t(evening_id, number, thrower_id, position) "
            f"JOIN {games} g ON g.club_id = ANY(%s::bigint[]) AND g.evening_id = t.evening_id "
            "AND g.number = t.number "
            "ORDER BY g.evening_id, g.number, t.position",
            [evenings, numbers, throwers, positions, club_ids],
        )


def _charge_money(money: dict[tuple[int, int], Decimal], season: Season, marks: int) -> Decimal:
    """The money of `marks` in `season` (`marks_to_money` of its Mark value), computed once
    per season and Mark count and kept in `money`."""
    amount = money.get((season.pk, marks))
    if amount is None:
        amount = money[(season.pk, marks)] = marks_to_money(marks, season.mark_value)
    return amount


@dataclass
class _ChargeRows:
    """The ledger rows of the charges of an import's new evenings, with the money of each
    season and Mark count computed once."""

    batch: _Batch
    money: dict[tuple[int, int], Decimal] = field(default_factory=dict)

    def row(self, evening_id: int, date: datetime.date, key: str, charge: Charge) -> dict[str, Any]:
        """The fields of `charge_entry` for `charge` of the evening on `date`."""
        season = self.batch.season_of[date]
        return {
            "club_id": self.batch.club.pk,
            "season_id": season.pk,
            "member_id": charge.member_id,
            "kind": charge.kind,
            "marks": charge.marks,
            "amount": _charge_money(self.money, season, charge.marks),
            "currency": season.currency,
            "evening_id_ref": evening_id,
            "game_id_ref": charge.game_id,
            "source_key": key,
            "description": charge.description,
            "booked_on": date,
        }

    def absences(self, statutes_of: dict[int, Statutes]) -> list[dict[str, Any]]:
        """The absences' charges of the new evenings under each season's statutes."""
        batch = self.batch
        entries = []
        for e in batch.new:
            evening_id = batch.evening_ids[e.date]
            statutes = statutes_of[batch.season_of[e.date].pk]
            members = {n for n, role in e.roles.items() if role in ("secretary", "member")}
            lost_by_members = sum(1 for g in e.games if g.loser in members)
            for name, role in e.roles.items():
                if role != "absent":
                    continue
                member_id = batch.members[name].pk
                absence = absence_charge(
                    member_id=member_id,
                    statutes=statutes,
                    lost_by_members=lost_by_members,
                    present_members=len(members),
                )
                if absence is None:  # the statutes charge no absence
                    continue
                key = absence_source_key(evening_id, member_id)
                entries.append(self.row(evening_id, e.date, key, absence))
        return entries

    def lost_games(
        self, games: list[_WrittenGame], statutes_of: dict[int, Statutes]
    ) -> list[dict[str, Any]]:
        """The lost games' charges, built in Python (where there is no PostgreSQL)."""
        date_of = {pk: date for date, pk in self.batch.evening_ids.items()}
        entries = []
        for game in games:
            date = date_of[game.evening_id]
            statutes = statutes_of[self.batch.season_of[date].pk]
            if not statutes.marks_per_game_lost:
                continue
            charge = game_lost_charge(
                game_id=game.pk, number=game.number, loser_id=game.loser_id, statutes=statutes
            )
            entries.append(self.row(game.evening_id, date, game_source_key(game.pk), charge))
        return entries


def _write_charges(batch: _Batch, games: list[_WrittenGame]) -> int:
    """The ledger charges of the new evenings, the same entries `ledger_sync_evening`
    would write (absences, then one per lost game; the fields of `charge_entry`), set-based
    with their audit-trail records. The charges come from the ledger's own
    `absence_charge` / `game_lost_charge`; only their money is computed once per season
    and Mark count instead of once per entry. The absences are built here and copied; the
    lost games' charges on PostgreSQL by one INSERT ... SELECT from the games
    (`_insert_game_charges`), elsewhere here too. Returns how many entries were written."""
    # Each evening is charged under its season's statutes.
    statutes_of = {s.pk: season_statutes(s) for s in batch.season_of.values()}
    rows = _ChargeRows(batch)
    entries = rows.absences(statutes_of)
    _insert_rows(LedgerEntry, entries)
    if connection.vendor == "postgresql":
        lost = _insert_game_charges(batch, statutes_of, rows.money)
    else:
        lost_entries = rows.lost_games(games, statutes_of)
        _insert_rows(LedgerEntry, lost_entries)
        lost = len(lost_entries)
    _record_history(
        LedgerEntry.objects.filter(evening_id_ref__in=_new_evening_ids(batch)), batch.history
    )
    return len(entries) + lost


# `game_source_key(game_id)` is this prefix and the game's id (league.ledger.selectors).
_GAME_KEY_PREFIX = game_source_key(0).removesuffix("0")

# The columns of a lost game's charge, as the INSERT ... SELECT computes them from the
# game `g`, its evening `e` and its season's charge `c`.
_GAME_CHARGE_COLUMNS = {
    "club_id": "e.club_id",
    "season_id": "e.season_id",
    "member_id": "g.loser_id",
    "kind": "c.kind",
    "marks": "c.marks",
    "amount": "c.amount",
    "currency": "c.currency",
    "evening_id_ref": "e.id",
    "game_id_ref": "g.id",
    "source_key": "%s || g.id",
    "description": "g.number::text",
    "booked_on": "e.date",
}


def _insert_game_charges(
    batch: _Batch, statutes_of: dict[int, Statutes], money: dict[tuple[int, int], Decimal]
) -> int:
    """PostgreSQL: the game-lost charges of the new evenings' games in one INSERT ...
    SELECT from the games just written (no row of them travels to Python
    and back). Per season the charge is `game_lost_charge` of its statutes (its kind and
    Marks; the money by `marks_to_money` of its Mark value, `money` keeps it per season and
    Marks); per game its loser, its number as the description, `game_source_key` of its id
    and the evening's date, as `ledger_sync_evening` writes them. Seasons whose statutes
    charge no lost game get none. Rows in the order of the games (evening, number).
    Returns how many were written."""
    per_season = []
    for season in {s.pk: s for s in batch.season_of.values()}.values():
        statutes = statutes_of[season.pk]
        if not statutes.marks_per_game_lost:
            continue
        charge = game_lost_charge(game_id=0, number=1, loser_id=0, statutes=statutes)
        amount = _charge_money(money, season, charge.marks)
        per_season.append((season.pk, charge.kind, charge.marks, amount, season.currency))
    if not per_season:
        return 0
    sql, defaults = _game_charges_sql()
    # The placeholders in order: the key's prefix (the one in the columns), the defaults,
    # the per-season arrays, the new evenings.
    params: list[Any] = [_GAME_KEY_PREFIX, *defaults]
    params += [list(values) for values in zip(*per_season, strict=True)]
    params.append(list(batch.evening_ids.values()))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def _game_charges_sql() -> tuple[str, list[Any]]:
    """The INSERT ... SELECT of the lost games' charges (`_GAME_CHARGE_COLUMNS`, the
    other columns at their defaults) and the defaults' values."""
    computed = _GAME_CHARGE_COLUMNS
    now = timezone.now()
    fields = [f for f in LedgerEntry._meta.concrete_fields if not f.primary_key]
    defaulted = [f for f in fields if f.attname not in computed]
    defaults = [
        now
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        else f.get_default()
        for f in defaulted
    ]
    quote = connection.ops.quote_name
    columns = [f.column for f in fields if f.attname in computed] + [f.column for f in defaulted]
    select = [computed[f.attname] for f in fields if f.attname in computed]
    select += ["%s"] * len(defaulted)
    targets = ", ".join(quote(c or "") for c in columns)
    sql = (
        f"INSERT INTO {quote(LedgerEntry._meta.db_table)} ({targets}) "
        f"SELECT {', '.join(select)} "
        f"FROM {quote(Game._meta.db_table)} g "
        f"JOIN {quote(Evening._meta.db_table)} e ON e.id = g.evening_id "
        "JOIN unnest(%s::bigint[], %s::text[], %s::integer[], %s::numeric[], %s::text[]) "
        "AS c(season_id, kind, marks, amount, currency) ON c.season_id = e.season_id "
        "WHERE g.evening_id = ANY(%s::bigint[]) ORDER BY g.evening_id, g.number"
    )
    return sql, defaults


def _season_totals(batch: _Batch) -> list[SeasonTotals]:
    """The recomputed totals of every season the import touched, by year: the standings
    of all of them read together (`seasons_standings`: the same few queries for 1 or 48
    seasons)."""
    new_per_season = Counter(s.pk for s in batch.season_of.values())
    touched = {s.pk: s for s in batch.season_of.values()}
    seasons = sorted(touched.values(), key=lambda s: s.year)
    totals = []
    for season, standings in zip(seasons, seasons_standings(seasons=seasons), strict=True):
        totals.append(
            SeasonTotals(
                year=season.year,
                currency=season.currency,
                evenings=standings.evenings,
                games=standings.games,
                schock_aus=standings.schock_aus,
                runden=standings.runden,
                marks_total=standings.marks_total,
                money_total=standings.money_total,
                new_evenings=new_per_season[season.pk],
            )
        )
    return totals


# --- exporting -------------------------------------------------------------------------------
