"""The club's evenings as an iCalendar feed (RFC 5545, built with the `icalendar`
library), for a person's calendar app: the evenings played in the last year and the
evenings planned for the next weeks (games/evenings/selectors.py `club_played_evenings`,
`club_planned_evenings`). Read through a person's secret link without a login
(league.club.selectors `member_calendar_token`).

Each event lasts `EVENING_HOURS` hours from the statutes' `evening_time`, in the club's
zone Europe/Berlin (the feed carries its VTIMEZONE). A planned evening keeps its UID when
the secretary moves it, and is sent with STATUS:CANCELLED when cancelled, so a calendar
app updates the entry it has. Texts are German.
"""

import datetime
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.evenings.selectors import club_planned_evenings, club_played_evenings
from league.club.models import Club

#: How long an evening lasts in the calendar, in hours.
EVENING_HOURS = 4


def _event(
    *,
    uid: str,
    starts: datetime.datetime,
    summary: str,
    stamp: datetime.datetime,
    status: str,
    description: str = "",
) -> Any:
    from icalendar import Event

    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", starts)
    event.add("dtend", starts + datetime.timedelta(hours=EVENING_HOURS))
    event.add("summary", summary)
    event.add("status", status)
    if description:
        event.add("description", description)
    return event


def club_calendar_ics(*, club: Club, today: datetime.date | None = None) -> bytes:
    """The club's calendar as iCalendar bytes (UTF-8, CRLF lines): one VEVENT per evening
    played since a year before `today` (default: the club's day) and per evening planned
    for the next weeks, cancelled ones with STATUS:CANCELLED. Four queries."""
    # Imported here, not with the module: a host whose packages predate the lock's
    # icalendar still serves every page but the feed.
    from icalendar import Calendar

    today = today or timezone.localdate()
    stamp = timezone.now().replace(microsecond=0)
    with translation.override("de"):
        calendar = Calendar()
        calendar.add("prodid", "-//Schockclub//Termine//DE")
        calendar.add("version", "2.0")
        calendar.add("calscale", "GREGORIAN")
        calendar.add("x-wr-calname", _("Schock evenings of %(club)s") % {"club": club.name})
        calendar.add("x-wr-timezone", timezone.get_default_timezone_name())
        for played in club_played_evenings(club=club, today=today):
            games = ngettext("%(n)d game", "%(n)d games", played.games) % {"n": played.games}
            calendar.add_component(
                _event(
                    uid=played.uid,
                    starts=played.starts,
                    summary=_("Schock evening"),
                    stamp=stamp,
                    status="CONFIRMED",
                    description=games,
                )
            )
        for planned in club_planned_evenings(club=club, today=today):
            calendar.add_component(
                _event(
                    uid=planned.uid,
                    starts=planned.starts,
                    summary=_("Schock evening (cancelled)")
                    if planned.cancelled
                    else _("Schock evening"),
                    stamp=stamp,
                    status="CANCELLED" if planned.cancelled else "CONFIRMED",
                )
            )
        calendar.add_missing_timezones()
    return calendar.to_ical()
