"""Pages of the championship: home, a season's standings, Marks per person."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("saison/<int:year>/", views.standings, name="season_standings"),
    path("marken/", views.my_dues, name="my_dues"),
    path("saison/<int:year>/marken/<int:member_id>/", views.dues, name="member_dues"),
]
