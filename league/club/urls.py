"""Pages of the club register: a new season, a season's rule set."""

from django.urls import path

from . import views

urlpatterns = [
    path("saison/neu/", views.season_new, name="season_create"),
    path("regeln/", views.current_rules, name="current_rules"),
    path("saison/<int:year>/regeln/", views.season_rules_page, name="season_rules"),
    path("saison/<int:year>/regeln/bearbeiten/", views.season_rules_edit, name="season_rules_edit"),
]
