"""What an evening's share says: date, who lost most, the Schock-Aus with
their throwers, the Runden owed, the season's top three, and the link to the evening.

And what a wall screen shows (`wall_board`), found by its link (`wall_screen_by_token`).

Reads only: the evening's books (games.evenings.selectors.evening_books) and the season's
standings (league.standings.selectors.season_standings).
"""

from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.evenings.models import Evening
from games.evenings.selectors import evening_books
from league.club.models import Club
from league.club.scoping import across_clubs
from league.club.selectors import club_current_season
from league.sharing.models import (
    UNNAMED_TOKEN_LENGTH,
    WallScreen,
    wall_token_club,
    wall_token_hash,
)
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


# --- the wall screen -----------------------------------------------------------------------


@dataclass
class WallGame:
    """One game of the evening on the wall: its number, the loser's name and the names
    of the Schock-Aus throwers in throwing order."""

    number: int
    loser: str
    schock_aus: list[str]


@dataclass
class WallRow:
    """One line of the season's standings on the wall (no money): place (None for a
    guest), name, points, games lost, Schock-Aus."""

    place: int | None
    name: str
    points: int
    games_lost: int
    schock_aus: int


@dataclass
class WallBoard:
    """What a wall screen shows (docs/rules.md: the evening's books and the championship),
    never money: the evening (today's, else the latest one before; None when the club
    has none), its games (newest first), who lost most (names, games), its Schock-Aus
    (ordinal, name, game), its Runden owed (name, reason), the season and its standings."""

    club_name: str
    evening: Evening | None
    games: list[WallGame]
    lost_most: list[str]
    lost_most_count: int
    schock_aus: list[tuple[int, str, int]]
    runden: list[tuple[str, str]]
    season_year: int | None
    standings: list[WallRow]
    guests: list[WallRow]


def wall_screen_by_token(*, token: str) -> WallScreen | None:
    """The working wall screen of the link `token` with its club (one query), or None
    for an unknown, malformed or revoked link, or a link of a suspended club. A token
    names its club (`wall_token_club`) and is looked for among that club's links; one of
    the older form, without the club, among all."""
    if not token or len(token) > 100:
        return None
    club_id = wall_token_club(token)
    if club_id is None and len(token) != UNNAMED_TOKEN_LENGTH:
        return None
    with across_clubs():  # the link names its club: the caller opens that club's scope
        screens = WallScreen.objects.select_related("club").filter(
            token_hash=wall_token_hash(token), revoked_at=None, club__suspended_at__isnull=True
        )
        if club_id is not None:
            screens = screens.filter(club_id=club_id)
        return screens.first()


def wall_screens_of(*, club: Club) -> list[WallScreen]:
    """The club's wall links, newest first, with who made them (at most 100; one query)."""
    return list(WallScreen.objects.filter(club=club).select_related("created_by")[:100])


def wall_board(*, club: Club) -> WallBoard:
    """The wall's figures for `club` today (the club's zone): the evening of today or
    else the latest before it, its books (games_entered, Schock-Aus, Runden, who lost
    most: `evening_books`) and its season's standings (`season_standings`), without any
    money. Queries: two for the evening and season, then those of the two kept selectors."""
    today = timezone.localdate()
    evening = (
        Evening.objects.filter(club=club, date__lte=today)
        .select_related("season")
        .order_by("-date", "-pk")
        .first()
    )
    season = evening.season if evening is not None else club_current_season(club=club)
    games: list[WallGame] = []
    lost_most: list[str] = []
    most = 0
    schock_aus: list[tuple[int, str, int]] = []
    runden: list[tuple[str, str]] = []
    if evening is not None:
        books = evening_books(evening=evening)
        for row in reversed(books.game_rows):
            games.append(
                WallGame(
                    number=row["game"].number,
                    loser=row["game"].loser.name,
                    schock_aus=[line.thrower.name for line in row["schock_aus"]],
                )
            )
        players = [p for p in books.people if not p.absent]
        most = max((p.games_lost for p in players), default=0)
        lost_most = [p.member.name for p in players if most > 0 and p.games_lost == most]
        schock_aus = [(line.ordinal, line.thrower.name, line.game) for line in books.schock_aus]
        runden = [(r.thrower.name, str(REASONS.get(r.reason, r.reason))) for r in books.runden]
    standings: list[WallRow] = []
    guests: list[WallRow] = []
    if season is not None:
        table = season_standings(season=season)
        standings = [
            WallRow(r.place, r.member.name, r.points, r.games_lost, r.schock_aus)
            for r in table.rows
        ]
        guests = [
            WallRow(None, r.member.name, r.points, r.games_lost, r.schock_aus) for r in table.guests
        ]
    return WallBoard(
        club_name=club.name,
        evening=evening,
        games=games,
        lost_most=lost_most,
        lost_most_count=most,
        schock_aus=schock_aus,
        runden=runden,
        season_year=season.year if season is not None else None,
        standings=standings,
        guests=guests,
    )
