"""The club's evenings in a phone's calendar: the secret, revocable iCalendar link of
GET /api/v1/me/ (games/evenings/calendar.py), read without a login; the planned evenings
of the statutes' evening day and time, as the secretary moves, cancels or adds them."""

import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from icalendar import Calendar

from league.club.services import member_update, season_statutes_update

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")
# A Thursday: the statutes' evening day is Friday (4) at 20:00 by default.
TODAY = datetime.datetime(2026, 11, 26, 12, 0, tzinfo=BERLIN)


@pytest.fixture(autouse=True)
def _today():
    with time_machine.travel(TODAY, tick=False):
        yield


def calendar_url(api, role="member") -> str:
    return api(role).get("/api/v1/me/").json()["calendar_url"]


def events(url: str) -> list:
    """The feed at `url`, read without a login, parsed by icalendar: its VEVENTs."""
    answer = Client().get(url)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(answer.content)
    return list(calendar.walk("VEVENT"))


def by_start(feed) -> dict[datetime.datetime, str]:
    return {e.decoded("dtstart"): str(e.get("status")) for e in feed}


def test_the_feed_lists_the_evening_played_and_the_statutes_evenings_planned(api, cast):
    feed = events(calendar_url(api))
    starts = by_start(feed)
    assert datetime.datetime(2026, 10, 9, 20, 0, tzinfo=BERLIN) in starts
    fridays = [
        datetime.datetime(2026, 11, 27, 20, 0, tzinfo=BERLIN) + datetime.timedelta(weeks=w)
        for w in range(12)
    ]
    assert all(starts[f] == "CONFIRMED" for f in fridays)
    assert len(feed) == 1 + 12
    assert all(str(e.get("summary")) == "Schockabend" for e in feed)
    assert len({str(e.get("uid")) for e in feed}) == len(feed)


def test_the_feed_carries_the_clubs_time_zone(api, cast):
    answer = Client().get(calendar_url(api))
    calendar = Calendar.from_ical(answer.content)
    assert [str(tz.get("tzid")) for tz in calendar.walk("VTIMEZONE")] == ["Europe/Berlin"]


def test_the_statutes_set_the_evening_day_and_time(api, cast):
    season_statutes_update(
        season=cast.season,
        statutes={"evening": {"weekday": 2, "time": "19:30"}},
        confirm=True,
    )
    starts = by_start(events(calendar_url(api)))
    assert datetime.datetime(2026, 12, 2, 19, 30, tzinfo=BERLIN) in starts
    assert datetime.datetime(2026, 11, 27, 20, 0, tzinfo=BERLIN) not in starts


def test_a_revoked_link_is_not_found_and_the_new_one_works(api, cast):
    old = calendar_url(api)
    answer = api("member").post("/api/v1/me/calendar/revoke/")
    assert answer.status_code == 200
    new = answer.json()["calendar_url"]
    assert new != old
    assert Client().get(old).status_code == 404
    assert events(new)
    assert calendar_url(api) == new


def test_a_forged_or_malformed_link_is_not_found(api, cast):
    url = calendar_url(api)
    forged = url[:-8] + ("0" if url[-5] != "0" else "1") + url[-4:]
    assert Client().get(forged).status_code == 404
    assert Client().get("/kalender/1-0.ics").status_code == 404
    other = url.replace(f"/{cast.member.pk}-", f"/{cast.secretary.pk}-")
    assert Client().get(other).status_code == 404


def test_the_link_of_an_inactive_person_is_not_found(api, cast):
    url = calendar_url(api)
    member_update(member=cast.member, active=False)
    assert Client().get(url).status_code == 404


