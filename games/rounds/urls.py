"""URLs of the round-by-round entry, stored rounds, throw feedback, odds, statistics."""

from django.urls import path

from . import views as rounds_views

urlpatterns = [
    path(
        "abende/<int:evening_id>/runden-eintragen/",
        rounds_views.game_rounds_entry,
        name="game_rounds_entry",
    ),
    path("spiele/<int:game_id>/runden/", rounds_views.game_rounds, name="game_rounds"),
    path("regeln/bewerten/", rounds_views.throw_evaluate, name="throw_evaluate"),
    path("wahrscheinlichkeiten/", rounds_views.odds, name="odds"),
    path("statistik/", rounds_views.schock_aus_stats, name="schock_aus_stats"),
]
