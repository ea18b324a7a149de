"""`manage.py demo` in a production database: its logins share a known password, so with
DEBUG off (as the environment sets it) it is refused unless forced; the last line names
the address the app is served at."""

import io

import pytest
from django.core.management import CommandError, call_command

from league.club.models import Club

pytestmark = pytest.mark.django_db


def test_the_demo_is_refused_when_debug_is_off(settings):
    settings.DEMO_ALLOWED = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("demo", stdout=io.StringIO())
    assert not Club.objects.exists()


def test_the_demo_is_allowed_in_development():
    from schockclub import settings as configured

    # DEMO_ALLOWED follows DEBUG as the environment gives it (on for the developer).
    assert configured.DEMO_ALLOWED is configured.DEBUG