def test_the_secretary_moves_cancels_and_adds_planned_evenings(api, cast):
    secretary = api("secretary")
    moved = secretary.post(
        "/api/v1/planned-evenings/2026-11-27/move/",
        {"date": "2026-11-28", "time": "18:00"},
        format="json",
    )
    assert moved.status_code == 200, moved.json()
    assert moved.json()["regular_date"] == "2026-11-27"
    cancelled = secretary.post("/api/v1/planned-evenings/2026-12-04/cancel/")
    assert cancelled.status_code == 200
    assert cancelled.json()["cancelled"] is True
    added = secretary.post("/api/v1/planned-evenings/", {"date": "2026-12-09"}, format="json")
    assert added.status_code == 201, added.json()
    feed = events(calendar_url(api))
    starts = by_start(feed)
    assert datetime.datetime(2026, 11, 28, 18, 0, tzinfo=BERLIN) in starts
    assert datetime.datetime(2026, 11, 27, 20, 0, tzinfo=BERLIN) not in starts
    assert starts[datetime.datetime(2026, 12, 4, 20, 0, tzinfo=BERLIN)] == "CANCELLED"
    assert starts[datetime.datetime(2026, 12, 9, 20, 0, tzinfo=BERLIN)] == "CONFIRMED"
    # The moved evening keeps the UID of the statutes' date: the phone moves its entry.
    uid = {e.decoded("dtstart"): str(e.get("uid")) for e in feed}
    assert uid[datetime.datetime(2026, 11, 28, 18, 0, tzinfo=BERLIN)].endswith("2026-11-27")


def test_planning_refuses_a_date_taken_past_or_unknown(api, cast):
    secretary = api("secretary")
    taken = secretary.post("/api/v1/planned-evenings/", {"date": "2026-11-27"}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (409, "evening_planned_already")
    past = secretary.post("/api/v1/planned-evenings/", {"date": "2026-11-20"}, format="json")
    assert (past.status_code, past.json()["code"]) == (400, "date_in_past")
    unknown = secretary.post("/api/v1/planned-evenings/2026-11-26/cancel/")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_planned_evening")


def test_only_the_secretary_plans_evenings(api, cast):
    answer = api("member").post("/api/v1/planned-evenings/", {"date": "2026-12-09"}, format="json")
    assert answer.status_code == 403
    assert api("member").get("/api/v1/planned-evenings/").status_code == 200


def test_the_secretary_cancels_an_evening_on_the_page(api, cast):
    client = Client()
    client.force_login(cast.secretary.user)
    page = client.get("/abende/termine/")
    assert "27.11.2026" in page.content.decode()
    client.post("/abende/termine/", {"action": "cancel", "date": "2026-11-27"})
    starts = by_start(events(calendar_url(api)))
    assert starts[datetime.datetime(2026, 11, 27, 20, 0, tzinfo=BERLIN)] == "CANCELLED"


def test_the_link_of_a_locked_login_or_a_suspended_club_is_not_found(api, cast):
    from league.club.services import club_suspend, login_lock

    url = calendar_url(api)
    login_lock(person=cast.member)
    assert Client().get(url).status_code == 404
    login_lock(person=cast.member, locked=False)
    assert Client().get(url).status_code == 200
    club_suspend(club=cast.member.club)
    assert Client().get(url).status_code == 404


def test_an_evening_moved_to_the_next_day_stays_planned_on_that_day(api, cast):
    secretary = api("secretary")
    moved = secretary.post(
        "/api/v1/planned-evenings/2026-11-27/move/", {"date": "2026-11-28"}, format="json"
    )
    assert moved.status_code == 200, moved.json()
    url = calendar_url(api)
    # On the Saturday itself its statutes' Friday is past: the evening is still there,
    # in the feed, the list and the reminders' view, and can be moved again.
    with time_machine.travel(TODAY + datetime.timedelta(days=2), tick=False):
        assert datetime.datetime(2026, 11, 28, 20, 0, tzinfo=BERLIN) in by_start(events(url))
        listed = secretary.get("/api/v1/planned-evenings/").json()
        dates = [line["date"] for line in listed]
        assert "2026-11-28" in dates
        again = secretary.post(
            "/api/v1/planned-evenings/2026-11-28/move/", {"date": "2026-11-29"}, format="json"
        )
        assert again.status_code == 200, again.json()
        taken = secretary.post("/api/v1/planned-evenings/", {"date": "2026-11-29"}, format="json")
        assert (taken.status_code, taken.json()["code"]) == (409, "evening_planned_already")


def test_an_evening_far_ahead_moved_near_is_listed_where_it_went(api, cast):
    secretary = api("secretary")
    far = datetime.date(2027, 3, 19)  # a Friday sixteen weeks ahead
    moved = secretary.post(
        f"/api/v1/planned-evenings/{far.isoformat()}/move/", {"date": "2026-12-10"}, format="json"
    )
    assert moved.status_code == 200, moved.json()
    assert moved.json()["date"] == "2026-12-10"
    starts = by_start(events(calendar_url(api)))
    assert datetime.datetime(2026, 12, 10, 20, 0, tzinfo=BERLIN) in starts
