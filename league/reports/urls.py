"""Report URLs: the season report, the evening sheet PDF, CSV exports."""

from django.urls import path

from . import views

urlpatterns = [
    path("saison/<int:year>/bericht/", views.season_report, name="season_report"),
    path(
        "saison/<int:year>/bericht/status/",
        views.season_report_status,
        name="season_report_status",
    ),
    path(
        "saison/<int:year>/bericht/erstellen/",
        views.season_report_request,
        name="season_report_request",
    ),
    path(
        "saison/<int:year>/saisonbericht.pdf",
        views.season_report_download,
        name="season_report_download",
    ),
    path("saison/<int:year>/<slug:kind>.csv", views.season_csv, name="season_csv"),
    path("abende/<int:pk>/abendblatt.pdf", views.evening_sheet_pdf, name="evening_sheet_pdf"),
]
