"""The pages of play: evenings and games, rounds and throws."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.evenings.urls")),
    path("", include("games.rounds.urls")),
]
