"""What an evening's share says: date, who lost most, the Schock-Aus with
their throwers, the Runden owed, the season's top three, and the link to the evening.

Reads only: the evening's books (games.evenings.selectors.evening_books) and the season's
standings (league.standings.selectors.season_standings).
"""

from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.evenings.models import Evening
from games.evenings.selectors import evening_books
from league.standings.selectors import season_standings

REASONS = {
    "first": gettext_lazy("first Schock-Aus"),
    "fifth": gettext_lazy("fifth Schock-Aus"),
    "last": gettext_lazy("last Schock-Aus"),
}


def signed(points: int) -> str:
    """Points with their sign as on the standings: +3, −4 (minus sign), 0."""
    return f"+{points}" if points > 0 else (f"\u2212{-points}" if points < 0 else "0")


@dataclass
class EveningShare:
    """The figures of an evening's share, as plain text lines (German when rendered under
    German). `top_three` are (place, name, points) of the season's ranked club members."""

    title: str
    date: str
    games: str
    lost_most: str
    schock_aus: list[str]
    runden: list[str]
    top_three: list[tuple[int, str, int]]
    season_year: int


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def evening_share(*, evening: Evening) -> EveningShare:
    """The evening's share figures. Ties for "lost most" name everyone tied. Queries: those
    of evening_books and season_standings (both cached by the books' version)."""
    books = evening_books(evening=evening)
    players = [p for p in books.people if not p.absent]
    most = max((p.games_lost for p in players), default=0)
    losers = [p.member.name for p in players if p.games_lost == most and most > 0]
    if losers:
        lost_most = ngettext(
            "Lost most: %(names)s (%(count)d game)",
            "Lost most: %(names)s (%(count)d games)",
            most,
        ) % {"names": _names(losers), "count": most}
    else:
        lost_most = _("No game entered yet.")
    schock_aus = [
        _("%(ordinal)s. Schock-Aus: %(name)s (game %(game)s)")
        % {"ordinal": line.ordinal, "name": line.thrower.name, "game": line.game}
        for line in books.schock_aus
    ]
    runden = [
        _("%(name)s (%(reason)s, no. %(ordinal)s)")
        % {"name": r.thrower.name, "reason": REASONS.get(r.reason, r.reason), "ordinal": r.ordinal}
        for r in books.runden
    ]
    standings = season_standings(season=books.evening.season)
    top = [(row.place or 0, row.member.name, row.points) for row in standings.rows[:3]]
    date = formats.date_format(books.evening.date, "l, j. F Y")
    return EveningShare(
        title=_("Evening of %(date)s")
        % {"date": formats.date_format(books.evening.date, "j. F Y")},
        date=date,
        games=_("%(entered)s of %(expected)s games")
        % {"entered": books.games_entered, "expected": books.games_expected},
        lost_most=lost_most,
        schock_aus=schock_aus,
        runden=runden,
        top_three=top,
        season_year=books.evening.season.year,
    )


def evening_share_text(*, evening: Evening, url: str) -> str:
    """The text for the club's chat: plain lines, no markup, ending with `url` (the evening's
    page, absolute)."""
    share = evening_share(evening=evening)
    lines = [share.title, share.games, share.lost_most]
    if share.schock_aus:
        lines += ["", _("Schock-Aus:")] + [f"• {line}" for line in share.schock_aus]
    else:
        lines += ["", _("No Schock-Aus this evening.")]
    if share.runden:
        lines += ["", _("Runden owed:")] + [f"• {line}" for line in share.runden]
    if share.top_three:
        lines += ["", _("Table %(year)s, top three:") % {"year": share.season_year}]
        lines += [f"{place}. {name} ({signed(points)})" for place, name, points in share.top_three]
    lines += ["", url]
    return "\n".join(lines)
