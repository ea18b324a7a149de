"""Pages of the season close."""

from django.urls import path

from . import views

urlpatterns = [
    path("saison/<int:year>/abschluss/", views.season_close_page, name="season_close"),
    path(
        "saison/<int:year>/abschluss/abschliessen/",
        views.season_close_action,
        name="season_close_action",
    ),
    path(
        "saison/<int:year>/abschluss/wiedereroeffnen/",
        views.season_reopen_action,
        name="season_reopen_action",
    ),
    path(
        "saison/<int:year>/abschluss/pruefen/",
        views.season_sign_off_action,
        name="season_sign_off_action",
    ),
]
