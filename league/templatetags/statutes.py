"""Template tags that state a season's statutes in words: the pages say
what the season's statutes say, never a figure of their own ("1 Mark", "6 Marks")."""

from django import template
from django.utils.translation import gettext as _

from league.club.models import Season
from league.club.statutes import Statutes, absence_text, marks_text, season_statutes

__all__ = ["absence_text", "marks_text", "points_text", "runden_text"]

register = template.Library()


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def points_text(statutes: Statutes) -> str:
    """How points are scored, one German sentence ("Punkte: +1 je Schock-Aus, ...")."""
    if statutes.by_rank:
        return _(
            "Points by the evening's rank: %(points)s (fewest games lost first, equal "
            "losses share the place)."
        ) % {"points": "/".join(str(p) for p in statutes.rank_points)}
    return _("Points: %(sa)s per Schock-Aus, %(lost)s per game lost.") % {
        "sa": _signed(statutes.points_per_schock_aus),
        "lost": _signed(statutes.points_per_game_lost),
    }


def runden_text(statutes: Statutes) -> str:
    """Which Schock-Aus owe a Runde, one German sentence."""
    parts = []
    if statutes.runden_first:
        parts.append(_("the first"))
    if statutes.runden_every:
        parts.append(_("every %(n)s.") % {"n": statutes.runden_every})
    if statutes.runden_last:
        parts.append(_("the last"))
    if not parts:
        return _("No Schock-Aus owes a Runde.")
    return _("A Runde is owed by %(which)s Schock-Aus of an evening.") % {"which": ", ".join(parts)}


@register.simple_tag
def statutes_points(season: Season) -> str:
    """{% statutes_points season %}: how the season scores points."""
    return points_text(season_statutes(season))


@register.simple_tag
def statutes_marks(season: Season) -> str:
    """{% statutes_marks season %}: Marks per lost game and per absence."""
    return marks_text(season_statutes(season))


@register.simple_tag
def statutes_runden(season: Season) -> str:
    """{% statutes_runden season %}: which Schock-Aus owe a Runde."""
    return runden_text(season_statutes(season))
