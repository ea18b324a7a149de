"""Admin corrections, the secretary's fallback, keep the books in line like the pages do."""

from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.test import RequestFactory

from games.evenings.models import Evening, Game
from league.ledger.models import LedgerEntry
from tests.sample import enter_sample_evening

pytestmark = pytest.mark.django_db


def _request():
    return RequestFactory().post("/admin/")


def test_deleting_a_game_in_the_admin_reverses_its_charge(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    game = evening.games.get(number=1)
    key = f"game:{game.pk}"
    admin.site._registry[Game].delete_model(_request(), game)
    charge = LedgerEntry.objects.get(source_key=key, kind="game_lost")
    assert LedgerEntry.objects.filter(reverses=charge).exists()


def test_changing_a_loser_in_the_admin_moves_the_charge(sample_evening):
    evening, people = enter_sample_evening(sample_evening)
    game = evening.games.get(number=1)
    version = Evening.objects.get(pk=evening.pk).version
    game.loser = people["Carla Vogt"]
    game.save()
    form = SimpleNamespace(instance=game, save_m2m=lambda: None)
    admin.site._registry[Game].save_related(_request(), form, [], True)
    charges = LedgerEntry.objects.filter(source_key=f"game:{game.pk}", kind="game_lost")
    open_charges = [c for c in charges if not LedgerEntry.objects.filter(reverses=c).exists()]
    assert [c.member.name for c in open_charges] == ["Carla Vogt"]
    assert Evening.objects.get(pk=evening.pk).version == version + 1
