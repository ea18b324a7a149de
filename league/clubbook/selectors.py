"""The club book read out: the two CSV files of the format league/clubbook/services.py
describes (attendance `date,name,role`, games `date,number,loser,schock_aus`), UTF-8, one
header line, the exact files an import would take back. Nothing here writes."""

import csv
import io
from collections import defaultdict

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.models import Club
from league.club.spreadsheet import spreadsheet_cell

ATTENDANCE_COLUMNS = ["date", "name", "role"]
GAMES_COLUMNS = ["date", "number", "loser", "schock_aus"]


_FOLD = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss", "é": "e"})


def name_key(name: str) -> tuple[str, str]:
    """Sort key of names: case and German umlauts folded, then the name itself."""
    return (name.casefold().translate(_FOLD), name)


_ROLE_GROUP = {"member": 0, "guest": 1, "absent": 2}


def _csv_bytes(header: list[str], rows: list[list[str]]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return out.getvalue().encode("utf-8")


def club_book_export(*, club: Club) -> tuple[bytes, bytes]:
    """The club's whole book as (attendance CSV, games CSV) bytes in the import format and
    the canonical order (see the module's docstring). A secretary who is a guest is
    written as `guest` (the format's `secretary` is a club member). Four queries."""
    secretaries = dict(Evening.objects.filter(club=club).values_list("pk", "secretary_id"))
    per_evening: dict[int, list[tuple[int, tuple[str, str], str, str]]] = defaultdict(list)
    dates = {}
    for evening_id, date, member_id, name, role in Attendance.objects.filter(
        evening__club=club
    ).values_list("evening_id", "evening__date", "member_id", "member__name", "role"):
        dates[evening_id] = date
        shown = "secretary" if role == "member" and member_id == secretaries[evening_id] else role
        per_evening[evening_id].append((_ROLE_GROUP[role], name_key(name), name, shown))
    attendance_rows = []
    for evening_id in sorted(per_evening, key=lambda pk: dates[pk]):
        day = dates[evening_id].isoformat()
        for _g, _k, name, role in sorted(per_evening[evening_id]):
            attendance_rows.append([day, name, role])
    throwers: dict[int, list[str]] = defaultdict(list)
    for game_id, name in (
        SchockAus.objects.filter(game__evening__club=club)
        .order_by("game_id", "position")
        .values_list("game_id", "thrower__name")
    ):
        throwers[game_id].append(name)
    games_rows = [
        # German spreadsheets split the cell on `;`: every name is guarded, not only the
        # cell's first character (spreadsheet_cell; the import reads each back).
        [
            date.isoformat(),
            str(number),
            loser,
            ";".join(str(spreadsheet_cell(name)) for name in throwers.get(pk, [])),
        ]
        for pk, date, number, loser in Game.objects.filter(evening__club=club)
        .order_by("evening__date", "number")
        .values_list("pk", "evening__date", "number", "loser__name")
    ]
    return _csv_bytes(ATTENDANCE_COLUMNS, attendance_rows), _csv_bytes(GAMES_COLUMNS, games_rows)
