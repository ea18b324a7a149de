"""Reads from a read replica (league/club/replica.py): a second database alias on the
same test database (as settings' TEST MIRROR makes it), with the router's choices
recorded. A member's page reads go to the replica; a secretary's read after a write goes
to the primary (the `sc_primary` cookie), as do reads in a writer's transaction and
outside a request."""

import subprocess
import sys

import pytest
from django.db import connections, transaction
from django.urls import reverse

from games.evenings.models import Game
from league.club import replica
from league.club.models import Club

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def replica_alias(settings):
    """The alias "replica", a second connection to the test database (the TEST MIRROR of
    settings), for one test."""
    connections.settings[replica.REPLICA] = {
        **connections.settings["default"],
        "TEST": {"MIRROR": "default"},
        # Opened here and kept over the test's requests: the test case allows connections
        # only to the aliases it knew at its start, and an open one stays allowed.
        "CONN_MAX_AGE": None,
    }
    connections[replica.REPLICA].connect()
    yield replica.REPLICA
    if hasattr(connections._connections, replica.REPLICA):
        connections[replica.REPLICA].close()
        delattr(connections._connections, replica.REPLICA)
    del connections.settings[replica.REPLICA]


@pytest.fixture
def read_choices(monkeypatch):
    """Every alias the router chose for a read, in order."""
    choices: list[str] = []
    choose = replica.ReplicaRouter.db_for_read

    def recorded(self, model, **hints):
        alias = choose(self, model, **hints)
        choices.append(alias)
        return alias

    monkeypatch.setattr(replica.ReplicaRouter, "db_for_read", recorded)
    return choices


def test_a_members_page_reads_come_from_the_replica(
    replica_alias, read_choices, member_client, evening
):
    read_choices.clear()
    response = member_client.get(reverse("evening_detail", args=[evening.pk]))
    assert response.status_code == 200
    assert read_choices and set(read_choices) == {"replica"}


def test_a_members_api_reads_come_from_the_replica(
    replica_alias, read_choices, member_client, evening
):
    read_choices.clear()
    response = member_client.get("/api/v1/evenings/")
    assert response.status_code == 200
    assert set(read_choices) == {"replica"}


def test_the_secretarys_read_after_a_write_comes_from_the_primary(
    replica_alias, read_choices, secretary_client, evening, member
):
    saved = secretary_client.post(
        reverse("game_entry", args=[evening.pk]), {"number": 3, "loser": member.pk}
    )
    assert saved.status_code == 302
    assert saved.cookies[replica.PRIMARY_COOKIE]["max-age"] == 10
    read_choices.clear()
    response = secretary_client.get(reverse("evening_detail", args=[evening.pk]))
    assert response.status_code == 200
    assert read_choices and set(read_choices) == {"default"}
    assert Game.objects.filter(evening=evening).count() == 3


def test_a_write_reads_the_primary(replica_alias, read_choices, secretary_client, evening, member):
    read_choices.clear()
    secretary_client.post(
        reverse("game_entry", args=[evening.pk]), {"number": 3, "loser": member.pk}
    )
    assert read_choices and "replica" not in read_choices


def test_reads_in_a_transaction_come_from_the_primary(replica_alias):
    token = replica._replica_allowed.set(True)
    try:
        assert replica.read_alias() == "replica"
        with transaction.atomic():
            assert replica.read_alias() == "default"
            Club.objects.filter(name="x").exists()
    finally:
        replica._replica_allowed.reset(token)


def test_reads_outside_a_request_come_from_the_primary(replica_alias):
    assert replica.read_alias() == "default"


def test_without_a_replica_every_read_is_the_primarys(read_choices, member_client, evening):
    response = member_client.get(reverse("evening_detail", args=[evening.pk]))
    assert response.status_code == 200
    assert set(read_choices) == {"default"}
    assert replica.PRIMARY_COOKIE not in response.cookies


SETTINGS_PROBE = (
    "import django; django.setup(); from django.conf import settings; "
    "r = settings.DATABASES.get('replica'); "
    "print(r and r['TEST']['MIRROR'], r and r['NAME'], settings.DATABASE_ROUTERS)"
)


def test_the_replica_url_adds_a_mirrored_alias_and_the_router():
    env = {
        "DJANGO_SETTINGS_MODULE": "schockclub.settings",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/primary",
        "DATABASE_REPLICA_URL": "postgres://postgres@10.0.0.2:5432/primary",
        "PATH": "/usr/bin:/bin",
    }
    out = subprocess.run(
        [sys.executable, "-c", SETTINGS_PROBE], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == ("default primary ['league.club.replica.ReplicaRouter']")
