"""Leaving under ``einwuerfeln`` through the service, the entry page and the API: the first
half's loser, who holds no Deckel after the reset, may not leave (docs/rules.md 4).

Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat."
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
)
from games.rounds.services import (
    game_record_rounds,
)
from league.club.accounts.services import api_token_create
from league.club.errors import BooksError
from league.club.services import member_login_set
from tests.factories import UserFactory
from tests.games.rounds.actions import ANNA, BERND, CARLA, DIETER, action_evening
from tests.games.rounds.test_actions_views import _form

pytestmark = pytest.mark.django_db

#: Anna throws 2-2-1 against Carla's Schock-Aus: the first half and all 13 Deckel are hers.
FIRST_HALF = [(ANNA, (2, 2, 1)), (BERND, (6, 5, 3)), (CARLA, (1, 1, 1)), (DIETER, (6, 4, 2))]


def _rounds(people):
    """The first half lost by Anna, then Anna leaving (holding no Deckel after the reset)."""
    throws = [ThrowInput(player=people[n], dice=d, attempts=1, natural=True) for n, d in FIRST_HALF]
    return [RoundInput(throws=throws), RoundInput(kind="leave", player=people[ANNA])]


def _secretary(sample, evening, people):
    secretary = people[sample["evening"]["secretary"]]
    member_login_set(person=secretary, user=UserFactory(username="buchfuehrer"))
    return secretary


def test_the_service_refuses_the_first_half_losers_leaving_at_the_entry(sample_evening):
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat." """
    evening, people = action_evening(sample_evening, "stammtisch")
    with pytest.raises(BooksError) as caught:
        game_record_rounds(evening=evening, rounds=_rounds(people))
    assert (caught.value.code, caught.value.field) == ("leave_after_deckel", "rounds[1].player")


def test_the_entry_page_refuses_it_in_german_and_saves_nothing(client, sample_evening):
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat." """
    evening, people = action_evening(sample_evening, "stammtisch")
    client.force_login(_secretary(sample_evening, evening, people).user)
    url = reverse("game_rounds_entry", kwargs={"evening_id": evening.pk})
    response = client.post(url, _form(_rounds(people)))
    assert response.status_code == 200
    assert "hat in diesem Spiel schon Deckel erhalten" in response.content.decode()
    assert not evening.games.exists()


def test_the_api_refuses_it_with_the_code_at_the_entrys_player(sample_evening):
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat." """
    evening, people = action_evening(sample_evening, "stammtisch")
    secretary = _secretary(sample_evening, evening, people)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=secretary.user)[1]}")
    first = [
        {"player": people[n].pk, "dice": list(d), "attempts": 1, "natural": True}
        for n, d in FIRST_HALF
    ]
    rounds = [{"kind": "round", "throws": first}, {"kind": "leave", "player": people[ANNA].pk}]
    response = client.post(
        "/api/v1/games/rounds/", {"evening": evening.pk, "rounds": rounds}, format="json"
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == (
        "leave_after_deckel",
        "rounds[1].player",
    )
    assert not evening.games.exists()
