"""Template tags of the reports: the season report box for season pages."""

from django import template

from league.club.models import Season
from league.reports.builds import report_state

register = template.Library()


@register.inclusion_tag("reports/_season_report_box.html", takes_context=True)
def season_report_box(context, season: Season) -> dict:
    """{% season_report_box season %}: the report's state, download link, request button
    and CSV links of `season` (reads the state; the broker check is cached briefly)."""
    return {
        "season": season,
        "report": report_state(season=season),
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("reports/_season_links.html")
def season_report_links(season: Season) -> dict:
    """{% season_report_links season %}: one line for a season page: the report's state
    with its download link, and the CSV exports (standings, dues, Schock-Aus chronicle)."""
    return {"season": season, "report": report_state(season=season)}
