"""Money-in pages."""

from django.urls import path

from . import views

urlpatterns = [
    path("verein/bankkonto/", views.club_bank_account, name="club_bank_account"),
    path("verein/bankimport/", views.bank_import, name="bank_import"),
    path("marken/girocode/", views.my_girocodes, name="my_girocodes"),
    path("verein/export/datev.csv", views.datev_export, name="datev_export"),
    path("verein/export/jverein.zip", views.jverein_export_view, name="jverein_export"),
    path("benachrichtigungen/", views.notification_choices_page, name="notification_choices"),
    path(
        "benachrichtigungen/abbestellen/<str:token>/",
        views.notification_unsubscribe,
        name="notification_unsubscribe",
    ),
]
