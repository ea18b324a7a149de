"""The demo (`manage.py demo`, league/management/commands/demo.py) entered once per process
and written again by PostgreSQL's COPY wherever a test needs it again (tests/copied.py).

The demo's two clubs are about 35 evenings, 900 games entered through the services: half
a minute of a process's time, and tests/pages/demo, tests/fuzz and the backup's round
trip of the demo each need them. Their tests share the xdist group "demo", so they run on
one worker, where the first asks for the demo through the services and the others have
its rows copied in (a second or two).

The demo is entered on a fixed instant of its day (DEMO_ENTERED_AT, the clock moving on
from there): tests/copied.py keys its copies by the clock's minute (rows carry the time
they were written), and the packages of the group ask for the demo minutes apart.
"""

from __future__ import annotations

import datetime
import io
import zoneinfo

import time_machine
from django.core.management import call_command
from django.test import override_settings

from tests.copied import copied
from tests.passwords import FAST_HASHERS

# The demo's day in the tests: its last season (2025) closed, the current one (2026) with
# its first evenings.
DEMO_TODAY = datetime.date(2026, 3, 20)
# The instant the demo is entered at: the evening of its day.
DEMO_ENTERED_AT = datetime.datetime(2026, 3, 20, 23, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Berlin"))


def demo_entered(today: datetime.date = DEMO_TODAY) -> str:
    """Enter the demo for `today` (`manage.py demo --today`) into the database, inside the
    caller's transaction; returns what the command printed.

    The first call of a process enters it through the services; a later one, into a
    database that holds what the first one's did, has its rows copied in
    (tests/copied.py: `copied`, which also says when it builds again instead)."""

    def build() -> str:
        out = io.StringIO()
        call_command("demo", today=today, stdout=out)
        return out.getvalue()

    # The demo's logins are made with the tests' hasher, so a test logs in with "schocken"
    # as quickly as with any other login.
    with (
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        time_machine.travel(DEMO_ENTERED_AT, tick=True),
    ):
        return copied("demo", build, today)
