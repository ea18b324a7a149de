"""CSV exports of a season: standings, dues, the Schock-Aus chronicle.

**Decision**: the files are made for a German spreadsheet opened by double-click: `;` as
separator, decimal comma without thousands separator ("1234,50"), dates as dd.mm.yyyy,
UTF-8 with a byte order mark, German column headers. Money columns carry no currency
symbol; the `currency` column says DM or EUR. Marks are integers.
"""

import csv
import io
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league.club.models import Season
from league.club.money import round_money
from league.club.spreadsheet import spreadsheet_cell
from league.reports.selectors import (
    season_chronicle,
    season_dues,
)
from league.standings.selectors import season_standings

BOM = "\ufeff"


def german_decimal(amount: Decimal) -> str:
    """Decimal("1234.5") -> "1234,50" (cents, half up, no thousands separator)."""
    return f"{round_money(amount):.2f}".replace(".", ",")


def _csv(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return BOM + buf.getvalue()


def standings_csv(*, season: Season) -> str:
    """The final standings (docs/rules.md 5, shared places), guests after the ranked members
    with an empty place. Columns: Platz; Name; Gast; Abende; Abwesend; Spiele; verloren;
    Schock-Aus; Punkte; Runden; Mark; Betrag; Währung."""
    with translation.override("de"):
        standings = season_standings(season=season)
        header = [
            _("Place"),
            _("Name"),
            _("Guest"),
            _("Evenings"),
            _("absent"),
            _("Games"),
            _("lost"),
            _("Schock-Aus"),
            _("Points"),
            _("Runden"),
            _("Mark"),
            _("Amount"),
            _("Currency"),
        ]
        rows = [
            [
                r.place if r.place is not None else "",
                r.member.name,
                _("yes") if r.guest else _("no"),
                r.evenings_attended,
                r.evenings_absent,
                r.games_played,
                r.games_lost,
                r.schock_aus,
                "" if r.guest else r.points,
                r.runden,
                r.marks,
                german_decimal(r.money),
                standings.currency,
            ]
            for r in standings.rows + standings.guests
        ]
        return _csv(header, rows)


def dues_csv(*, season: Season, person_id: int | None = None) -> str:
    """Dues per person: Name; Gast; Mark; Betrag; bezahlt; offen; Währung, and a last
    line with the totals (Name "Summe"). With `person_id` (a member's or a guest's own
    file: what a person paid and owes is theirs and the secretary's) only that person's
    line, and no totals."""
    with translation.override("de"):
        dues = season_dues(season=season)
        if person_id is not None:
            dues = [d for d in dues if d.member.pk == person_id]
        header = [
            _("Name"),
            _("Guest"),
            _("Mark"),
            _("Amount"),
            _("paid"),
            _("open"),
            _("Currency"),
        ]
        rows = [
            [
                d.member.name,
                _("yes") if d.guest else _("no"),
                d.marks,
                german_decimal(d.money),
                german_decimal(d.paid),
                german_decimal(d.open),
                season.currency,
            ]
            for d in dues
        ]
        if person_id is not None:
            return _csv(header, rows)
        total = Decimal("0")
        rows.append(
            [
                _("Total"),
                "",
                sum(d.marks for d in dues),
                german_decimal(sum((d.money for d in dues), total)),
                german_decimal(sum((d.paid for d in dues), total)),
                german_decimal(sum((d.open for d in dues), total)),
                season.currency,
            ]
        )
        return _csv(header, rows)


def chronicle_csv(*, season: Season) -> str:
    """Every Schock-Aus of the season: Datum; Spiel; Werfer; Nr. (ordinal of the evening);
    Runde (erster/fünfter/letzter or empty); Grund; Runde gegeben am."""
    with translation.override("de"):
        lines = season_chronicle(season=season)
        reasons = {
            "first": pgettext("runde", "first"),
            "fifth": pgettext("runde", "fifth"),
            "last": pgettext("runde", "last"),
        }
        header = [
            _("Date"),
            _("Game"),
            _("Thrower"),
            _("No."),
            _("Runde"),
            _("Reason"),
            _("Runde given on"),
        ]
        rows = [
            [
                line.date.strftime("%d.%m.%Y"),
                line.game,
                line.thrower.name,
                line.ordinal,
                reasons.get(line.runde or "", ""),
                line.runde_text,
                line.runde_given_on.strftime("%d.%m.%Y") if line.runde_given_on else "",
            ]
            for line in lines
        ]
        return _csv(header, rows)
