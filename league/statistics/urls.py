"""Statistics pages."""

from django.urls import path

from . import views

urlpatterns = [
    path("statistik/saisons/", views.season_statistics, name="statistics_season"),
    path("statistik/rekorde/", views.records, name="statistics_records"),
    path("saison/<int:year>/rueckblick/", views.season_recap_page, name="season_recap"),
    path("saison/<int:year>/rueckblick.png", views.season_recap_image, name="season_recap_image"),
]
