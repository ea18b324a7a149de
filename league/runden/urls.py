"""Pages of the Runden owed and given."""

from django.urls import path

from . import views

urlpatterns = [
    path("runden/", views.runden_list, name="runden_list"),
    path("runden/<int:schock_aus_id>/gegeben/", views.runde_given, name="runde_given"),
    path("runden/<int:schock_aus_id>/zuruecknehmen/", views.runde_undo, name="runde_undo"),
    path(
        "runden/abend/<int:evening_id>/gegeben/",
        views.runden_evening_given,
        name="runden_evening_given",
    ),
]
