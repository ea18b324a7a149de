"""Pages of the championship: a season's standings, Marks per person (the home page is
league/standings/home.py, routed in league/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("saison/<int:year>/", views.standings, name="season_standings"),
    path("marken/", views.my_dues, name="my_dues"),
    path("saison/<int:year>/marken/<int:member_id>/", views.dues, name="member_dues"),
    path("ewige-tabelle/", views.all_time, name="all_time_standings"),
]
