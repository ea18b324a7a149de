"""The season recap card: the season's figures on one page and as a PNG
1080 px wide, for the club's chat.

Champion(s): place 1 of the standings (``league.standings.selectors.season_standings``);
most Schock-Aus, luckiest and unluckiest against the odds (thrown minus expected, people
with a known expectation and at least one game), the longest run of games without a loss:
``club_statistics`` of the season; the kitty: the standings' money total in the season's
currency.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from league.club.models import Season
from league.standings.selectors import season_standings
from league.statistics.selectors import PersonStatistics, club_statistics


@dataclass(frozen=True)
class Recap:
    """The card's figures. Names are lists (ties share a title); values as counted."""

    season: Season
    champions: list[str]
    champion_points: int | None
    most_schock_aus: list[str]
    most_schock_aus_count: int
    luckiest: PersonStatistics | None
    unluckiest: PersonStatistics | None
    longest_streak_name: str | None
    longest_streak: int
    kitty: Decimal
    currency: str
    evenings: int
    games: int
    schock_aus: int


def season_recap(*, season: Season) -> Recap:
    """The recap of ``season`` (standings: 6 queries, statistics: 11)."""
    standings = season_standings(season=season)
    stats = club_statistics(club=season.club, season=season)
    first = [r for r in standings.rows if r.place == 1]
    best_sa = max((p.schock_aus for p in stats.people), default=0)
    known = [p for p in stats.people if p.luck is not None and p.games]
    luckiest = max(known, key=lambda p: (p.luck, p.name), default=None)
    unluckiest = min(known, key=lambda p: (p.luck, p.name), default=None)
    streak = stats.records.longest_without_loss
    return Recap(
        season=season,
        champions=[r.member.name for r in first],
        champion_points=first[0].points if first else None,
        most_schock_aus=[p.name for p in stats.people if best_sa and p.schock_aus == best_sa],
        most_schock_aus_count=best_sa,
        luckiest=luckiest,
        unluckiest=unluckiest if unluckiest is not luckiest else None,
        longest_streak_name=streak.name if streak else None,
        longest_streak=streak.length if streak else 0,
        kitty=standings.money_total,
        currency=standings.currency,
        evenings=standings.evenings,
        games=standings.games,
        schock_aus=standings.schock_aus,
    )


def _money(amount: Decimal, currency: str) -> str:
    text = f"{amount:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")
    return f"{text} {'€' if currency == 'EUR' else currency}"


def recap_lines(recap: Recap) -> list[tuple[str, str]]:
    """(title, value) lines of the card, German (the card is an image: no catalogue)."""
    lines = [
        ("Meister", ", ".join(recap.champions) or "–"),
        ("Punkte des Meisters", str(recap.champion_points) if recap.champions else "–"),
        (
            "Meiste Schock-Aus",
            f"{', '.join(recap.most_schock_aus)} ({recap.most_schock_aus_count})"
            if recap.most_schock_aus
            else "–",
        ),
    ]
    for title, person in (("Glückspilz", recap.luckiest), ("Pechvogel", recap.unluckiest)):
        if person is not None and person.luck is not None:
            lines.append((title, f"{person.name} ({person.luck:+.2f} gegen die Erwartung)"))
    if recap.longest_streak_name:
        lines.append(
            (
                "Längste Serie ohne Niederlage",
                f"{recap.longest_streak_name} ({recap.longest_streak} Spiele)",
            )
        )
    lines.append(("Kasse", _money(recap.kitty, recap.currency)))
    lines.append(
        (
            "Saison",
            f"{recap.evenings} Abende · {recap.games} Spiele · {recap.schock_aus} Schock-Aus",
        )
    )
    return lines


def recap_png(recap: Recap) -> bytes:
    """The card as a PNG exactly 1080 px wide (and 1350 high, 4:5 for a chat). Names are
    plain text (no mathtext)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"font.family": "DejaVu Sans", "text.parse_math": False}):
        fig = Figure(figsize=(10.8, 13.5), dpi=100, facecolor="#0b3d2e")
        fig.text(0.07, 0.93, f"Saison {recap.season.year}", color="#f2c14e", size=44, weight="bold")
        fig.text(0.07, 0.89, recap.season.club.name, color="white", size=22)
        y = 0.80
        for title, value in recap_lines(recap):
            fig.text(0.07, y, title, color="#f2c14e", size=20)
            fig.text(0.07, y - 0.035, value[:60], color="white", size=26, weight="bold")
            y -= 0.095
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, facecolor=fig.get_facecolor())
    return buf.getvalue()
