"""Pages of the club register: a new season."""

from django.urls import path

from . import views

urlpatterns = [
    path("saison/neu/", views.season_new, name="season_create"),
]
